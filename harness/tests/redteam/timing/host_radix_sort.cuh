// What the lab 11 timing attacks in this folder share: the sort done on the host (for
// brevity: what they attack is the timer, not the sort), and the entry points the
// benchmark never calls, there only so the runner links. Each attack defines
// radix_sort_keys and radix_sort_pairs for unsigned keys, and includes this from its one
// attack file.
#pragma once
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "radix_sort.cuh"

namespace pplab::lab11 {
namespace {

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> host(n);
  if (n) cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// The stable sorted order of the keys (input positions).
std::vector<unsigned> stable_order(const std::vector<unsigned>& keys) {
  std::vector<unsigned> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) { return keys[x] < keys[y]; });
  return order;
}

// The sizing call (no scratch given): asks for one byte, and the attack returns.
bool sizing(void* d_temp, std::size_t& bytes) {
  if (d_temp) return false;
  bytes = 1;
  return true;
}

}  // namespace

void split_sort(const unsigned*, unsigned*, unsigned*, std::size_t, int, int, cudaStream_t) {
  throw std::logic_error("not part of this attack");
}
void radix_sort_keys(void*, std::size_t&, const int*, int*, std::size_t, int, int, cudaStream_t, Algorithm) {
  throw std::logic_error("not part of this attack");
}
void radix_sort_keys(void*, std::size_t&, const float*, float*, std::size_t, int, int, cudaStream_t, Algorithm) {
  throw std::logic_error("not part of this attack");
}
void radix_sort_pairs(void*, std::size_t&, const int*, int*, const unsigned*, unsigned*, std::size_t, int, int,
                      cudaStream_t, Algorithm) {
  throw std::logic_error("not part of this attack");
}
void radix_sort_pairs(void*, std::size_t&, const float*, float*, const unsigned*, unsigned*, std::size_t, int, int,
                      cudaStream_t, Algorithm) {
  throw std::logic_error("not part of this attack");
}
bool onesweep_available() { return false; }

}  // namespace pplab::lab11
