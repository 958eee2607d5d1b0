// The worker pool and launches: a launch's blocks are spread over the pool's OS
// threads (PPLAB_SIM_THREADS, by default one per core), the launching host thread
// among them, each taking the next block number until none is left; blocks run in
// parallel as on a GPU's multiprocessors. A cooperative launch gives every block a
// thread of its own instead, since grid.sync() needs all of them alive at once. Here
// too: the checks CUDA makes of a launch's configuration.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "internal.h"
#include "pplab/sim/device_memory.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

namespace {

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

int worker_count() { return pool().size; }

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
