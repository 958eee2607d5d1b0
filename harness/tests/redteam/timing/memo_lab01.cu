// Red team (memoised speed), lab 01: saxpy behind a Memo (memo.cuh), the strategy named by
// PPLAB_MEMO_STRATEGY. y is read and written: its bytes before the call are an input.
#include "honest_saxpy.cuh"
#include "memo.cuh"

namespace pplab::lab01 {

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_x, n), redteam::span(d_y, n)}, {redteam::span(d_y, n)}, redteam::scalars(a),
            [&] { honest_saxpy(a, d_x, d_y, n, stream); });
}

}  // namespace pplab::lab01
