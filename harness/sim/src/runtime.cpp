// CUDA runtime API calls. Launches, asynchronous copies and event records go to the
// device queue (streams.cpp) and run there in order; synchronous calls wait for it.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "internal.h"
#include "pplab/sim/device_memory.h"

namespace pplab::sim::detail {
void* allocate(size_t size, int kind);
void register_symbol(const void* ptr, size_t size);
bool release(void* ptr, int* kind_out);
bool find_alloc_locked(std::uintptr_t addr, AllocInfo* out);
void free_all();

namespace {
thread_local cudaError_t t_last_error = cudaSuccess;
std::atomic<size_t> g_max_dyn_smem{kDefaultDynSmem};

cudaError_t fail(cudaError_t e) {
  t_last_error = e;
  return e;
}

void report(const std::string& s) {
  std::fflush(stdout);
  std::fprintf(stderr, "pplab-sim: error: %s\n", s.c_str());
}

// Checks that [p, p+n) lies inside one allocation when p points into one, and
// that p is a device allocation when the copy kind says it must be.
bool check_range(const char* call, const char* role, const void* p, size_t n, bool must_be_device) {
  AllocInfo a;
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (!find_alloc_locked(addr, &a)) {
    if (must_be_device) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%s: %s %p is not device memory (from cudaMalloc); swapped arguments or copy kind?",
                    call, role, p);
      report(buf);
      return false;
    }
    return true;
  }
  if (addr < a.start || addr + n > a.start + a.size) {
    char buf[260];
    std::snprintf(buf, sizeof buf,
                  "%s: %s range [%p, +%zu bytes) runs outside its %zu-byte allocation at %p (offset %lld)", call, role,
                  p, n, a.size, reinterpret_cast<void*>(a.start),
                  static_cast<long long>(addr) - static_cast<long long>(a.start));
    report(buf);
    return false;
  }
  return true;
}

struct Event {
  std::chrono::steady_clock::time_point t;
  bool recorded = false;
  std::uint64_t ticket = 0;  // its record in the device queue
};
}  // namespace

void set_last_error(cudaError_t e) { t_last_error = e; }
size_t max_dynamic_smem() { return g_max_dyn_smem.load(); }
}  // namespace pplab::sim::detail

using namespace pplab::sim::detail;

cudaError_t cudaGetLastError() {
  if (cudaError_t s = sticky_error()) return s;
  cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return sticky_error() ? sticky_error() : t_last_error; }

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define PPLAB_SIM_ERROR_NAME(name, value, message) \
  case name: return #name;
    PPLAB_SIM_CUDA_ERRORS(PPLAB_SIM_ERROR_NAME)
#undef PPLAB_SIM_ERROR_NAME
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
#define PPLAB_SIM_ERROR_STRING(name, value, message) \
  case name: return message;
    PPLAB_SIM_CUDA_ERRORS(PPLAB_SIM_ERROR_STRING)
#undef PPLAB_SIM_ERROR_STRING
  }
  return "unknown error";
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::memset(prop, 0, sizeof *prop);
  const pplab::sim::DeviceProfile& gpu = pplab::sim::device_profile();
  // The multiprocessors are the worker threads: a grid sized from them fits this machine.
  const int workers = pplab::sim::worker_count();
  std::snprintf(prop->name, sizeof prop->name, "%s (pplab CPU emulator, %d worker threads)", gpu.name, workers);
  // The GPU's memory, but no more than this machine has: allocations are host memory.
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  prop->totalGlobalMem = std::min<size_t>(gpu.memory_bytes, static_cast<size_t>(pages) * static_cast<size_t>(page));
  prop->sharedMemPerBlock = kDefaultDynSmem;
  prop->sharedMemPerBlockOptin = gpu.shared_optin;
  prop->sharedMemPerMultiprocessor = gpu.shared_per_sm;
  prop->reservedSharedMemPerBlock = gpu.shared_reserved;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->clockRate = gpu.clock_khz;
  prop->totalConstMem = 65536;
  prop->major = gpu.arch / 100;
  prop->minor = gpu.arch % 100 / 10;
  prop->textureAlignment = 512;
  prop->multiProcessorCount = workers;
  prop->concurrentKernels = 0;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;  // host and kernels share one memory
  prop->canMapHostMemory = 1;
  prop->cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel runs every block at once
  prop->memoryClockRate = gpu.memory_khz;
  prop->memoryBusWidth = gpu.bus_bits;
  prop->l2CacheSize = gpu.l2_bytes;
  prop->maxThreadsPerMultiProcessor = gpu.threads_per_sm;
  prop->maxBlocksPerMultiProcessor = gpu.blocks_per_sm;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return fail(cudaErrorInvalidValue);
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device)) return e;
  switch (attr) {
#define PPLAB_SIM_ATTRIBUTE_ANSWER(name, number, field) \
  case name: *value = static_cast<int>(p.field); break;
    PPLAB_SIM_CUDA_DEVICE_ATTRIBUTES(PPLAB_SIM_ATTRIBUTE_ANSWER)
#undef PPLAB_SIM_ATTRIBUTE_ANSWER
    default: return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  wait_all();
  return sticky_error();
}
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceReset() {
  wait_all();
  free_all();
  t_last_error = cudaSuccess;
  clear_sticky_error();
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  long page = sysconf(_SC_PAGESIZE);
  if (free_bytes) *free_bytes = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<size_t>(page);
  if (total_bytes) *total_bytes = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(page);
  return cudaSuccess;
}

static cudaError_t alloc_kind(void** ptr, size_t size, int kind) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  // Memory is mapped lazily, so the map alone would accept sizes no machine has: refuse
  // anything beyond physical memory, as a GPU refuses more than it holds.
  const size_t physical = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (size > physical) {
    *ptr = nullptr;
    return fail(cudaErrorMemoryAllocation);
  }
  *ptr = allocate(size, kind);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
cudaError_t cudaMalloc(void** ptr, size_t size) { return alloc_kind(ptr, size, 0); }
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int) { return alloc_kind(ptr, size, 1); }
cudaError_t cudaMallocHost(void** ptr, size_t size) { return alloc_kind(ptr, size, 2); }
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) { return alloc_kind(ptr, size, 2); }
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t) { return alloc_kind(ptr, size, 0); }
// Rows start kPitchAlignment bytes apart, as a GPU aligns them for its texture units
// (512 bytes on every profile's GPU).
constexpr size_t kPitchAlignment = 512;
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width_bytes, size_t height) {
  if (!pitch) return fail(cudaErrorInvalidValue);
  *pitch = (width_bytes + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  return alloc_kind(ptr, *pitch * height, 0);
}
cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  wait_all();  // as in CUDA, cudaFree waits for the work that may still use the memory
  if (!release(ptr, nullptr)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "cudaFree(%p): not a pointer returned by cudaMalloc (or freed twice)", ptr);
    report(buf);
    return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t) { return cudaFree(ptr); }
cudaError_t cudaFreeHost(void* ptr) { return cudaFree(ptr); }

namespace {
// Every launch and every copy between device and host memory, counted so the harness can
// tell whether a lab's call did its work on the device (pplab/device_work.h).
std::atomic<unsigned long long> g_launches{0}, g_to_host_bytes{0}, g_to_device_bytes{0};

bool is_device_memory(const void* p) {
  AllocInfo a;
  return find_alloc_locked(reinterpret_cast<std::uintptr_t>(p), &a) && (a.kind == 0 || a.kind == 3);
}

// The copy call this thread is in, as the rewriter marked it in the user's code (null:
// none), and the bytes copied to the host per such line.
thread_local const pplab::sim::CopyCall* t_copy_call = nullptr;
std::mutex g_sites_mutex;
std::vector<pplab::sim::CopySite> g_sites;

void count_to_host(size_t count) {
  g_to_host_bytes += count;
  const pplab::sim::CopyCall* call = t_copy_call;
  if (!call) return;
  const std::lock_guard<std::mutex> lock(g_sites_mutex);
  for (pplab::sim::CopySite& site : g_sites)
    if (site.line == call->line() && std::strcmp(site.function, call->function()) == 0 &&
        std::strcmp(site.file, call->file()) == 0) {
      site.to_host_bytes += count;
      return;
    }
  g_sites.push_back({call->function(), call->file(), call->line(), count});
}

void count_copy(void* dst, const void* src, size_t count) {
  const bool from_device = is_device_memory(src), to_device = is_device_memory(dst);
  if (from_device && !to_device) count_to_host(count);
  if (to_device && !from_device) g_to_device_bytes += count;
}
}  // namespace

namespace pplab::sim::detail {
void count_launch() { ++g_launches; }
}  // namespace pplab::sim::detail
namespace pplab::sim {
Traffic traffic() { return Traffic{g_launches.load(), g_to_host_bytes.load(), g_to_device_bytes.load()}; }
// A temporary of the full expression that holds the copy call: current until it ends.
CopyCall::CopyCall(const char* function, const char* file, int line) noexcept
    : function_(function), file_(file), line_(line), outer_(t_copy_call) {
  t_copy_call = this;
}
CopyCall::~CopyCall() { t_copy_call = outer_; }
std::vector<CopySite> to_host_sites() {
  const std::lock_guard<std::mutex> lock(g_sites_mutex);
  return g_sites;
}
}  // namespace pplab::sim

namespace {
struct QueuedCopy {
  void* dst;
  const void* src;
  size_t count;
  int value;  // -1: a copy; else the memset byte
};
void run_copy(void* p) {
  auto* c = static_cast<QueuedCopy*>(p);
  const pplab::sim::DeviceMemoryOpen open;  // the device's copy engine may touch device memory
  if (c->value < 0) std::memmove(c->dst, c->src, c->count);
  else std::memset(c->dst, c->value, c->count);
  delete c;
}
}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  wait_all();  // the legacy default stream: after every earlier operation
  return cudaMemcpyAsync(dst, src, count, kind, cudaStreamLegacy) ?: (wait_all(), sticky_error());
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t s = sticky_error()) return s;
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return fail(cudaErrorInvalidValue);
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (!check_range("cudaMemcpy", "destination", dst, count, dst_dev) ||
      !check_range("cudaMemcpy", "source", src, count, src_dev))
    return fail(cudaErrorInvalidValue);
  count_copy(dst, src, count);
  enqueue(stream, run_copy, new QueuedCopy{dst, src, count, -1});
  return cudaSuccess;
}
cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  wait_all();
  return cudaMemsetAsync(ptr, value, count, cudaStreamLegacy) ?: (wait_all(), sticky_error());
}
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (!ptr) return fail(cudaErrorInvalidValue);
  if (!check_range("cudaMemset", "destination", ptr, count, true)) return fail(cudaErrorInvalidValue);
  enqueue(stream, run_copy, new QueuedCopy{ptr, nullptr, count, value & 0xff});
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t) { return cudaSuccess; }

// A pitched copy or memset is one per row, each checked against its allocation.
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width_bytes,
                              size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (width_bytes > dst_pitch || width_bytes > src_pitch) return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = cudaMemcpyAsync(static_cast<char*>(dst) + row * dst_pitch,
                                        static_cast<const char*>(src) + row * src_pitch, width_bytes, kind, stream))
      return e;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width_bytes,
                         size_t height, cudaMemcpyKind kind) {
  wait_all();
  return cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, height, kind, cudaStreamLegacy)
             ?: (wait_all(), sticky_error());
}
cudaError_t cudaMemset2D(void* ptr, size_t pitch, int value, size_t width_bytes, size_t height) {
  if (width_bytes > pitch) return fail(cudaErrorInvalidPitchValue);
  wait_all();
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = cudaMemsetAsync(static_cast<char*>(ptr) + row * pitch, value, width_bytes, cudaStreamLegacy))
      return e;
  wait_all();
  return sticky_error();
}

namespace pplab::sim {
void register_symbol(const void* ptr, size_t size) { detail::register_symbol(ptr, size); }
cudaError_t symbol_copy(void* dst, const void* src, size_t count, size_t symbol_size, size_t offset, bool to_symbol) {
  wait_all();
  if (offset + count > symbol_size) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %zu bytes at offset %zu do not fit in a %zu-byte symbol",
                  to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol", count, offset, symbol_size);
    report(buf);
    return fail(cudaErrorInvalidValue);
  }
  // The symbol is open to the host, but the other side may be a cudaMalloc buffer
  // (cudaMemcpyToSymbol from device memory), and this copy runs on the host thread.
  const DeviceMemoryOpen open;
  if (to_symbol) {
    std::memcpy(static_cast<char*>(dst) + offset, src, count);
    if (!is_device_memory(src)) g_to_device_bytes += count;
  } else {
    std::memcpy(dst, static_cast<const char*>(src) + offset, count);
    if (!is_device_memory(dst)) count_to_host(count);
  }
  return cudaSuccess;
}
cudaError_t set_max_dynamic_smem(int bytes) {
  // The most a block may opt into on the selected device, as cudaFuncSetAttribute checks it.
  if (bytes < 0 || static_cast<size_t>(bytes) > device_profile().shared_optin) return fail(cudaErrorInvalidValue);
  // One limit for all kernels: the sim does not track attributes per function.
  size_t cur = g_max_dyn_smem.load();
  while (static_cast<size_t>(bytes) > cur && !g_max_dyn_smem.compare_exchange_weak(cur, static_cast<size_t>(bytes))) {}
  return cudaSuccess;
}
}  // namespace pplab::sim

cudaError_t pplab_sim_func_get_attributes(cudaFuncAttributes* attr) {
  if (!attr) return fail(cudaErrorInvalidValue);
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  attr->numRegs = 32;
  attr->ptxVersion = pplab::sim::device_profile().arch / 10;
  attr->binaryVersion = pplab::sim::device_profile().arch / 10;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_smem());
  return cudaSuccess;
}

// Streams: handles only; their work goes to the one device queue (streams.cpp), in order.
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (!stream) return fail(cudaErrorInvalidValue);
  *stream = reinterpret_cast<cudaStream_t>(new char(0));
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) { return cudaStreamCreate(stream); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete reinterpret_cast<char*>(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  wait_stream(stream);
  return sticky_error();
}
cudaError_t cudaStreamQuery(cudaStream_t stream) { return stream_idle(stream) ? sticky_error() : cudaErrorNotReady; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return fail(cudaErrorInvalidValue);
  *event = reinterpret_cast<cudaEvent_t>(new Event);
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) { return cudaEventCreate(event); }
// An event takes the time when the device reaches it in its queue.
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  auto* e = reinterpret_cast<Event*>(event);
  e->recorded = true;
  e->ticket = enqueue(stream, [](void* p) { static_cast<Event*>(p)->t = std::chrono::steady_clock::now(); }, e);
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  wait_ticket(reinterpret_cast<Event*>(event)->ticket);
  return sticky_error();
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  return ticket_done(reinterpret_cast<Event*>(event)->ticket) ? sticky_error() : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return fail(cudaErrorInvalidResourceHandle);
  auto* a = reinterpret_cast<Event*>(start);
  auto* b = reinterpret_cast<Event*>(end);
  if (!a->recorded || !b->recorded) return fail(cudaErrorInvalidResourceHandle);
  if (!ticket_done(a->ticket) || !ticket_done(b->ticket)) return cudaErrorNotReady;
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (event) wait_ticket(reinterpret_cast<Event*>(event)->ticket);  // its record may still be queued
  delete reinterpret_cast<Event*>(event);
  return cudaSuccess;
}
