// A lab 01 submission that takes two seconds on its first call in each check and computes
// nothing: the student a batch is stopped in the middle of (batch_resumes.cmake).
#include <unistd.h>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  static bool slept = false;
  if (!slept) sleep(2);
  slept = true;
}
}  // namespace pplab::lab01
