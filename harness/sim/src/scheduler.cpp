// A block's rounds: which of its CUDA threads runs next, and what a rendezvous does.
//
// A block runs in "rounds". A round resumes each runnable thread once, in schedule
// order, until it reaches a rendezvous (__syncthreads, a warp op) or returns.
// Switches go straight from one fiber to the next (one jump per thread per round).
// When the round is over every live thread waits somewhere, and resolve() decides
// what runs next: complete warp groups, then a barrier all live threads reached,
// or else a diagnosis (divergence or deadlock) that ends the process.
//
// Every thread of a block is given a fiber when the block starts (block_runner.cpp),
// so a switch never asks whether its target has one. A thread that returns hands its
// own fiber straight to the next unstarted thread (whose fiber goes back unused), so
// a kernel that never reaches a rendezvous runs every thread of a block on one
// fiber without a single switch.
//
// The calls a kernel's threads make into the scheduler (__syncthreads, the warp
// operations, lane_id, dynamic_smem) are here too: they read the running worker
// (tls_worker, defined here) on every call, and a rendezvous inlines its yield.
#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "internal.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

thread_local Worker* tls_worker = nullptr;

void build_order(Worker& w) {
  int m = 0;
  for (int i = 0; i < w.n; ++i)
    if (w.state[i] == TState::runnable || w.state[i] == TState::unstarted) w.order[m++] = i;
  w.round_n = m;
  w.pos = 0;
  switch (static_cast<Schedule>(g_schedule.kind.load(std::memory_order_relaxed))) {
    case Schedule::forward: break;
    case Schedule::reverse: std::reverse(w.order, w.order + m); break;
    case Schedule::random:
      for (int i = m - 1; i > 0; --i) std::swap(w.order[i], w.order[splitmix(w.rng) % (i + 1)]);
      break;
  }
}

namespace {

[[gnu::noinline]] int resolve(Worker& w);

// Next thread to run, or -1 when the block is finished.
[[gnu::always_inline]] inline int advance(Worker& w) {
  if (++w.pos < w.round_n) return w.order[w.pos];
  return resolve(w);
}

// The calling CUDA thread (me) waits; run others until it is released. This is
// the hot path of every rendezvous: it is kept small (its frame and the switch's
// are all a waiting fiber keeps hot), with the rare work in out-of-line calls.
[[gnu::always_inline]] inline void yield(Worker& w, int me) {
  int next = advance(w);
  w.prefetch_after_next();
  if (next != me) {
    Ctx target = w.ctx[next];
    w.enter(next);
    switch_to(target, &w.ctx[me]);
  } else {
    w.enter(me);
  }
}

std::atomic<void (*)()> g_thread_start_observer{nullptr};
std::atomic<void (*)()> g_thread_exit_observer{nullptr};

void run_kernel_body(Worker& w) {
  try {
    if (auto* observe = g_thread_start_observer.load(std::memory_order_relaxed)) observe();
    w.launch->run(w.launch->body);
    if (auto* observe = g_thread_exit_observer.load(std::memory_order_relaxed)) observe();
  } catch (const std::exception& e) {
    fatal("uncaught exception in " + describe_kernel(w) + ", thread " + fmt_idx(w.idx[w.cur]) +
          ": " + e.what());
  } catch (...) {
    fatal("uncaught exception in " + describe_kernel(w) + ", thread " + fmt_idx(w.idx[w.cur]));
  }
}

}  // namespace

void fiber_loop() {
  Worker& w = *tls_worker;
  // A failed device assert (__assert_fail) or a fault (abandon_block) ends its thread by
  // jumping back here. The jump buffer is set once per fiber, not once per thread: in a
  // kernel without barriers setjmp took about 5% of the time (perf, simpleStreams).
  std::jmp_buf ended;
  bool jumped = false;
  if (setjmp(ended) != 0) jumped = true;
  for (;;) {
    int me = w.cur.load(std::memory_order_relaxed);
    w.state[me] = TState::runnable;
    w.threads[me].ended = &ended;
    if (!jumped) run_kernel_body(w);
    jumped = false;
    if (w.abandoned) {
      // A fault ended the block (abandon_block): back to run_block, never to return here.
      Ctx unused;
      switch_to(w.main_ctx, &unused);
    }
    me = w.cur.load(std::memory_order_relaxed);
    w.state[me] = TState::exited;
    --w.live;
    ++w.exited;
    int next = advance(w);
    if (next >= 0 && w.state[next] == TState::unstarted) {
      // Same fiber, no switch. No prefetch either: the thread after next will most
      // likely start on this fiber too, and fetching its own unused stack top stalled
      // (a TLB miss a thread: a quarter of simpleStreams' time in perf).
      w.free_fibers[w.nfree++] = w.ctx[next];
      w.enter(next);
      continue;
    }
    w.prefetch_after_next();
    Ctx target = next < 0 ? w.main_ctx : w.ctx[next];
    if (next >= 0) w.enter(next);
    switch_to(target, &w.free_fibers[w.nfree++]);
    // Resumed from the free list to start a new thread (w.cur).
  }
}

namespace {

int resolve(Worker& w) {
  if (w.live == 0) return -1;
  int released = w.at_warp > 0 ? resolve_warps(w, false) : 0;
  if (released == 0 && w.at_warp > 0) resolve_warps(w, true);  // does not return
  if (released == 0) {
    if (w.at_barrier != w.live) barrier_problem(w, "deadlock: the block's threads wait at different rendezvous points");
    if (w.bar_mixed) barrier_problem(w, "barrier divergence: threads wait at different __syncthreads() calls");
    if (w.exited > 0) barrier_problem(w, "barrier divergence: some threads exited while others wait at __syncthreads()");
    // Every thread of the block is released (none exited: checked above). Their
    // states stay "barrier" until they next arrive somewhere, which is harmless:
    // states are only read for threads that wait, and this keeps a release O(1).
    int count = 0;
    if (w.bar_op != BarrierOp::plain)
      for (int i = 0; i < w.n; ++i) count += w.threads[i].pred;
    switch (w.bar_op) {
      case BarrierOp::plain: w.bar_result = 0; break;
      case BarrierOp::count: w.bar_result = count; break;
      case BarrierOp::all: w.bar_result = count == w.live; break;
      case BarrierOp::any: w.bar_result = count > 0; break;
    }
    w.at_barrier = 0;
    shared_barrier();
    w.bar_mixed = false;
    w.released_site = w.bar_site;
    w.bar_site = Site{};  // no barrier pending: the inline fast path needs a first arrival again
    if (w.round_n == w.n && static_cast<Schedule>(g_schedule.kind.load(std::memory_order_relaxed)) != Schedule::random) {
      w.pos = 0;  // the same threads in the same order as the round that just ended
      return w.order[0];
    }
    for (int i = 0; i < w.n; ++i) {
      w.state[i] = TState::runnable;
      w.site[i] = w.released_site;  // runnable threads keep their last rendezvous in site[]
    }
  }
  build_order(w);
  return w.order[0];
}

}  // namespace

}  // namespace pplab::sim::detail

namespace pplab::sim {
using namespace detail;

void set_thread_observers(void (*on_start)(), void (*on_exit)()) {
  g_thread_start_observer.store(on_start);
  g_thread_exit_observer.store(on_exit);
}

[[gnu::noinline, gnu::cold]] static void outside_kernel(const char* what, const char* file, int line) {
  fatal(std::string(what) + " called outside a kernel at " + fmt_site(Site{file, line}));
}
[[gnu::noinline, gnu::cold]] static bool other_site(const Site& a, const char* file, int line) {
  return !same_site(a, Site{file, line});
}

int syncthreads_slow(BarrierOp op, int pred, const char* file, int line) {
  Worker* w = tls_worker;
  if (__builtin_expect(!w, 0)) outside_kernel("__syncthreads()", file, line);
  int me = w->cur.load(std::memory_order_relaxed);
  w->state[me] = TState::barrier;
  if (op != BarrierOp::plain) {
    w->threads[me].pred = pred;
  }
  if (w->at_barrier++ == 0) {
    w->bar_site = Site{file, line};
    w->bar_op = op;
  }
  else if (w->bar_site.file != file || w->bar_site.line != line) {
    if (other_site(w->bar_site, file, line)) {
      w->bar_mixed = true;
      w->state[me] = TState::barrier_elsewhere;
      w->site[me] = Site{file, line};
    }
  }
  yield(*w, me);
  return w->bar_result;
}

std::uint64_t warp_op(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width, const char* file, int line) {
  Worker* w = tls_worker;
  if (__builtin_expect(!w, 0)) outside_kernel(warp_op_name(op), file, line);
  int me = w->cur.load(std::memory_order_relaxed);
  Thread& t = w->threads[me];
  w->state[me] = TState::warp;
  w->site[me] = Site{file, line};
  t.wop = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  ++w->at_warp;
  yield(*w, me);
  return t.result;
}

unsigned active_mask(const char* file, int line) {
  if (!tls_worker) return 1u;
  return static_cast<unsigned>(warp_op(WarpOp::active, 0xffffffffu, 0, 0, 32, file, line));
}

unsigned lane_id() {
  Worker* w = tls_worker;
  return w ? static_cast<unsigned>(w->cur.load(std::memory_order_relaxed) & 31) : 0u;
}

void* dynamic_smem() {
  Worker* w = tls_worker;
  if (w) return w->smem;
  // Outside a kernel (e.g. a namespace-scope initialiser): this OS thread's buffer.
  return this_worker(-1).smem;
}

}  // namespace pplab::sim
