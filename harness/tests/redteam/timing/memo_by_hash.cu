// Red team (memoised speed): a lab 11 file that hashes its input and answers an input it
// has seen with the sorted keys it kept, a copy, and sorts (on the host, for brevity)
// only what is new. Each hit is printed, "memo hit", which the runner quotes on stderr.
// On one unchanging input every timed repeat is a hit; with a fresh draw before every run
// (pplab/fresh_inputs.h) none is, so check_timing.cmake (-DFORBID="memo hit") finds none.
#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "host_radix_sort.cuh"

namespace pplab::lab11 {
namespace {

std::uint64_t fnv1a(const std::vector<unsigned>& keys) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned k : keys) hash = (hash ^ k) * 1099511628211ull;
  return hash;
}

// The sorted order of the keys (positions), kept by the input's hash.
const std::vector<unsigned>& sorted_order(const std::vector<unsigned>& keys) {
  static std::map<std::pair<std::uint64_t, std::size_t>, std::vector<unsigned>> kept;
  const auto key = std::make_pair(fnv1a(keys), keys.size());
  if (auto found = kept.find(key); found != kept.end()) {
    std::fprintf(stderr, "memo hit\n");
    return found->second;
  }
  return kept[key] = stable_order(keys);
}

}  // namespace

void radix_sort_keys(void* d_temp, std::size_t& bytes, const unsigned* d_in, unsigned* d_out, std::size_t n, int, int,
                     cudaStream_t, Algorithm) {
  if (sizing(d_temp, bytes)) return;
  const auto keys = download(d_in, n);
  std::vector<unsigned> out(n);
  const auto& order = sorted_order(keys);
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
  const auto& order = sorted_order(keys);
  for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]], values_out[i] = values[order[i]];
  if (n) cudaMemcpy(d_keys_out, keys_out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  if (n) cudaMemcpy(d_values_out, values_out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
}

}  // namespace pplab::lab11
