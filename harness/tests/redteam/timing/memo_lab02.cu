// Red team (memoised speed), lab 02: the dot product behind a Memo (memo.cuh), the
// strategy named by PPLAB_MEMO_STRATEGY; the product itself on the host, for brevity.
#include "dot_product.cuh"
#include "memo.cuh"

namespace pplab::lab02 {

void dot_product(const float* d_a, const float* d_b, float* d_result, std::size_t n, int, cudaStream_t) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_a, n), redteam::span(d_b, n)}, {redteam::span(d_result, 1)}, {}, [&] {
    const auto a = redteam::download(d_a, n), b = redteam::download(d_b, n);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += double(a[i]) * b[i];
    redteam::upload(d_result, std::vector<float>{float(sum)});
  });
}

}  // namespace pplab::lab02
