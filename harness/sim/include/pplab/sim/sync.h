// Block-level rendezvous: __syncthreads and its predicate forms, fences.
//
// They are function-like macros so the call site's file and line reach the
// scheduler, which names them in divergence and deadlock reports.
#pragma once
#include <sched.h>

#include <atomic>

#include "pplab/sim/fiber.h"

namespace pplab::sim {
enum class BarrierOp : int { plain = 0, count = 1, all = 2, any = 3 };
// Every case of a barrier, in the scheduler.
int syncthreads_slow(BarrierOp op, int pred, const char* file, int line);

// Suspends the calling CUDA thread until every live thread of its block arrives.
// Returns the predicate reduction for count/all/any, 0 for plain.
//
// The common case of a plain barrier is handled here, inline: another thread
// already waits at this same call and a thread after this one is still to run in
// this round. Then this thread only records where it waits and hands the OS
// thread to the next one; the scheduler does the same in syncthreads_slow, which
// also takes the first arrival, a different call (divergence), the predicate
// forms and the end of a round.
//
// In code built with the shared-memory checks' instrumentation (-fsanitize=thread)
// the fast path's loads and stores are asm (ld, st, inc in pplab/sim/fiber.h): as
// plain accesses each would be a hook call.
[[gnu::always_inline]] inline int syncthreads_op(BarrierOp op, int pred, const char* file, int line) {
#if PPLAB_SIM_INLINE_SWITCH && !defined(__SANITIZE_THREAD__)
  using namespace detail;
  Round* r = tls_round;
  if (op == BarrierOp::plain && r && r->bar_site.line == line && r->bar_site.file == file &&
      r->pos + 1 < r->round_n) {
    const int me = r->cur.load(std::memory_order_relaxed);
    r->state[me] = TState::barrier;  // at bar_site: nothing else to record
    ++r->at_barrier;
    const int next = r->order[++r->pos];
    r->prefetch_after_next();
    r->enter(next);
    switch_fiber(r->ctx[next], &r->ctx[me]);
    return r->bar_result;
  }
#elif PPLAB_SIM_INLINE_SWITCH
  // The same, each field read once, in asm the instrumentation does not see.
  using namespace detail;
  Round* r = ld(tls_round);
  if (op == BarrierOp::plain && r && ld(r->bar_site.line) == line && ld(r->bar_site.file) == file) {
    const int pos = ld(r->pos) + 1, n = ld(r->round_n);
    if (pos < n) {
      int& cur = *reinterpret_cast<int*>(&r->cur);  // a relaxed atomic int: a plain mov on x86
      const int me = ld(cur);
      st(r->state[me], TState::barrier);
      inc(r->at_barrier);
      st(r->pos, pos);
      const int next = ld(r->order[pos]);
      if (pos + 2 < n) {  // Round::prefetch_after_next
        const char* sp = static_cast<const char*>(ld(r->ctx[ld(r->order[pos + 2])]));
        __builtin_prefetch(sp);
        __builtin_prefetch(sp + 64);
        __builtin_prefetch(sp + 128);
      }
      st(cur, next);  // Round::enter
      if (__builtin_expect(ld(r->one_d), 1)) {
        st(threadIdx.x, static_cast<unsigned>(next));
      } else {
        st(threadIdx.x, ld(r->idx[next].x));
        st(threadIdx.y, ld(r->idx[next].y));
        st(threadIdx.z, ld(r->idx[next].z));
      }
      switch_fiber(ld(r->ctx[next]), &r->ctx[me]);
      return ld(r->bar_result);
    }
  }
#endif
  return syncthreads_slow(op, pred, file, line);
}
}  // namespace pplab::sim

#define __syncthreads() ((void)::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, __FILE__, __LINE__))
#define __syncthreads_count(p) ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::count, (p) ? 1 : 0, __FILE__, __LINE__)
#define __syncthreads_and(p) ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::all, (p) ? 1 : 0, __FILE__, __LINE__)
#define __syncthreads_or(p) ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::any, (p) ? 1 : 0, __FILE__, __LINE__)

// All of a block's threads share one OS thread, so a compiler fence orders
// shared-memory accesses; device-wide fences need a real one (blocks run in parallel).
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
// A warp that backs off while it waits for another block (sm_70 and later): here it
// gives its worker's CPU to the other workers, one of which runs the block it waits for.
// (sched_yield, not std::this_thread::yield: <thread> would slow every .cu's compile.)
inline void __nanosleep(unsigned) { sched_yield(); }
