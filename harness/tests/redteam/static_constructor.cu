// Red team: run before the harness's own start-up code, to read what it is given.
#include <unistd.h>

#include "saxpy.cuh"

namespace {
__attribute__((constructor)) void before_everything() {
  for (int fd = 3; fd < 16; ++fd) {
    char buffer[64];
    (void)!read(fd, buffer, sizeof buffer);
  }
}
}  // namespace

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {}
}  // namespace pplab::lab01
