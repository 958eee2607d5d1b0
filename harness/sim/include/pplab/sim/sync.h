// Block-level rendezvous: __syncthreads and its predicate forms, fences.
//
// They are function-like macros so the call site's file and line reach the
// scheduler, which names them in divergence and deadlock reports.
#pragma once
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
// the fast path's loads and stores are asm (ld, st in pplab/sim/fiber.h): as plain
// accesses each would be a hook call.
[[gnu::always_inline]] inline int syncthreads_op(BarrierOp op, int pred, const char* file, int line) {
#if PPLAB_SIM_INLINE_SWITCH
  using namespace detail;
  Round* r = ld(tls_round);
  if (op == BarrierOp::plain && r && ld(r->bar_site.line) == line && ld(r->bar_site.file) == file &&
      ld(r->pos) + 1 < ld(r->round_n)) {
#if defined(__SANITIZE_THREAD__)
    const int me = ld(*reinterpret_cast<const int*>(&r->cur));
#else
    const int me = r->cur.load(std::memory_order_relaxed);
#endif
    st(r->state[me], TState::barrier);  // at bar_site: nothing else to record
    st(r->at_barrier, ld(r->at_barrier) + 1);
    const int pos = ld(r->pos) + 1;
    st(r->pos, pos);
    const int next = ld(r->order[pos]);
    r->prefetch_after_next();
    r->enter(next);
    switch_fiber(ld(r->ctx[next]), &r->ctx[me]);
    return ld(r->bar_result);
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
