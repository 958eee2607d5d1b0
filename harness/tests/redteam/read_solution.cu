// Red team: print the reference solution and the test file, hoping they reach the
// report a student is shown; print the rest of what the grader might hold too.
#include <cstdio>

#include "saxpy.cuh"

namespace {
void show(const char* path) {
  if (std::FILE* file = std::fopen(path, "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, file)) std::fputs(line, stderr);
    std::fclose(file);
  } else {
    std::fprintf(stderr, "cannot open %s\n", path);
  }
}
}  // namespace

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  show("@ROOT@/solutions/01_saxpy/saxpy.cu");
  show("@ROOT@/labs/01_saxpy/test_saxpy.cpp");
  show("/proc/self/cmdline");
  show("/proc/1/cmdline");
}
}  // namespace pplab::lab01
