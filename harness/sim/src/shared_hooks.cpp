// The __tsan_* functions that GCC's -fsanitize=thread instrumentation calls before
// every load, store and atomic of the sources compiled for the sim: libtsan is not
// linked, and these are the whole runtime the instrumented code needs. A hook compares
// the address with the running block's arena and returns at once for everything else,
// so host, global and stack accesses cost one call; a whole-word read the read fast
// path clears costs a few loads more, and every other arena access goes to check()
// (shared_check.cpp). The atomics are done for real here.
#include <atomic>
#include <cstdint>

#include "internal.h"
#include "shared_check_internal.h"

namespace pplab::sim::detail {
namespace {

[[gnu::always_inline]] inline bool in_arena(const volatile void* p) {
  return reinterpret_cast<std::uintptr_t>(p) - tls_lo < tls_len;
}

// The common read of a tiled kernel: many threads read a word that was written in an
// earlier interval. Once two of them are on record (check() has noted it in
// State::fast), a read by any other thread would change no record and find no race,
// so it needs no check. `words` whole aligned words from p, inside the arena.
[[gnu::always_inline]] inline bool read_fast(const void* p, int words) {
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - tls_lo;
  if (off & 3) return false;
  const State& s = *tls_state;
  const std::uint64_t* f = s.fast + (off >> 2);
  const std::uint32_t u = static_cast<std::uint32_t>(s.cur->load(std::memory_order_relaxed));
  for (int i = 0; i < words; ++i) {
    const std::uint64_t v = f[i];
    if (static_cast<std::uint32_t>(v) != s.now || ((v >> 32) & 0xffff) == u || (v >> 48) == u) return false;
  }
  return true;
}

}  // namespace
}  // namespace pplab::sim::detail

// The plain read/write hooks live in a section of their own so that a program
// counter sampled inside one (a kernel spinning on a shared flag) can be traced
// back to the kernel's line: they are leaves, so the return address is on top of
// the stack. The linker defines the section's bounds.
#define PPLAB_SIM_FAST_HOOK extern "C" __attribute__((section("pplab_sim_hooks"), used))
extern "C" char __start_pplab_sim_hooks[], __stop_pplab_sim_hooks[];

extern "C" char __start_pplab_sim_slow[], __stop_pplab_sim_slow[];

void* pplab::sim::detail::shared_user_pc(void* pc, void* sp) {
  char* p = static_cast<char*>(pc);
  if (p >= __start_pplab_sim_slow && p < __stop_pplab_sim_slow && tls_slow_pc) return const_cast<void*>(tls_slow_pc);
  if (p >= __start_pplab_sim_hooks && p < __stop_pplab_sim_hooks && sp) return *static_cast<void**>(sp);
  return pc;
}

// ------------------------------------------------------------------ hooks ----
// What GCC's -fsanitize=thread instrumentation calls. Only the sim's rewritten
// sources are instrumented; these are the whole runtime they need.
using pplab::sim::detail::check;
using pplab::sim::detail::in_arena;
using K = pplab::sim::detail::Kind;

#define PPLAB_SIM_HOOK(fn, n, kind)                                                                      \
  PPLAB_SIM_FAST_HOOK void fn(void* p) {                                                                 \
    if (__builtin_expect(in_arena(p), 0)) check(reinterpret_cast<std::uintptr_t>(p), n, kind, __builtin_return_address(0)); \
  }
// Whole-word reads try read_fast first.
#define PPLAB_SIM_READ_HOOK(fn, n)                                                                       \
  PPLAB_SIM_FAST_HOOK void fn(void* p) {                                                                 \
    if (__builtin_expect(in_arena(p), 0) && !pplab::sim::detail::read_fast(p, n / 4))                     \
      check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_read, __builtin_return_address(0));         \
  }
PPLAB_SIM_HOOK(__tsan_read1, 1, K::plain_read)
PPLAB_SIM_HOOK(__tsan_read2, 2, K::plain_read)
PPLAB_SIM_READ_HOOK(__tsan_read4, 4)
PPLAB_SIM_READ_HOOK(__tsan_read8, 8)
PPLAB_SIM_HOOK(__tsan_read16, 16, K::plain_read)
PPLAB_SIM_HOOK(__tsan_write1, 1, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write2, 2, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write4, 4, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write8, 8, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write16, 16, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_read2, 2, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read4, 4, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read8, 8, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read16, 16, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_write2, 2, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write4, 4, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write8, 8, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write16, 16, K::plain_write)
#undef PPLAB_SIM_HOOK
#undef PPLAB_SIM_READ_HOOK

PPLAB_SIM_FAST_HOOK void __tsan_read_range(void* p, unsigned long n) {
  if (__builtin_expect(in_arena(p), 0) && n) check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_read, __builtin_return_address(0));
}
PPLAB_SIM_FAST_HOOK void __tsan_write_range(void* p, unsigned long n) {
  if (__builtin_expect(in_arena(p), 0) && n) check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_write, __builtin_return_address(0));
}
extern "C" void __tsan_init() {}
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}

// Atomics: done for real (global memory is shared between workers); on shared
// memory they count for bounds and initialisation, never as a race.
namespace {
template <class T>
void atomic_check(const volatile T* p, K kind, const void* pc) {
  if (__builtin_expect(in_arena(p), 0)) check(reinterpret_cast<std::uintptr_t>(p), sizeof(T), kind, pc);
}
}  // namespace

// What every atomic hook does first: remember where the slow path was entered from
// (the faulting line of a report) and check the access. A macro, not a function, so
// that __builtin_return_address(0) is the hook's own caller.
#define PPLAB_SIM_ATOMIC_ENTRY(kind)                                \
  pplab::sim::detail::tls_slow_pc = __builtin_return_address(0); \
  atomic_check(a, kind, __builtin_return_address(0))
// __tsan_atomicN_fetch_<op>: __atomic_fetch_<op>, a read-modify-write.
#define PPLAB_SIM_ATOMIC_FETCH(bits, T, op)                                               \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_fetch_##op(volatile T* a, T v, int) { \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                \
    return __atomic_fetch_##op(a, v, __ATOMIC_SEQ_CST);                                   \
  }
// __tsan_atomicN_compare_exchange_strong and _weak: both done as a strong exchange.
#define PPLAB_SIM_ATOMIC_CAS(bits, T, strength)                                                                   \
  extern "C" PPLAB_SIM_SLOW int __tsan_atomic##bits##_compare_exchange_##strength(volatile T* a, T* c, T v, int, \
                                                                                  int) {                          \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                                        \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                       \
  }
#define PPLAB_SIM_ATOMICS(bits, T)                                                                        \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_load(const volatile T* a, int) {                      \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_read);                                                               \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                          \
  }                                                                                                       \
  extern "C" PPLAB_SIM_SLOW void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) {                \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_write);                                                              \
    /* A variable order would make GCC use seq_cst (an xchg); release is a plain store on x86 */          \
    if (mo == __ATOMIC_SEQ_CST) __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                 \
    else __atomic_store_n(a, v, __ATOMIC_RELEASE);                                                        \
  }                                                                                                       \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                   \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_write);                                                              \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                       \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, add)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, sub)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, and)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, or)                                                                     \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, xor)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, nand)                                                                   \
  PPLAB_SIM_ATOMIC_CAS(bits, T, strong)                                                                   \
  PPLAB_SIM_ATOMIC_CAS(bits, T, weak)                                                                     \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) { \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                                \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    return c;                                                                                             \
  }
PPLAB_SIM_ATOMICS(8, std::uint8_t)
PPLAB_SIM_ATOMICS(16, std::uint16_t)
PPLAB_SIM_ATOMICS(32, std::uint32_t)
PPLAB_SIM_ATOMICS(64, std::uint64_t)
#undef PPLAB_SIM_ATOMICS
#undef PPLAB_SIM_ATOMIC_CAS
#undef PPLAB_SIM_ATOMIC_FETCH
#undef PPLAB_SIM_ATOMIC_ENTRY

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
