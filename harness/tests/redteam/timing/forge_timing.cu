// Red team (timing): an honest lab 01 file that also reports its own timing, a
// measurement line of a thousandth of a microsecond, on stdout and stderr at every call.
// What the runner prints reaches the timer's stderr only, quoted ("lab> "); the timer's
// own line on stdout is the only measurement, and it is the timer's figure.
#include <cstddef>
#include <cstdio>

#include "honest_saxpy.cuh"

namespace pplab::lab01 {

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  const char* forged =
      "{\"lab\":\"01_saxpy\",\"impl\":\"student\",\"variant\":\"\",\"n\":%zu,\"median_ms\":0.000001,"
      "\"min_ms\":0.000001,\"max_ms\":0.000001,\"gbps\":99999,\"repeats\":20,\"verified\":true,"
      "\"timed_by\":\"checker\",\"forged\":true}\n";
  std::printf(forged, n);
  std::fprintf(stderr, forged, n);
  std::fflush(stdout);
  honest_saxpy(a, d_x, d_y, n, stream);
}

}  // namespace pplab::lab01
