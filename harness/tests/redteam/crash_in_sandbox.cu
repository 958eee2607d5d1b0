// Red team: a lab that dies of a signal (here abort()'s SIGABRT) inside the sandbox. The
// sandbox's bubblewrap passes a death by signal N on as exit status 128 + N, which the
// checker once read as a plain exit ("exit() called from lab code?"), on a GPU for every
// segmentation fault. The report must name the crash.
#include <cstdlib>

#include "saxpy.cuh"

namespace pplab::lab01 {

void saxpy(float, const float*, float*, std::size_t, cudaStream_t) { std::abort(); }

}  // namespace pplab::lab01
