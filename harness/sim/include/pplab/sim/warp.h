// Warp-level operations: votes, shuffles, reductions, __syncwarp.
//
// Each one is a rendezvous over the live lanes named in its mask: the caller
// suspends until all of them arrive at a warp op of the same kind and mask; then
// results are computed as CUDA defines them (including lanes outside `width`).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pplab/sim/devices.h"

namespace pplab::sim {
enum class WarpOp : std::uint8_t {
  sync, ballot, any, all, shfl, shfl_up, shfl_down, shfl_xor, match_any, active,
  reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor
};

// value: the lane's 64-bit payload; arg: source lane / delta / xor mask.
std::uint64_t warp_op(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width,
                      const char* file, int line);
// __activemask(): the lanes of the warp that reach this same call together. It
// waits until the rest of the warp has exited or waits elsewhere, which is when
// a GPU's converged lanes would execute it.
unsigned active_mask(const char* file, int line);
// Lane index of the calling thread within its warp.
unsigned lane_id();
constexpr unsigned mask_or_full(unsigned m = 0xffffffffu) { return m; }

template <class T>
T shfl(WarpOp op, const char* file, int line, unsigned mask, T var, int arg, int width = 32) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "shuffles move at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = warp_op(op, mask, bits, arg, width, file, line);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

// CUDA's __reduce_*_sync (sm_80 and later): every lane of the mask gets the reduction of
// the mask's values. int and unsigned overloads, as in CUDA; min and max compare signed
// for int (arg 1), so the scheduler is told which. Compiled for an older architecture the
// call does not compile (nvcc refuses it too); compiled for sm_80 and run as an older
// device, it is reported with its line.
template <int Arch>
constexpr bool reduce_sync_exists() {
  static_assert(Arch >= 800,
                "__reduce_*_sync needs compute capability 8.0 (sm_80); this code is compiled for an older GPU "
                "(PPLAB_SIM_DEVICE at build time, or -arch): keep a path for it under #if __CUDA_ARCH__ >= 800");
  return true;
}
inline int warp_reduce(WarpOp op, const char* file, int line, unsigned mask, int value) {
  detail::require_arch(800, "__reduce_*_sync", file, line);
  return static_cast<int>(static_cast<std::uint32_t>(
      warp_op(op, mask, static_cast<std::uint32_t>(value), /*signed=*/1, 32, file, line)));
}
inline unsigned warp_reduce(WarpOp op, const char* file, int line, unsigned mask, unsigned value) {
  detail::require_arch(800, "__reduce_*_sync", file, line);
  return static_cast<unsigned>(warp_op(op, mask, value, /*signed=*/0, 32, file, line));
}
}  // namespace pplab::sim

#define __syncwarp(...) \
  ((void)::pplab::sim::warp_op(::pplab::sim::WarpOp::sync, ::pplab::sim::mask_or_full(__VA_ARGS__), 0, 0, 32, __FILE__, __LINE__))
#define __ballot_sync(mask, pred) \
  static_cast<unsigned>(::pplab::sim::warp_op(::pplab::sim::WarpOp::ballot, (mask), (pred) ? 1 : 0, 0, 32, __FILE__, __LINE__))
#define __any_sync(mask, pred) \
  static_cast<int>(::pplab::sim::warp_op(::pplab::sim::WarpOp::any, (mask), (pred) ? 1 : 0, 0, 32, __FILE__, __LINE__))
#define __all_sync(mask, pred) \
  static_cast<int>(::pplab::sim::warp_op(::pplab::sim::WarpOp::all, (mask), (pred) ? 1 : 0, 0, 32, __FILE__, __LINE__))
// The lanes of the mask whose `value` equals this lane's (CUDA's __match_any_sync, for
// 32- and 64-bit values).
#define __match_any_sync(mask, value) \
  static_cast<unsigned>(::pplab::sim::warp_op(::pplab::sim::WarpOp::match_any, (mask), \
                                               static_cast<std::uint64_t>(value), 0, 32, __FILE__, __LINE__))
#define __shfl_sync(...) ::pplab::sim::shfl(::pplab::sim::WarpOp::shfl, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::pplab::sim::shfl(::pplab::sim::WarpOp::shfl_up, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::pplab::sim::shfl(::pplab::sim::WarpOp::shfl_down, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::pplab::sim::shfl(::pplab::sim::WarpOp::shfl_xor, __FILE__, __LINE__, __VA_ARGS__)

#define __activemask() ::pplab::sim::active_mask(__FILE__, __LINE__)

#define __reduce_add_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_add, __FILE__, __LINE__, (mask), (value)))
#define __reduce_min_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_min, __FILE__, __LINE__, (mask), (value)))
#define __reduce_max_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_max, __FILE__, __LINE__, (mask), (value)))
// The bitwise ones take unsigned values only, as in CUDA.
#define __reduce_and_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_and, __FILE__, __LINE__, (mask), static_cast<unsigned>(value)))
#define __reduce_or_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_or, __FILE__, __LINE__, (mask), static_cast<unsigned>(value)))
#define __reduce_xor_sync(mask, value) \
  ((void)::pplab::sim::reduce_sync_exists<PPLAB_SIM_CUDA_ARCH>(), ::pplab::sim::warp_reduce(::pplab::sim::WarpOp::reduce_xor, __FILE__, __LINE__, (mask), static_cast<unsigned>(value)))
