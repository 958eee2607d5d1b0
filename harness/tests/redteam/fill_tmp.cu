// Red team: fill /tmp, which is memory, until the host has none left. Says how much it
// wrote, in an exception.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  static bool done = false;
  if (done) return;
  done = true;
  static char block[1 << 20];
  long mib = 0;
  for (int file = 0; file < 64 && mib < 4096; ++file) {
    std::FILE* out = std::fopen(("/tmp/fill" + std::to_string(file)).c_str(), "wb");
    if (!out) break;
    bool full = false;
    for (int i = 0; i < 64; ++i, ++mib) {   // 64 MiB a file: the file size limit
      if (std::fwrite(block, 1, sizeof block, out) != sizeof block || std::fflush(out) != 0) {
        full = true;
        break;
      }
    }
    std::fclose(out);
    if (full) break;
  }
  // An exception's message is quoted in the check's reason, so the test can read it.
  throw std::runtime_error("fill tmp: " + std::to_string(mib) + " MiB written");
}
}  // namespace pplab::lab01
