// Cooperative groups on the sim: thread blocks, tiles of a block (thread_block_tile<N>,
// tiled_partition), coalesced groups, the grid of a cooperative launch, and
// cg::reduce (in <cooperative_groups/reduce.h>).
//
// Every operation is one of the sim's rendezvous: a block's sync is __syncthreads(),
// a tile of up to 32 threads uses warp operations over its lanes (so the warp checks
// apply: a tile lane that exited or waits elsewhere is reported), a larger tile syncs
// the whole block (its other tiles must sync at the same call, or the sim reports
// barrier divergence), and grid.sync() waits for every block of a
// cudaLaunchCooperativeKernel launch. Each call takes its caller's file and line
// (__builtin_FILE/__builtin_LINE), so reports name the user's code, not this header.
#pragma once
#include <cstring>
#include <type_traits>

#include "cuda_runtime.h"

namespace cooperative_groups {
namespace details {
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned lanes_mask(unsigned n, unsigned lane) {
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1u) << (lane & ~(n - 1u));
}
// The lane holding rank r of a coalesced group with mask m.
inline int nth_lane(unsigned m, unsigned r) {
  for (unsigned i = 0; i < r && m; ++i) m &= m - 1;
  return m ? __builtin_ctz(m) : -1;
}
enum class kind : unsigned char { block, tile, coalesced, grid };
// A shuffle of any trivially copyable type: 8 bytes at a time, one warp rendezvous each.
template <class T>
T shfl_any(::pplab::sim::WarpOp op, const char* file, int line, unsigned mask, const T& var, int arg, int width) {
  static_assert(std::is_trivially_copyable_v<T>, "shuffles move trivially copyable values");
  if constexpr (sizeof(T) <= 8) {
    return ::pplab::sim::shfl(op, file, line, mask, var, arg, width);
  } else {
    unsigned long long words[(sizeof(T) + 7) / 8] = {};
    std::memcpy(words, &var, sizeof(T));
    for (auto& w : words) w = ::pplab::sim::shfl(op, file, line, mask, w, arg, width);
    T out;
    std::memcpy(&out, words, sizeof(T));
    return out;
  }
}
}  // namespace details

#define PPLAB_CG_SITE const char *file = __builtin_FILE(), int line = __builtin_LINE()
#define PPLAB_CG_WARP(op, m, v, a, w) ::pplab::sim::warp_op(::pplab::sim::WarpOp::op, (m), (v), (a), (w), file, line)

// A group known only at run time: a block, a tile of up to 32 threads
// (tiled_partition(parent, n)), or a coalesced group.
class thread_group {
 public:
  void sync(PPLAB_CG_SITE) const {
    switch (kind_) {
      case details::kind::block: ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, file, line); break;
      case details::kind::grid: ::pplab::sim::grid_sync(file, line); break;
      default:
        if (size_ > 32) ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, file, line);
        else PPLAB_CG_WARP(sync, mask(), 0, 0, 32);
    }
  }
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long thread_rank() const {
    switch (kind_) {
      case details::kind::block: return details::block_rank();
      case details::kind::grid:
        return (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * 1ull * blockIdx.z)) * details::block_size() +
               details::block_rank();
      case details::kind::coalesced: return __popc(mask_ & ((1u << (details::block_rank() & 31)) - 1u));
      default: return details::block_rank() & (size_ - 1);
    }
  }
  bool is_valid() const { return true; }

 protected:
  thread_group(details::kind k, unsigned long long n, unsigned m = 0) : kind_(k), size_(n), mask_(m) {}
  unsigned mask() const {
    if (kind_ == details::kind::coalesced) return mask_;
    return details::lanes_mask(static_cast<unsigned>(size_), details::block_rank() & 31);
  }
  details::kind kind_;
  unsigned long long size_;
  unsigned mask_;
  friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size);
};

// Scratch some CUDA versions ask for to build large tiles; the sim needs none.
template <unsigned N, unsigned M = 1>
struct block_tile_memory {
  alignas(16) unsigned char unused[16];
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(details::kind::block, details::block_size()) {}
  void sync(PPLAB_CG_SITE) const { ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, file, line); }
  unsigned thread_rank() const { return details::block_rank(); }
  unsigned size() const { return details::block_size(); }
  unsigned num_threads() const { return details::block_size(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }
template <unsigned N, unsigned M>
inline thread_block this_thread_block(block_tile_memory<N, M>&) { return thread_block(); }

// The grid: valid (and grid.sync() allowed) only under cudaLaunchCooperativeKernel.
class grid_group : public thread_group {
 public:
  grid_group() : thread_group(details::kind::grid, 1ull * gridDim.x * gridDim.y * gridDim.z * details::block_size()) {}
  void sync(PPLAB_CG_SITE) const { ::pplab::sim::grid_sync(file, line); }
  bool is_valid() const { return ::pplab::sim::grid_is_cooperative(); }
  unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
  unsigned long long block_rank() const { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * 1ull * blockIdx.z); }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
};
inline grid_group this_grid() { return grid_group(); }

// A static tile of N threads (N a power of two up to the block size), numbered
// within the block in thread-rank order.
template <unsigned N, class Parent = void>
class thread_block_tile : public thread_group {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 1024");
  template <class T>
  using fits = std::enable_if_t<std::is_trivially_copyable_v<T>, T>;

 public:
  thread_block_tile() : thread_group(details::kind::tile, N) {}
  template <class P>
  thread_block_tile(const thread_block_tile<N, P>&) : thread_group(details::kind::tile, N) {}

  static constexpr unsigned long long size() { return N; }
  static constexpr unsigned long long num_threads() { return N; }
  unsigned long long thread_rank() const { return details::block_rank() & (N - 1); }
  unsigned long long meta_group_rank() const { return details::block_rank() / N; }
  unsigned long long meta_group_size() const { return (details::block_size() + N - 1) / N; }
  void sync(PPLAB_CG_SITE) const {
    if constexpr (N > 32) ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, file, line);
    else PPLAB_CG_WARP(sync, lanes(), 0, 0, 32);
  }
  // Warp operations exist for tiles of up to 32 threads, as in CUDA.
  template <class T>
  fits<T> shfl(T var, int src_rank, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "shuffles need a tile of at most 32 threads");
    return details::shfl_any(::pplab::sim::WarpOp::shfl, file, line, lanes(), var, src_rank, N);
  }
  template <class T>
  fits<T> shfl_up(T var, unsigned delta, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "shuffles need a tile of at most 32 threads");
    return details::shfl_any(::pplab::sim::WarpOp::shfl_up, file, line, lanes(), var, static_cast<int>(delta), N);
  }
  template <class T>
  fits<T> shfl_down(T var, unsigned delta, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "shuffles need a tile of at most 32 threads");
    return details::shfl_any(::pplab::sim::WarpOp::shfl_down, file, line, lanes(), var, static_cast<int>(delta), N);
  }
  template <class T>
  fits<T> shfl_xor(T var, unsigned lane_mask, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "shuffles need a tile of at most 32 threads");
    return details::shfl_any(::pplab::sim::WarpOp::shfl_xor, file, line, lanes(), var, static_cast<int>(lane_mask), N);
  }
  // Bit i of the ballot is the tile's rank i.
  unsigned ballot(int pred, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "votes need a tile of at most 32 threads");
    unsigned b = static_cast<unsigned>(PPLAB_CG_WARP(ballot, lanes(), pred ? 1 : 0, 0, 32));
    return N >= 32 ? b : (b >> ((details::block_rank() & 31) & ~(N - 1))) & ((1u << N) - 1u);
  }
  int any(int pred, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "votes need a tile of at most 32 threads");
    return static_cast<int>(PPLAB_CG_WARP(any, lanes(), pred ? 1 : 0, 0, 32));
  }
  int all(int pred, PPLAB_CG_SITE) const {
    static_assert(N <= 32, "votes need a tile of at most 32 threads");
    return static_cast<int>(PPLAB_CG_WARP(all, lanes(), pred ? 1 : 0, 0, 32));
  }

 private:
  unsigned lanes() const { return details::lanes_mask(N, details::block_rank() & 31); }
};

template <unsigned N>
inline thread_block_tile<N, thread_block> tiled_partition(const thread_block&) { return {}; }
template <unsigned N, unsigned M, class P>
inline thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>&) {
  static_assert(N <= M, "a tile's partition is not larger than the tile");
  return {};
}
// A run-time tile size: a power of two up to 32, or the whole block.
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  if (tile_size == 0 || (tile_size & (tile_size - 1)) || tile_size > 32) return parent;
  return thread_group(details::kind::tile, tile_size);
}

// The threads of the warp that reach this call together (__activemask()).
class coalesced_group : public thread_group {
  template <class T>
  using fits = std::enable_if_t<std::is_trivially_copyable_v<T>, T>;

 public:
  explicit coalesced_group(unsigned m) : thread_group(details::kind::coalesced, __popc(m), m) {}
  unsigned long long thread_rank() const { return __popc(mask_ & ((1u << lane()) - 1u)); }
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long meta_group_rank() const { return 0; }
  unsigned long long meta_group_size() const { return 1; }
  void sync(PPLAB_CG_SITE) const { PPLAB_CG_WARP(sync, mask_, 0, 0, 32); }
  template <class T>
  fits<T> shfl(T var, unsigned src_rank, PPLAB_CG_SITE) const {
    int src = details::nth_lane(mask_, src_rank % static_cast<unsigned>(size_));
    return details::shfl_any(::pplab::sim::WarpOp::shfl, file, line, mask_, var, src, 32);
  }
  template <class T>
  fits<T> shfl_down(T var, unsigned delta, PPLAB_CG_SITE) const {
    unsigned r = static_cast<unsigned>(thread_rank()) + delta;
    int src = r < size_ ? details::nth_lane(mask_, r) : lane();
    return details::shfl_any(::pplab::sim::WarpOp::shfl, file, line, mask_, var, src, 32);
  }
  template <class T>
  fits<T> shfl_up(T var, unsigned delta, PPLAB_CG_SITE) const {
    unsigned r = static_cast<unsigned>(thread_rank());
    int src = r >= delta ? details::nth_lane(mask_, r - delta) : lane();
    return details::shfl_any(::pplab::sim::WarpOp::shfl, file, line, mask_, var, src, 32);
  }
  // Bit i of the ballot is the group's rank i.
  unsigned ballot(int pred, PPLAB_CG_SITE) const {
    unsigned b = static_cast<unsigned>(PPLAB_CG_WARP(ballot, mask_, pred ? 1 : 0, 0, 32)), out = 0, k = 0;
    for (unsigned m = mask_; m; m &= m - 1, ++k)
      if (b & (m & -m)) out |= 1u << k;
    return out;
  }
  int any(int pred, PPLAB_CG_SITE) const { return static_cast<int>(PPLAB_CG_WARP(any, mask_, pred ? 1 : 0, 0, 32)); }
  int all(int pred, PPLAB_CG_SITE) const { return static_cast<int>(PPLAB_CG_WARP(all, mask_, pred ? 1 : 0, 0, 32)); }

 private:
  static int lane() { return static_cast<int>(details::block_rank() & 31); }
};
inline coalesced_group coalesced_threads(PPLAB_CG_SITE) {
  return coalesced_group(::pplab::sim::active_mask(file, line));
}

template <class Group>
inline void sync(const Group& g, PPLAB_CG_SITE) { g.sync(file, line); }
template <class Group>
inline unsigned long long thread_rank(const Group& g) { return g.thread_rank(); }
template <class Group>
inline unsigned long long group_size(const Group& g) { return g.size(); }

#undef PPLAB_CG_WARP
#undef PPLAB_CG_SITE
}  // namespace cooperative_groups
