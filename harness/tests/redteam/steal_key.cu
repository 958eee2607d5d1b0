// Red team: find the result channel's key and descriptors in the environment, or write a
// forged record to every open descriptor, then leave with status 0.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  const char* forged = "0000000000000000 1 {\"type\":\"end\",\"status\":0,\"cases\":1} FAKE-RECORD\n";
  for (const char* name : {"PPLAB_KEY_FD", "PPLAB_RESULT_FD", "PPLAB_SEED"})
    if (const char* value = std::getenv(name)) (void)!write(std::atoi(value), forged, std::strlen(forged));
  for (int fd = 0; fd < 64; ++fd) (void)!write(fd, forged, std::strlen(forged));
  _exit(0);
}
}  // namespace pplab::lab01
