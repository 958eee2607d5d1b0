// Runs a launch's blocks on a worker: each OS thread that runs blocks has a Worker,
// and each block its threads' fibers, the threadIdx of each, its shared memory
// poisoned and its checks started, before the first thread runs; the rounds
// (scheduler.cpp) then run it to its end. Fibers persist, each on a stack of its own
// taken from the worker's pool of stacks, and are reused block after block. A fault in
// a thread (diagnostics.cpp) abandons the running block from here.
#include <pthread.h>
#include <sys/mman.h>

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "internal.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

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

// ----------------------------------------------------------------- fibers -----
// A new fiber starts in fiber_loop (scheduler.cpp) at its first switch.
#if PPLAB_SIM_INLINE_SWITCH
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

}  // namespace

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

}  // namespace pplab::sim::detail
