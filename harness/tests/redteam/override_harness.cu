// Red team: replace the harness's functions that run and compare the checks, so that no
// schedule runs and every comparison passes.
#include <functional>
#include <string>

#include "saxpy.cuh"

namespace pplab {
void for_each_schedule(const std::function<void(const std::string&)>&) {}
void note_check_failed() {}
}  // namespace pplab

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {}
}  // namespace pplab::lab01
