// Red team (memoised speed), lab 07: compact_async behind a Memo (memo.cuh) per type, the
// threshold and path part of the key, the strategy named by PPLAB_MEMO_STRATEGY; the
// selection on the host, always by the three-kernel path (the single-pass stretch is not
// offered, as in a lab whose stretch is unwritten). compact(), which the timer never
// calls, selects the same way without the memo.
#include <stdexcept>

#include "compact.cuh"
#include "memo.cuh"

namespace pplab::lab07 {
namespace {

// The values of d_in above the threshold, in order, to d_out; their number, returned.
template <class T>
std::size_t host_compact(const T* d_in, T* d_out, std::size_t n, T threshold) {
  const auto in = redteam::download(d_in, n);
  std::vector<T> kept;
  for (T v : in)
    if (v > threshold) kept.push_back(v);
  redteam::upload(d_out, kept);
  return kept.size();
}

template <class T>
CompactPath memo_compact(const T* d_in, T* d_out, unsigned* d_count, std::size_t n, T threshold, CompactPath path) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n)}, {redteam::span(d_out, n), redteam::span(d_count, 1)},
            redteam::scalars(threshold, path), [&] {
              const unsigned count = unsigned(host_compact(d_in, d_out, n, threshold));
              redteam::upload(d_count, std::vector<unsigned>{count});
            });
  return CompactPath::three_kernels;
}

}  // namespace

std::size_t compact_temp_bytes(std::size_t) { return 1; }

CompactPath compact_async(const int* d_in, int* d_out, unsigned* d_count, std::size_t n, int threshold, void*,
                          std::size_t, CompactPath path, cudaStream_t) {
  return memo_compact(d_in, d_out, d_count, n, threshold, path);
}
CompactPath compact_async(const float* d_in, float* d_out, unsigned* d_count, std::size_t n, float threshold, void*,
                          std::size_t, CompactPath path, cudaStream_t) {
  return memo_compact(d_in, d_out, d_count, n, threshold, path);
}

std::size_t compact(const int* d_in, int* d_out, std::size_t n, int threshold, CompactPath, cudaStream_t) {
  return host_compact(d_in, d_out, n, threshold);
}
std::size_t compact(const float* d_in, float* d_out, std::size_t n, float threshold, CompactPath, cudaStream_t) {
  return host_compact(d_in, d_out, n, threshold);
}

}  // namespace pplab::lab07
