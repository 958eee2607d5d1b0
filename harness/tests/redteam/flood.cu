// Red team: print without end, to swamp the reports and the grader's memory.
#include <cstdio>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  static char line[1024];
  for (std::size_t i = 0; i + 1 < sizeof line; ++i) line[i] = 'x';
  for (int i = 0; i < 200000; ++i) std::fputs(line, stdout), std::fputc('\n', stdout);
}
}  // namespace pplab::lab01
