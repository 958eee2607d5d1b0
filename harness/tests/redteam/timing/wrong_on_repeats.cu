// Red team (timing): a lab 01 file that is right when it is called the first few times
// (the checks, the warm-up) and then skips the work on every other call, so half the
// timed repeats cost nothing. The checker's timer checks a random half of the timed
// repeats, chosen after each has returned, and the last: it must report the
// measurement unverified.
#include <cstddef>

#include "honest_saxpy.cuh"

namespace pplab::lab01 {

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  static int calls = 0;
  ++calls;
  if (calls > 3 && calls % 2 == 1) return;  // a "fast" run that leaves y as it was
  honest_saxpy(a, d_x, d_y, n, stream);
}

}  // namespace pplab::lab01
