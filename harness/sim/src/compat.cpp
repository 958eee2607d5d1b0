// The runtime calls of pplab/sim/compat.h: device flags, mapped and registered host
// memory, launches through a kernel's address, the grid barrier of cooperative
// launches, host callbacks, occupancy, versions and the device clock.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csetjmp>
#include <cstdlib>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "internal.h"

namespace {
unsigned g_device_flags = 0;

struct KernelEntry {
  const char* name;
  pplab::sim::KernelThunk thunk;
};
std::mutex g_kernels_mu;
std::map<const void*, KernelEntry>& kernels() {
  static auto* m = new std::map<const void*, KernelEntry>;  // filled by static initialisers
  return *m;
}

// One grid barrier at a time: cooperative launches run one at a time.
struct GridBarrier {
  std::mutex mu;
  std::condition_variable cv;
  int blocks = 0;  // 0: no cooperative launch is running
  int arrived = 0;
  unsigned long long generation = 0;
} g_grid;
}  // namespace

namespace pplab::sim::detail {
void cooperative_begin(int blocks) {
  std::lock_guard<std::mutex> lk(g_grid.mu);
  g_grid.blocks = blocks;
  g_grid.arrived = 0;
}
void cooperative_end() {
  std::lock_guard<std::mutex> lk(g_grid.mu);
  g_grid.blocks = 0;
}
}  // namespace pplab::sim::detail

namespace pplab::sim {
using namespace detail;

void register_kernel(const void* fn, const char* name, KernelThunk thunk) {
  std::lock_guard<std::mutex> lk(g_kernels_mu);
  kernels()[fn] = KernelEntry{name, thunk};
}

cudaError_t launch_by_address(const void* fn, void** args, const ErasedLaunch& how) {
  KernelEntry e{};
  {
    std::lock_guard<std::mutex> lk(g_kernels_mu);
    auto it = kernels().find(fn);
    if (it == kernels().end()) {
      char buf[300];
      std::snprintf(buf, sizeof buf,
                    "%s:%d: cudaLaunch%sKernel: %p is not a kernel the sim knows (only non-template __global__ "
                    "functions in rewritten files can be launched by address)",
                    how.file, how.line, how.cooperative ? "Cooperative" : "", fn);
      std::fflush(stdout);
      std::fprintf(stderr, "pplab-sim: error: %s\n", buf);
      set_last_error(cudaErrorInvalidDeviceFunction);
      return cudaErrorInvalidDeviceFunction;
    }
    e = it->second;
  }
  if (how.cooperative) {
    // As many threads as the occupancy calls promise can be resident at once.
    unsigned long long threads = 1ull * how.grid.x * how.grid.y * how.grid.z * how.block.x * how.block.y * how.block.z;
    if (threads > 2048ull * static_cast<unsigned long long>(worker_count())) {
      set_last_error(cudaErrorCooperativeLaunchTooLarge);
      return cudaErrorCooperativeLaunchTooLarge;
    }
  }
  cudaGetLastError();
  e.thunk(fn, e.name, args, how);
  return cudaGetLastError();
}

int occupancy_blocks(int block_size, size_t dynamic_smem) {
  const DeviceProfile& gpu = device_profile();
  if (block_size <= 0 || block_size > 1024) return 0;
  // Threads and blocks a multiprocessor holds, and its shared memory (each block also
  // takes the device's reserved share); registers are not modelled.
  int blocks = std::min(gpu.threads_per_sm / block_size, gpu.blocks_per_sm);
  if (dynamic_smem > 0)
    blocks = std::min<long>(blocks, static_cast<long>(gpu.shared_per_sm / (dynamic_smem + gpu.shared_reserved)));
  return blocks;
}

int occupancy_grid(int block_size) { return worker_count() * std::max(1, occupancy_blocks(block_size, 0)); }

void grid_sync(const char* file, int line) {
  syncthreads_op(BarrierOp::plain, 0, file, line);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    std::unique_lock<std::mutex> lk(g_grid.mu);
    if (g_grid.blocks == 0) {
      lk.unlock();
      fatal(std::string("grid.sync() at ") + fmt_site(Site{file, line}) +
            " in a kernel not launched with cudaLaunchCooperativeKernel: the grid's blocks need not all run at "
            "once, so a grid-wide barrier could wait forever");
    }
    unsigned long long gen = g_grid.generation;
    if (++g_grid.arrived == g_grid.blocks) {
      g_grid.arrived = 0;
      ++g_grid.generation;
      g_grid.cv.notify_all();
    } else {
      g_grid.cv.wait(lk, [&] { return g_grid.generation != gen; });
    }
  }
  syncthreads_op(BarrierOp::plain, 0, file, line);
}

bool grid_is_cooperative() {
  std::lock_guard<std::mutex> lk(g_grid.mu);
  return g_grid.blocks != 0;
}
}  // namespace pplab::sim

using namespace pplab::sim::detail;

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  g_device_flags = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (!flags) return cudaErrorInvalidValue;
  *flags = g_device_flags;
  return cudaSuccess;
}
// Host memory is what kernels read and write here: registering it changes nothing,
// and its device address is its host address.
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int) {
  if (!ptr || size == 0) {
    set_last_error(cudaErrorInvalidValue);
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* ptr) {
  if (!ptr) {
    set_last_error(cudaErrorInvalidValue);
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned int) {
  if (!dev_ptr || !host_ptr) {
    set_last_error(cudaErrorInvalidValue);
    return cudaErrorInvalidValue;
  }
  *dev_ptr = host_ptr;
  return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned int* flags, void*) {
  if (!flags) return cudaErrorInvalidValue;
  *flags = cudaHostAllocMapped;
  return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, size_t, unsigned int) { return cudaSuccess; }
cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, cudaMemLocation) { return cudaSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  if (!device) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* can, int, int) {
  if (!can) return cudaErrorInvalidValue;
  *can = 0;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int) {
  return cudaStreamCreateWithFlags(stream, flags);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return cudaSuccess;
}

long long pplab_sim_clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Host work on a stream runs on the device thread once the stream's earlier work is done.
namespace {
struct HostCall {
  cudaHostFn_t fn;
  cudaStreamCallback_t cb;
  cudaStream_t stream;
  void* user;
};
void run_host_call(void* p) {
  auto* h = static_cast<HostCall*>(p);
  if (h->fn) h->fn(h->user);
  else h->cb(h->stream, sticky_error(), h->user);
  delete h;
}
}  // namespace
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!fn) return cudaErrorInvalidValue;
  enqueue(stream, run_host_call, new HostCall{fn, nullptr, stream, user_data});
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void* user_data, unsigned int) {
  if (!cb) return cudaErrorInvalidValue;
  enqueue(stream, run_host_call, new HostCall{nullptr, cb, stream, user_data});
  return cudaSuccess;
}

// --- CUDA's sticky error ------------------------------------------------------
namespace {
std::atomic<int> g_sticky{cudaSuccess};
}
namespace pplab::sim::detail {
cudaError_t sticky_error() { return static_cast<cudaError_t>(g_sticky.load(std::memory_order_relaxed)); }
void clear_sticky_error() { g_sticky.store(cudaSuccess); }
bool set_sticky_error(cudaError_t e) {
  int none = cudaSuccess;
  return g_sticky.compare_exchange_strong(none, e);
}
}  // namespace pplab::sim::detail

// A failed assert() in a kernel prints what CUDA prints, ends that thread, skips the
// launch's blocks not yet started and leaves cudaErrorAssert for the next call that
// synchronises (and every one after it: the context is unusable, as on a GPU).
// Outside kernels, assert behaves as the C library's.
extern "C" [[noreturn]] void __assert_fail(const char* expr, const char* file, unsigned int line,
                                           const char* function) noexcept {
  Worker* w = tls_worker;
  std::fflush(stdout);
  if (!w) {
    std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file, line,
                 function, expr);
    std::abort();
  }
  const int me = w->cur.load(std::memory_order_relaxed);
  const uint3 t = w->idx[me];
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
               function, w->block.x, w->block.y, w->block.z, t.x, t.y, t.z, expr);
  if (set_sticky_error(cudaErrorAssert))
    std::fprintf(stderr,
                 "pplab-sim: error: device assert failed in %s, thread %s at %s:%u; the launch stops and the next "
                 "synchronising call returns cudaErrorAssert\n",
                 describe_kernel(*w).c_str(), fmt_idx(t).c_str(), file, line);
  std::longjmp(*static_cast<std::jmp_buf*>(w->threads[me].ended), 1);
}
