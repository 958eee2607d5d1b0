// Red team (timing): an honest lab 01 file that, at every call, tries to end the
// benchmark's turn alone on the GPU early (so another student's checks would run beside
// its timing) or to ask for one: it writes the turn protocol's words (pplab/gpu_turn.h)
// on the descriptors the grader gives the benchmark, and looks for the variable that
// names them. The benchmark closes both to the runner and removes the variable before
// any lab code runs, so every try fails; the lab says what it reached.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "honest_saxpy.cuh"

namespace pplab::lab01 {

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  bool reached = false;
  for (int fd = 200; fd <= 210; ++fd) {  // around the benchmark's numbers, whatever they are
    const char words[] = {'d', 'g', 'a'};
    if (write(fd, words, sizeof words) > 0) reached = true;
  }
  const char* named = std::getenv("PPLAB_GPU_TURN_FDS");
  std::printf("%s\n", reached ? "reached a turn pipe" : named ? "saw the turn variable" : "turn pipes out of reach");
  std::fflush(stdout);
  honest_saxpy(a, d_x, d_y, n, stream);
}

}  // namespace pplab::lab01
