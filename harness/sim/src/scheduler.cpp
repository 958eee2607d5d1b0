// Runs kernels: blocks over worker threads, a block's CUDA threads as fibers.
//
// A block runs in "rounds". A round resumes each runnable thread once, in schedule
// order, until it reaches a rendezvous (__syncthreads, a warp op) or returns.
// Switches go straight from one fiber to the next (one jump per thread per round).
// When the round is over every live thread waits somewhere, and resolve() decides
// what runs next: complete warp groups, then a barrier all live threads reached,
// or else a diagnosis (divergence or deadlock) that ends the process.
//
// Every thread of a block is given a fiber when the block starts, so a switch
// never asks whether its target has one. A thread that returns hands its own
// fiber straight to the next unstarted thread (whose fiber goes back unused), so
// a kernel that never reaches a rendezvous runs every thread of a block on one
// fiber without a single switch.
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <csetjmp>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "internal.h"
#include "pplab/sim/device_memory.h"
#include "pplab/sim/schedule_choice.h"

namespace pplab::sim::detail {

thread_local Worker* tls_worker = nullptr;

namespace {

constexpr size_t kGuard = 4096;
size_t stack_bytes() {
  static const size_t bytes = [] {
    try {
      return settings::whole_number(settings::kStackKib, 128, 16, 1 << 20) * 1024;
    } catch (const std::invalid_argument& error) {
      fatal(error.what());
    }
  }();
  return bytes;
}

// ---------------------------------------------------------------- schedules ----
struct ScheduleState {
  std::atomic<int> kind{-1};  // -1: not read from the environment yet
  std::atomic<unsigned> seed{0};
};
ScheduleState g_schedule;

void load_schedule_from_env() {
  if (g_schedule.kind.load(std::memory_order_acquire) >= 0) return;
  ScheduleChoice choice;
  try {
    choice = schedule_from_environment().value_or(ScheduleChoice{});
  } catch (const std::invalid_argument& error) {
    fatal(error.what());
  }
  int expected = -1;
  g_schedule.seed.store(choice.seed);
  g_schedule.kind.compare_exchange_strong(expected, static_cast<int>(choice.schedule));
}

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// ----------------------------------------------------------------- fibers -----
// Every barrier costs each thread one switch, so the switch is the sim's inner
// loop. Fibers switch straight to one another (no trip through a scheduler
// context). On x86-64 the switch is a few inlined instructions (pplab/sim/fiber.h);
// Boost's
// jump_fcontext is a call that returns on another stack, which leaves the
// return stack one entry off after every switch (a mispredicted ret per switch),
// saves the callee-saved registers its caller has often saved already, and
// reloads the x87/SSE control words, which no fiber changes. Other architectures
// use Boost.Context as is.
void fiber_loop();

#if PPLAB_SIM_INLINE_SWITCH
inline void switch_to(Ctx target, Ctx* save) { switch_fiber(target, save); }  // pplab/sim/fiber.h

[[noreturn]] void fiber_start() {
  fiber_loop();
  __builtin_unreachable();
}
Ctx make_fiber(char* top, size_t) {
  auto* sp = reinterpret_cast<std::uintptr_t*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15});
  *--sp = 0;                                               // fake return address: entry sees rsp % 16 == 8
  *--sp = reinterpret_cast<std::uintptr_t>(&fiber_start);  // where the first switch jumps
  return sp;
}
#else
inline void switch_to(Ctx target, Ctx* save) {
  bc::transfer_t t = bc::jump_fcontext(static_cast<bc::fcontext_t>(target), save);
  // Whoever resumed us passed the slot where its own context belongs.
  *static_cast<Ctx*>(t.data) = t.fctx;
}
void fiber_entry(bc::transfer_t t) {
  *static_cast<Ctx*>(t.data) = t.fctx;
  fiber_loop();
}
Ctx make_fiber(char* top, size_t size) { return bc::make_fcontext(top, size, fiber_entry); }
#endif

Ctx take_fiber(Worker& w) {
  if (w.nfree > 0) return w.free_fibers[--w.nfree];
  if (!w.stacks) {
    size_t len = (stack_bytes() + kGuard) * kMaxThreads;
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fatal("cannot reserve fiber stacks (mmap failed)");
    w.stacks = static_cast<char*>(p);
    w.stacks_len = len;
  }
  int k = w.nfibers++;
  char* lo = w.stacks + k * (stack_bytes() + kGuard);
  mprotect(lo, kGuard, PROT_NONE);  // overflow faults instead of corrupting a neighbour
  // Stagger the tops so the hot frames of different fibers use different L1 sets.
  char* top = lo + kGuard + stack_bytes() - (k % 61) * 64;
  return make_fiber(top, stack_bytes() - 61 * 64);
}

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

// ------------------------------------------------------------- diagnosis ------
const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::shfl: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::match_any: return "__match_any_sync";
    case WarpOp::active: return "__activemask";
    case WarpOp::reduce_add: return "__reduce_add_sync";
    case WarpOp::reduce_min: return "__reduce_min_sync";
    case WarpOp::reduce_max: return "__reduce_max_sync";
    case WarpOp::reduce_and: return "__reduce_and_sync";
    case WarpOp::reduce_or: return "__reduce_or_sync";
    case WarpOp::reduce_xor: return "__reduce_xor_sync";
  }
  return "warp op";
}

std::string where(const Worker& w, int i) {
  const Thread& t = w.threads[i];
  char buf[64];
  switch (w.state[i]) {
    case TState::barrier: return "waits at __syncthreads() at " + fmt_site(w.bar_site);
    case TState::barrier_elsewhere: return "waits at __syncthreads() at " + fmt_site(w.site[i]);
    case TState::warp:
      std::snprintf(buf, sizeof buf, "(mask 0x%08x)", t.mask);
      return std::string("waits at ") + warp_op_name(t.wop) + buf + " at " + fmt_site(w.site[i]);
    case TState::exited: return "has exited (returned from the kernel)";
    default: return "is running";
  }
}

// Groups consecutive threads that are in the same place: "threads (0,0,0)..(127,0,0) [128] wait at ...".
std::string plural(std::string s) {
  if (s.rfind("waits ", 0) == 0) return "wait " + s.substr(6);
  if (s.rfind("has ", 0) == 0) return "have " + s.substr(4);
  if (s.rfind("is ", 0) == 0) return "are " + s.substr(3);
  return s;
}

// One line per place the block's threads are at: "threads (0,0,0)..(15,0,0)
// [16 threads] wait at __syncthreads() at f.cu:6", listing up to 4 ranges each.
std::string summarize_threads(const Worker& w) {
  struct Place {
    std::string where;
    int count = 0;
    std::vector<std::pair<int, int>> ranges;
  };
  std::vector<Place> places;
  for (int i = 0; i < w.n; ++i) {
    std::string here = where(w, i);
    auto it = std::find_if(places.begin(), places.end(), [&](const Place& p) { return p.where == here; });
    if (it == places.end()) {
      places.push_back(Place{here, 0, {}});
      it = places.end() - 1;
    }
    ++it->count;
    if (!it->ranges.empty() && it->ranges.back().second == i - 1)
      it->ranges.back().second = i;
    else
      it->ranges.push_back({i, i});
  }
  std::ostringstream out;
  for (const Place& p : places) {
    out << "  ";
    out << (p.count == 1 ? "thread " : "threads ");
    for (size_t r = 0; r < p.ranges.size() && r < 4; ++r) {
      if (r) out << ", ";
      out << fmt_idx(w.idx[p.ranges[r].first]);
      if (p.ranges[r].second != p.ranges[r].first) out << ".." << fmt_idx(w.idx[p.ranges[r].second]);
    }
    if (p.ranges.size() > 4) out << ", ...";
    if (p.count > 1) out << " [" << p.count << " threads]";
    out << " " << (p.count == 1 ? p.where : plural(p.where)) << "\n";
  }
  return out.str();
}

[[noreturn]] void barrier_problem(Worker& w, const char* what) {
  fatal(std::string(what) + " in " + describe_kernel(w) + ":\n" + summarize_threads(w) +
        "  __syncthreads() must be reached by every thread of the block, at the same call.");
}

unsigned exist_mask(const Worker& w, int warp) {
  int lanes = std::min(32, w.n - warp * 32);
  return lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1);
}

// The value every lane of `group` gets from a __reduce_*_sync: the 32-bit values of
// the group's lanes combined, min and max compared signed when `is_signed`.
std::uint64_t warp_reduction(const Worker& w, int base, unsigned group, WarpOp op, bool is_signed) {
  std::uint32_t acc = 0;
  bool first = true;
  for (unsigned g = group; g; g &= g - 1) {
    const auto v = static_cast<std::uint32_t>(w.threads[base + __builtin_ctz(g)].value);
    const bool less = is_signed ? static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) : v < acc;
    if (first) acc = v;
    else if (op == WarpOp::reduce_add) acc += v;
    else if (op == WarpOp::reduce_min) acc = less ? v : acc;
    else if (op == WarpOp::reduce_max) acc = less ? acc : v;
    else if (op == WarpOp::reduce_and) acc &= v;
    else if (op == WarpOp::reduce_or) acc |= v;
    else acc ^= v;
    first = false;
  }
  return acc;
}

// Resolves complete warp groups; returns how many threads it released. A group
// whose lanes are elsewhere may still complete once another group moves on, so it
// is only diagnosed (diagnose = true) when nothing at all can make progress.
int resolve_warps(Worker& w, bool diagnose) {
  int released = 0;
  for (int wi = 0; wi < w.nwarps; ++wi) {
    int base = wi * 32;
    int lanes = std::min(32, w.n - base);
    unsigned waiting = 0;
    for (int l = 0; l < lanes; ++l)
      if (w.state[base + l] == TState::warp) waiting |= 1u << l;
    while (waiting) {
      int leader = __builtin_ctz(waiting);
      Thread& lt = w.threads[base + leader];
      if (lt.wop == WarpOp::active) {
        // Everything else in the warp has exited or waits elsewhere: the lanes at
        // this same __activemask() call are the converged ones.
        unsigned group = 0;
        for (unsigned g = waiting; g; g &= g - 1) {
          int l = __builtin_ctz(g);
          if (w.threads[base + l].wop == WarpOp::active && same_site(w.site[base + l], w.site[base + leader]))
            group |= 1u << l;
        }
        for (unsigned g = group; g; g &= g - 1) {
          int l = __builtin_ctz(g);
          w.threads[base + l].result = group;
          w.state[base + l] = TState::runnable;
          --w.at_warp;
          ++released;
        }
        waiting &= ~group;
        continue;
      }
      unsigned group = lt.mask & exist_mask(w, wi);
      char buf[160];
      if (!(group & (1u << leader))) {
        std::snprintf(buf, sizeof buf, "%s at %s: mask 0x%08x does not include the calling lane %d",
                      warp_op_name(lt.wop), fmt_site(w.site[base + leader]).c_str(), lt.mask, leader);
        fatal(std::string("bad warp mask in ") + describe_kernel(w) + ", thread " + fmt_idx(w.idx[base + leader]) + ": " + buf);
      }
      bool complete = true;
      for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        Thread& o = w.threads[base + l];
        if (w.state[base + l] == TState::warp && o.wop == lt.wop && o.mask == lt.mask) continue;
        if (!diagnose) {
          complete = false;
          break;
        }
        std::snprintf(buf, sizeof buf, "%s(mask 0x%08x) at %s", warp_op_name(lt.wop), lt.mask,
                      fmt_site(w.site[base + leader]).c_str());
        fatal(std::string("warp operation cannot complete in ") + describe_kernel(w) + ":\n  thread " +
              fmt_idx(w.idx[base + leader]) + " (lane " + std::to_string(leader) + " of warp " + std::to_string(wi) +
              ") waits at " + buf + "\n  but lane " + std::to_string(l) + " named in the mask (thread " +
              fmt_idx(w.idx[base + l]) + ") " + where(w, base + l) +
              "\n  every lane named in the mask must reach the same warp operation with the same mask.");
      }
      if (!complete) {
        waiting &= ~(1u << leader);
        continue;
      }
      // All lanes arrived: compute CUDA's results. The vote only for the votes: this
      // loop is a fifth of a warp-heavy kernel's time when run for every operation.
      const bool votes = lt.wop == WarpOp::ballot || lt.wop == WarpOp::any || lt.wop == WarpOp::all;
      unsigned ballot = 0;
      for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        ballot |= unsigned{w.threads[base + l].value != 0} << l;  // no branch: the votes are data
      }
      // A reduction gives every lane the same value: combined once for the group.
      const bool reduces = lt.wop == WarpOp::reduce_add || lt.wop == WarpOp::reduce_min ||
                           lt.wop == WarpOp::reduce_max || lt.wop == WarpOp::reduce_and ||
                           lt.wop == WarpOp::reduce_or || lt.wop == WarpOp::reduce_xor;
      const std::uint64_t reduced = reduces ? warp_reduction(w, base, group, lt.wop, lt.arg != 0) : 0;
      for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        Thread& t = w.threads[base + l];
        int width = t.width;
        if (width <= 0 || width > 32 || (width & (width - 1))) width = 32;
        int seg = l & ~(width - 1);
        int src = -1;
        switch (lt.wop) {  // every lane's (checked above); the leader's is read once
          case WarpOp::sync: t.result = 0; break;
          case WarpOp::ballot: t.result = ballot; break;
          case WarpOp::any: t.result = ballot != 0; break;
          case WarpOp::all: t.result = ballot == group; break;
          case WarpOp::match_any: {
            unsigned same = 0;
            for (unsigned h = group; h; h &= h - 1) {
              const int m = __builtin_ctz(h);
              if (w.threads[base + m].value == t.value) same |= 1u << m;
            }
            t.result = same;
            break;
          }
          case WarpOp::reduce_add:
          case WarpOp::reduce_min:
          case WarpOp::reduce_max:
          case WarpOp::reduce_and:
          case WarpOp::reduce_or:
          case WarpOp::reduce_xor: t.result = reduced; break;
          case WarpOp::shfl: src = seg + (t.arg & (width - 1)); break;
          case WarpOp::shfl_up:
            src = (static_cast<unsigned>(l - seg) >= static_cast<unsigned>(t.arg)) ? l - t.arg : l;
            break;
          case WarpOp::shfl_down:
            src = (static_cast<unsigned>(l - seg) + static_cast<unsigned>(t.arg) < static_cast<unsigned>(width))
                      ? l + t.arg : l;
            break;
          case WarpOp::shfl_xor: {
            int x = l ^ t.arg;
            src = (x >= 0 && x < seg + width && x < 32) ? x : l;  // later segments: own value
            break;
          }
        }
        if (src >= 0) {
          // Reading a lane of the block that the mask leaves out is undefined in CUDA
          // (a GPU returns whatever that lane's register holds): report it. A lane past
          // the block's last thread (a partial warp) gives the caller's own value.
          if (!((group >> src) & 1u) && ((exist_mask(w, wi) >> src) & 1u)) {
            std::snprintf(buf, sizeof buf, "%s at %s (mask 0x%08x): lane %d reads lane %d, which the mask leaves out",
                          warp_op_name(t.wop), fmt_site(w.site[base + l]).c_str(), t.mask, l, src);
            fatal(std::string("undefined shuffle in ") + describe_kernel(w) + ", thread " + fmt_idx(w.idx[base + l]) +
                  ": " + buf + "\n  a shuffle's source lane must be named in its mask (CUDA leaves the result undefined).");
          }
          t.result = ((group >> src) & 1u) ? w.threads[base + src].value : t.value;
        }
        w.state[base + l] = TState::runnable;
      }
      shared_warp_sync(base, group);
      const int members = __builtin_popcount(group);
      w.at_warp -= members;
      released += members;
      waiting &= ~group;
    }
  }
  return released;
}

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

// ------------------------------------------------------------ block runner ----
void prepare_shape(Worker& w, const LaunchDesc& d) {
  dim3 b = d.block;
  if (w.shape_cached.x == b.x && w.shape_cached.y == b.y && w.shape_cached.z == b.z) return;
  int i = 0;
  for (unsigned z = 0; z < b.z; ++z)
    for (unsigned y = 0; y < b.y; ++y)
      for (unsigned x = 0; x < b.x; ++x) w.idx[i++] = uint3{x, y, z};
  w.shape_cached = b;
}

void run_block(Worker& w, const LaunchDesc& d, long long linear) {
  w.block_linear.store(linear, std::memory_order_relaxed);
  unsigned gx = d.grid.x, gy = d.grid.y;
  w.block = uint3{static_cast<unsigned>(linear % gx), static_cast<unsigned>((linear / gx) % gy),
                  static_cast<unsigned>(linear / (static_cast<long long>(gx) * gy))};
  blockIdx = w.block;
  w.n = static_cast<int>(d.block.x * d.block.y * d.block.z);
  w.nwarps = (w.n + 31) / 32;
  for (int i = 0; i < w.n; ++i) {
    w.state[i] = TState::unstarted;
    w.site[i] = Site{};
    w.ctx[i] = take_fiber(w);
  }
  w.live = w.n;
  w.exited = w.at_barrier = w.at_warp = 0;
  w.bar_site = Site{};
  w.bar_mixed = false;
  // Uninitialised shared memory reads show up as NaN / -1 rather than the last block's data.
  if (d.smem) std::memset(w.smem, 0xff, d.smem);
  shared_block_begin(w.n, d.smem);
  std::uint64_t s = (static_cast<std::uint64_t>(g_schedule.seed.load()) << 32) ^ static_cast<std::uint64_t>(linear);
  w.rng = splitmix(s);
  build_order(w);
  int first = w.order[0];
  w.enter(first);
  switch_to(w.ctx[first], &w.main_ctx);
  if (w.abandoned) {
    // The block's fibers stopped mid-kernel and are never resumed: make fresh ones on
    // the same stacks.
    w.abandoned = false;
    w.nfree = 0;
    w.nfibers = 0;
  }
  shared_block_end();
  w.cur.store(-1, std::memory_order_relaxed);
}

Worker& this_worker(int index) {
  thread_local std::unique_ptr<Worker> storage;
  if (!storage) {
    storage = std::make_unique<Worker>();
    storage->index = index;
    storage->smem = shared_arena_create();
    install_thread_handlers();
  }
  return *storage;
}

// ------------------------------------------------------------- worker pool ----
// Where a launch is posted for the threads of a pool (the block pool, the cooperative
// pool): the launch and its block count, and a generation that moves on with each launch.
struct LaunchBoard {
  std::mutex mu;
  std::condition_variable cv;
  std::uint64_t generation = 0;
  const LaunchDesc* desc = nullptr;
  long long nblocks = 0;
};

struct Pool : LaunchBoard {
  std::mutex launch_mu;  // one launch at a time
  std::vector<std::thread> threads;
  std::vector<Worker*> workers;
  std::atomic<long long> next_block{0};
  std::atomic<int> running{0};
  int size = 1;
};
Pool* g_pool = nullptr;

void run_blocks(Worker& w, const LaunchDesc& d, std::atomic<long long>& next, long long nblocks) {
  w.launch = &d;
  blockDim = d.block;
  gridDim = d.grid;
  prepare_shape(w, d);
  w.one_d = d.block.y == 1 && d.block.z == 1;
  threadIdx = uint3{0, 0, 0};  // a 1-D block only ever changes .x
  tls_worker = &w;
  tls_round = &w;
  w.os_thread = static_cast<unsigned long>(pthread_self());
  w.busy.store(true);
  for (;;) {
    long long b = next.fetch_add(1, std::memory_order_relaxed);  // increasing block order
    if (b >= nblocks || sticky_error() != cudaSuccess) break;  // a failed assert ends the launch
    run_block(w, d, b);
  }
  w.busy.store(false);
  tls_worker = nullptr;
  tls_round = nullptr;
  threadIdx = uint3{0, 0, 0};
  blockIdx = uint3{0, 0, 0};
}

// A pool thread's wait for the next launch: blocks until the board's generation moves
// past `seen`, then returns that launch and its block count.
std::pair<const LaunchDesc*, long long> wait_for_launch(LaunchBoard& p, std::uint64_t& seen) {
  std::unique_lock<std::mutex> lk(p.mu);
  p.cv.wait(lk, [&] { return p.generation != seen; });
  seen = p.generation;
  return {p.desc, p.nblocks};
}

void helper_main(Pool* p, int index) {
  Worker& w = this_worker(index);
  {
    std::lock_guard<std::mutex> lk(p->mu);
    p->workers[index] = &w;
  }
  std::uint64_t seen = 0;
  for (;;) {
    const auto [d, nblocks] = wait_for_launch(*p, seen);
    run_blocks(w, *d, p->next_block, nblocks);
    if (p->running.fetch_sub(1) == 1) {
      std::lock_guard<std::mutex> lk(p->mu);
      p->cv.notify_all();
    }
  }
}

Pool& pool() {
  static Pool* p = [] {
    auto* pl = new Pool;  // never destroyed: helpers run until the process exits
    int n = 1;
    try {
      const unsigned long cores = std::min(256u, std::max(1u, std::thread::hardware_concurrency()));
      n = static_cast<int>(settings::whole_number(settings::kThreads, cores, 1, 256));
    } catch (const std::invalid_argument& error) {
      fatal(error.what());
    }
    pl->size = n;
    pl->workers.assign(n, nullptr);
    install_process_handlers();
    load_schedule_from_env();
    for (int i = 1; i < n; ++i) {
      pl->threads.emplace_back(helper_main, pl, i);
      pl->threads.back().detach();
    }
    return pl;
  }();
  g_pool = p;
  return *p;
}

// cudaLaunchCooperativeKernel: grid.sync() needs every block alive at once, so each
// block gets an OS thread of its own (a block blocks its thread while it waits
// there). The threads persist, like the pool's, and keep their workers' buffers.
struct CoopPool : LaunchBoard {
  std::atomic<long long> next{0};
  long long running = 0;
  long long threads = 0;
};

void coop_main(CoopPool* p, long long index) {
  Worker& w = this_worker(static_cast<int>(1000 + index));
  std::uint64_t seen = 0;
  for (;;) {
    const auto [d, nblocks] = wait_for_launch(*p, seen);
    if (index >= nblocks) continue;
    run_blocks(w, *d, p->next, nblocks);
    std::lock_guard<std::mutex> lk(p->mu);
    if (--p->running == 0) p->cv.notify_all();
  }
}

void run_cooperative(const LaunchDesc& d, long long nblocks) {
  static CoopPool* p = new CoopPool;  // never destroyed: its threads run until the process exits
  watchdog_launch_begin(&d);
  cooperative_begin(static_cast<int>(nblocks));
  {
    std::unique_lock<std::mutex> lk(p->mu);
    for (; p->threads < nblocks; ++p->threads) std::thread(coop_main, p, p->threads).detach();
    p->desc = &d;
    p->nblocks = nblocks;
    p->next.store(0);
    p->running = nblocks;
    ++p->generation;
    p->cv.notify_all();
    p->cv.wait(lk, [&] { return p->running == 0; });
  }
  cooperative_end();
  watchdog_launch_end();
}

}  // namespace

bool block_can_be_abandoned(const Worker& w, const void* sp) {
  const auto at = reinterpret_cast<std::uintptr_t>(sp), lo = reinterpret_cast<std::uintptr_t>(w.stacks);
  // A grid barrier would wait for the abandoned block forever: cooperative launches end the process.
  return w.launch && !w.launch->cooperative && w.cur.load(std::memory_order_relaxed) >= 0 && at >= lo &&
         at < lo + w.stacks_len;
}

void abandon_block(Worker& w) {
  w.abandoned = true;
  std::longjmp(*static_cast<std::jmp_buf*>(w.threads[w.cur.load(std::memory_order_relaxed)].ended), 1);
}

Site last_rendezvous(const Worker& w, int thread) {
  switch (w.state[thread]) {
    case TState::barrier: return w.released_site;  // it runs, so that barrier released it
    case TState::unstarted: return Site{};
    default: return w.site[thread];  // a warp op (state runnable once released), or nothing yet
  }
}

bool same_site(const Site& a, const Site& b) {
  return a.line == b.line && (a.file == b.file || (a.file && b.file && std::strcmp(a.file, b.file) == 0));
}

std::string describe_kernel(const Worker& w) {
  std::string s = "kernel '";
  s += w.launch ? w.launch->name : "?";
  s += "'";
  if (w.launch) s += " (launched at " + fmt_site(Site{w.launch->file, w.launch->line}) + ")";
  s += ", block " + fmt_idx(w.block);
  return s;
}

std::vector<Worker*> all_workers() {
  std::vector<Worker*> out;
  if (!g_pool) return out;
  std::lock_guard<std::mutex> lk(g_pool->mu);
  for (Worker* w : g_pool->workers)
    if (w) out.push_back(w);
  return out;
}

}  // namespace pplab::sim::detail

namespace pplab::sim {
using namespace detail;

void set_thread_observers(void (*on_start)(), void (*on_exit)()) {
  g_thread_start_observer.store(on_start);
  g_thread_exit_observer.store(on_exit);
}

void set_schedule(Schedule s, unsigned seed) {
  g_schedule.seed.store(seed);
  g_schedule.kind.store(static_cast<int>(s));
}
Schedule schedule() {
  load_schedule_from_env();
  return static_cast<Schedule>(g_schedule.kind.load());
}
unsigned schedule_seed() {
  load_schedule_from_env();
  return g_schedule.seed.load();
}
int worker_count() { return pool().size; }

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

bool detail::launch_config_ok(const LaunchDesc& d) {
  dim3 g = d.grid, b = d.block;
  unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 || threads > 1024 || b.x > 1024 ||
      b.y > 1024 || b.z > 64 || g.x > 2147483647u || g.y > 65535 || g.z > 65535) {
    // CUDA 13 on an H200 answers cudaErrorInvalidValue here (older toolkits gave
    // cudaErrorInvalidConfiguration): tests/gpu_check/expected_h200_cuda13.txt.
    set_last_error(cudaErrorInvalidValue);
    return false;
  }
  if (d.smem > max_dynamic_smem()) {
    set_last_error(cudaErrorInvalidValue);
    return false;
  }
  if (!kernel_image_ok()) {
    set_last_error(cudaErrorNoKernelImageForDevice);
    return false;
  }
  return true;
}

void launch(const LaunchDesc& d) {
  if (tls_worker)
    fatal(std::string("kernel '") + d.name + "' launched from device code at " + fmt_site(Site{d.file, d.line}) +
          ": dynamic parallelism is not supported by the sim");
  Pool& p = pool();
  dim3 g = d.grid;
  if (!detail::launch_config_ok(d)) return;
  if (cudaError_t e = sticky_error()) {  // the context is unusable after a device assert, as in CUDA
    set_last_error(e);
    return;
  }
  // Kernels may touch device memory, which is otherwise closed to the host (memory.cpp);
  // open for the whole launch, cooperative or not, whichever thread runs it.
  const DeviceMemoryOpen open;
  std::lock_guard<std::mutex> launch_lock(p.launch_mu);
  if (!d.counted) count_launch();
  long long nblocks = 1ll * g.x * g.y * g.z;
  if (d.cooperative) {
    run_cooperative(d, nblocks);
    return;
  }
  Worker& self = this_worker(0);
  {
    std::lock_guard<std::mutex> lk(p.mu);
    p.workers[0] = &self;  // the launching host thread works too
  }
  watchdog_launch_begin(&d);
  p.next_block.store(0);
  int helpers = static_cast<int>(std::min<long long>(p.size - 1, nblocks - 1));
  if (helpers > 0) {
    std::lock_guard<std::mutex> lk(p.mu);
    p.desc = &d;
    p.nblocks = nblocks;
    p.running.store(p.size - 1);
    ++p.generation;
    p.cv.notify_all();
  }
  run_blocks(self, d, p.next_block, nblocks);
  if (helpers > 0) {
    std::unique_lock<std::mutex> lk(p.mu);
    p.cv.wait(lk, [&] { return p.running.load() == 0; });
  }
  watchdog_launch_end();
}

}  // namespace pplab::sim
