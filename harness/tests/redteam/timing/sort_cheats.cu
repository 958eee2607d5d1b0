// Red team (timing, sampled checks of a sort): a lab 11 file that sorts (on the host, for
// brevity) right for the first calls, then on every other call leaves the keys as the
// last draw's answer, and sorts pairs with the right keys but values that are not the
// stable order. At 2^18 keys the timer checks each repeat at 65,536 sampled positions
// (pplab/sort_checks.h, sampled::stable_sort_at): both measurements must be unverified.
#include <cstddef>
#include <vector>

#include "host_radix_sort.cuh"

namespace pplab::lab11 {
namespace {

// Right for the first calls (the warm-ups), then wrong on every other one.
bool cheat_this_call() {
  static int calls = 0;
  ++calls;
  return calls > 3 && calls % 2 == 1;
}

}  // namespace

void radix_sort_keys(void* d_temp, std::size_t& bytes, const unsigned* d_in, unsigned* d_out, std::size_t n, int, int,
                     cudaStream_t, Algorithm) {
  if (sizing(d_temp, bytes) || cheat_this_call()) return;  // the last answer stays in d_out
  const auto keys = download(d_in, n);
  std::vector<unsigned> out(n);
  const auto order = stable_order(keys);
  for (std::size_t i = 0; i < n; ++i) out[i] = keys[order[i]];
  if (n) cudaMemcpy(d_out, out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
}

void radix_sort_pairs(void* d_temp, std::size_t& bytes, const unsigned* d_keys_in, unsigned* d_keys_out,
                      const unsigned* d_values_in, unsigned* d_values_out, std::size_t n, int, int, cudaStream_t,
                      Algorithm) {
  if (sizing(d_temp, bytes)) return;
  const auto keys = download(d_keys_in, n);
  const auto values = download(d_values_in, n);
  std::vector<unsigned> keys_out(n), values_out(n);
  const auto order = stable_order(keys);
  const bool cheat = cheat_this_call();
  // The keys always right; the values, when cheating, the input's order.
  for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]], values_out[i] = cheat ? values[i] : values[order[i]];
  if (n) cudaMemcpy(d_keys_out, keys_out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  if (n) cudaMemcpy(d_values_out, values_out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
}

}  // namespace pplab::lab11
