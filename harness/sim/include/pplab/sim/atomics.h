// CUDA atomics on global and shared memory, via std::atomic_ref.
//
// Shared-memory atomics would not need real atomics (a block's threads share one
// OS thread) but the same call must also serve global memory, which blocks on
// several workers touch at once. Relaxed order matches CUDA's atomics.
#pragma once
#include <atomic>
#include <bit>
#include <type_traits>

namespace pplab::sim {
template <class T>
inline std::atomic_ref<T> aref(T* p) { return std::atomic_ref<T>(*p); }
template <class T, class F>
inline T cas_loop(T* p, F f) {
  auto a = aref(p);
  T old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {}
  return old;
}
}  // namespace pplab::sim

// Plain overloads, not templates, so `atomicAdd(unsigned_ptr, 1)` converts the 1 as
// it does under nvcc.
#define PPLAB_SIM_INT_ATOMICS(T)                                                              \
  inline T atomicAdd(T* p, T v) { return pplab::sim::aref(p).fetch_add(v, std::memory_order_relaxed); } \
  inline T atomicSub(T* p, T v) { return pplab::sim::aref(p).fetch_sub(v, std::memory_order_relaxed); } \
  inline T atomicAnd(T* p, T v) { return pplab::sim::aref(p).fetch_and(v, std::memory_order_relaxed); } \
  inline T atomicOr(T* p, T v) { return pplab::sim::aref(p).fetch_or(v, std::memory_order_relaxed); }   \
  inline T atomicXor(T* p, T v) { return pplab::sim::aref(p).fetch_xor(v, std::memory_order_relaxed); } \
  inline T atomicMin(T* p, T v) { return pplab::sim::cas_loop(p, [v](T o) { return v < o ? v : o; }); } \
  inline T atomicMax(T* p, T v) { return pplab::sim::cas_loop(p, [v](T o) { return v > o ? v : o; }); } \
  inline T atomicExch(T* p, T v) { return pplab::sim::aref(p).exchange(v, std::memory_order_relaxed); } \
  inline T atomicCAS(T* p, T compare, T v) {                                                  \
    /* compare ends up holding the old value whether or not the exchange happened */          \
    pplab::sim::aref(p).compare_exchange_strong(compare, v, std::memory_order_relaxed);       \
    return compare;                                                                           \
  }
PPLAB_SIM_INT_ATOMICS(int)
PPLAB_SIM_INT_ATOMICS(unsigned int)
PPLAB_SIM_INT_ATOMICS(unsigned long long)
PPLAB_SIM_INT_ATOMICS(long long)
#undef PPLAB_SIM_INT_ATOMICS
inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short v) {
  pplab::sim::aref(p).compare_exchange_strong(compare, v, std::memory_order_relaxed);
  return compare;
}
// Float atomics: a compare-exchange loop gives the same result as a GPU's
// atomicAdd for one update; the order of updates (and so rounding) may differ.
inline float atomicAdd(float* p, float v) { return pplab::sim::cas_loop(p, [v](float o) { return o + v; }); }
inline double atomicAdd(double* p, double v) { return pplab::sim::cas_loop(p, [v](double o) { return o + v; }); }
inline float atomicExch(float* p, float v) { return pplab::sim::aref(p).exchange(v, std::memory_order_relaxed); }
inline float atomicMin(float* p, float v) { return pplab::sim::cas_loop(p, [v](float o) { return v < o ? v : o; }); }
inline float atomicMax(float* p, float v) { return pplab::sim::cas_loop(p, [v](float o) { return v > o ? v : o; }); }
// CUDA's wrapping increment/decrement: ((old >= limit) ? 0 : old + 1) and
// ((old == 0 || old > limit) ? limit : old - 1).
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  return pplab::sim::cas_loop(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  return pplab::sim::cas_loop(p, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}

// The _block and _system scopes behave like the device scope here.
#define PPLAB_SIM_SCOPED(name)                                                           \
  template <class... A> inline auto name##_block(A... a) -> decltype(name(a...)) { return name(a...); } \
  template <class... A> inline auto name##_system(A... a) -> decltype(name(a...)) { return name(a...); }
PPLAB_SIM_SCOPED(atomicAdd)
PPLAB_SIM_SCOPED(atomicSub)
PPLAB_SIM_SCOPED(atomicAnd)
PPLAB_SIM_SCOPED(atomicOr)
PPLAB_SIM_SCOPED(atomicXor)
PPLAB_SIM_SCOPED(atomicMin)
PPLAB_SIM_SCOPED(atomicMax)
PPLAB_SIM_SCOPED(atomicExch)
PPLAB_SIM_SCOPED(atomicCAS)
#undef PPLAB_SIM_SCOPED
