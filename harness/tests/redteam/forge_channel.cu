// Red team: send a passing record on the grader's result channel, then leave before the
// checks can fail. The channel lives in the checker, so this cannot even link.
#include <unistd.h>

#include <string>

#include "saxpy.cuh"

namespace pplab::channel {
void send(const std::string& json);
}

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  pplab::channel::send(R"({"type":"case","name":"x","failures":0})");
  _exit(0);
}
}  // namespace pplab::lab01
