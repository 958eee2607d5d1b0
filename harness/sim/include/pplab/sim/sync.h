// Block-level rendezvous: __syncthreads and its predicate forms, fences.
//
// They are function-like macros so the call site's file and line reach the
// scheduler, which names them in divergence and deadlock reports.
#pragma once
#include <atomic>

namespace pplab::sim {
enum class BarrierOp : int { plain = 0, count = 1, all = 2, any = 3 };
// Suspends the calling CUDA thread until every live thread of its block arrives.
// Returns the predicate reduction for count/all/any, 0 for plain.
int syncthreads_op(BarrierOp op, int pred, const char* file, int line);
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
