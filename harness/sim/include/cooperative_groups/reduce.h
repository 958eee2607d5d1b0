// cg::reduce over a tile or a coalesced group, with cg::plus/less/greater/bit_*.
// Every member gets the result. Tiles of up to 32 threads reduce with shuffles
// (a butterfly, as on a GPU); larger tiles go through the block's scratch memory
// between two block-wide barriers; coalesced groups gather their members' values.
#pragma once
#include <vector>

#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T = void> struct plus { T operator()(const T& a, const T& b) const { return a + b; } };
template <class T = void> struct less { T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T = void> struct greater { T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T = void> struct bit_and { T operator()(const T& a, const T& b) const { return a & b; } };
template <class T = void> struct bit_or { T operator()(const T& a, const T& b) const { return a | b; } };
template <class T = void> struct bit_xor { T operator()(const T& a, const T& b) const { return a ^ b; } };
template <> struct plus<void> { template <class T> T operator()(const T& a, const T& b) const { return a + b; } };
template <> struct less<void> { template <class T> T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <> struct greater<void> { template <class T> T operator()(const T& a, const T& b) const { return a < b ? b : a; } };

namespace details {
// Per worker thread (a worker runs one block at a time): one slot per thread of the block.
template <class T>
T* reduce_scratch() {
  static thread_local std::vector<T> slots(1024);
  return slots.data();
}
}  // namespace details

template <class T, unsigned N, class P, class Op>
T reduce(const thread_block_tile<N, P>& g, T val, Op op, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) {
  if constexpr (N <= 32) {
    for (unsigned offset = N / 2; offset > 0; offset /= 2) val = op(val, g.shfl_xor(val, offset, file, line));
    return val;
  } else {
    T* slots = details::reduce_scratch<T>();
    const unsigned me = details::block_rank(), first = me & ~(N - 1);
    g.sync(file, line);  // earlier readers of the slots are done
    slots[me] = val;
    g.sync(file, line);
    T acc = slots[first];
    for (unsigned r = 1; r < N && first + r < details::block_size(); ++r) acc = op(acc, slots[first + r]);
    return acc;
  }
}

template <class T, class Op>
T reduce(const coalesced_group& g, T val, Op op, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  T acc = g.shfl(val, 0u, file, line);
  for (unsigned r = 1; r < g.size(); ++r) acc = op(acc, g.shfl(val, r, file, line));
  return acc;
}
}  // namespace cooperative_groups
