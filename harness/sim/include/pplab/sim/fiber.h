// The part of a block's run state that a plain __syncthreads() touches, and the
// fiber switch itself. They are in a header so the common barrier (not the first
// thread to arrive, the same call as the others, not the last of its round) runs
// inline in the kernel: the compiler then saves only the registers the kernel has
// live across the barrier, instead of a call that saves all of them. Everything
// else (first arrival, diagnosis, the end of a round) is in the scheduler.
#pragma once
#include <atomic>
#include <cstdint>

#include "pplab/sim/builtins.h"
#include "pplab/sim/types.h"

namespace pplab::sim::detail {

constexpr int kMaxThreads = 1024;

// The run state's loads and stores in the inline barrier. Code built with the
// shared-memory checks' instrumentation (-fsanitize=thread defines
// __SANITIZE_THREAD__) would otherwise call a hook before each of them; in asm the
// instrumentation does not see them, and they are never shared memory. Elsewhere
// they are plain accesses.
#if defined(__SANITIZE_THREAD__) && defined(__x86_64__)
template <class T>
[[gnu::always_inline]] inline T ld(const T& x) {
  T v;
  asm("mov %1, %0" : "=r"(v) : "m"(x));
  return v;
}
template <class T>
[[gnu::always_inline]] inline void st(T& x, T v) {
  asm volatile("mov %1, %0" : "=m"(x) : "r"(v));
}
[[gnu::always_inline]] inline void inc(int& x) { asm volatile("incl %0" : "+m"(x)); }
#else
template <class T>
[[gnu::always_inline]] inline T ld(const T& x) {
  return x;
}
template <class T>
[[gnu::always_inline]] inline void st(T& x, T v) {
  x = v;
}
[[gnu::always_inline]] inline void inc(int& x) { ++x; }
#endif

struct Site {
  const char* file = nullptr;
  int line = 0;
};

// A thread that waits at (or, once released, last passed) the block's barrier is
// `barrier`: its place is the block's bar_site, so the common barrier stores
// nothing per thread. One that waits at another __syncthreads call (a divergence
// about to be reported) is `barrier_elsewhere`, its place in site[].
enum class TState : std::uint8_t { unstarted, runnable, barrier, barrier_elsewhere, warp, exited };

// A suspended fiber. On x86-64 it is the stack pointer saved by switch_fiber();
// elsewhere a Boost.Context fcontext_t.
using Ctx = void*;

// A worker's current block, as far as a barrier needs it (the scheduler's Worker
// extends it).
struct Round {
  std::atomic<int> cur{-1};  // the running thread (read by the watchdog too)
  int round_n = 0;           // threads in this round, in order[]
  int pos = 0;               // order[pos] is running
  int at_barrier = 0;        // threads waiting at __syncthreads
  Site bar_site;             // the __syncthreads the first of them waits at (line 0: none waits)
  bool one_d = false;        // blockDim.y == blockDim.z == 1: threadIdx.y and .z stay 0
  int bar_result = 0;
  int order[kMaxThreads];
  TState state[kMaxThreads];
  Site site[kMaxThreads];  // where it waits at a warp op, or at another barrier (see TState)
  Ctx ctx[kMaxThreads];    // saved context while suspended
  uint3 idx[kMaxThreads];  // threadIdx of each thread

  // Makes `thread` the running one.
  [[gnu::always_inline]] void enter(int thread) {
    cur.store(thread, std::memory_order_relaxed);
    if (one_d)
      threadIdx.x = static_cast<unsigned>(thread);
    else
      threadIdx = idx[thread];
  }

  // The thread after next has not run since every other thread of the block did:
  // fetch its top frames now so the switch to it does not wait for them.
  [[gnu::always_inline]] void prefetch_after_next() const {
    if (pos + 2 >= round_n) return;
    const char* sp = static_cast<const char*>(ctx[order[pos + 2]]);
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
  }
};

// The running block of this OS thread; null outside kernels.
inline thread_local Round* tls_round = nullptr;

#if defined(__x86_64__) && !defined(PPLAB_SIM_BOOST_SWITCH)
#define PPLAB_SIM_INLINE_SWITCH 1
// Suspends the caller, saving its context in *save, and resumes target. The
// saved context is the stack pointer, with the resume address on top and rbp
// below it. Every other register is listed as clobbered, so the compiler keeps
// nothing in registers across the switch and saves the callee-saved ones it uses
// in its own prologue. No call or ret: the return stack stays untouched, and the
// indirect jump goes where it went last time from this site (the same rendezvous
// in the next thread), which the branch predictor learns. The first 128 bytes
// below the stack pointer are skipped: the caller may keep data in that red zone.
[[gnu::always_inline]] inline void switch_fiber(Ctx target, Ctx* save) {
  asm volatile(
      "leaq -128(%%rsp), %%rsp\n\t"
      "pushq %%rbp\n\t"
      "leaq 1f(%%rip), %%rax\n\t"
      "pushq %%rax\n\t"
      "movq %%rsp, (%%rdi)\n\t"
      "movq %%rsi, %%rsp\n\t"
      "popq %%rax\n\t"
      "jmpq *%%rax\n"
      "1:\n\t"
      "popq %%rbp\n\t"
      "leaq 128(%%rsp), %%rsp\n\t"
      : "+D"(save), "+S"(target)
      :
      : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "memory", "cc",
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
        "xmm12", "xmm13", "xmm14", "xmm15");
}
#endif

}  // namespace pplab::sim::detail
