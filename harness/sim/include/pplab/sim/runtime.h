// The C++ half of the CUDA runtime API: the typed overloads cuda_runtime.h adds to the C
// functions of pplab/sim/runtime_api.h (cudaMalloc(T**), symbol copies, kernel
// attributes), and the sim's own controls (schedules, traffic, fault notes).
#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "pplab/sim/runtime_api.h"

// The C functions are declared in pplab/sim/runtime_api.h; the C++ overloads follow.
// --- memory ---
// Typed conveniences, as cuda_runtime.h provides them.
template <class T> inline cudaError_t cudaMalloc(T** ptr, size_t size) { return cudaMalloc(reinterpret_cast<void**>(ptr), size); }
template <class T> inline cudaError_t cudaMallocManaged(T** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T** ptr, size_t size) { return cudaMallocHost(reinterpret_cast<void**>(ptr), size); }
template <class T> inline cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaStream_t s) { return cudaMallocAsync(reinterpret_cast<void**>(ptr), size, s); }

// --- symbols: __device__/__constant__ variables are ordinary globals here ---
namespace pplab::sim {
/// Kernels launched and bytes copied between device and host memory since the process
/// started (cudaMemcpy*, symbol copies); the harness judges "did the work run on the
/// device" from the difference across a lab's call.
struct Traffic {
  unsigned long long launches = 0, to_host_bytes = 0, to_device_bytes = 0;
};
Traffic traffic();
/// Where a copy to host memory was asked for. The rewriter wraps each call of a runtime
/// function that can copy to the host (cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D,
/// cudaMemcpyFromSymbol, ...) in the user's code as
/// `(::pplab::sim::CopyCall("cudaMemcpy", __FILE__, 31), cudaMemcpy(...))`: while the call
/// runs, the bytes it copies from device to host memory are counted against that line too.
/// Copies made elsewhere (a file not rewritten) are counted in traffic() only.
class CopyCall {
 public:
  CopyCall(const char* function, const char* file, int line) noexcept;
  ~CopyCall();
  CopyCall(const CopyCall&) = delete;
  CopyCall& operator=(const CopyCall&) = delete;
  const char* function() const { return function_; }
  const char* file() const { return file_; }
  int line() const { return line_; }

 private:
  const char* function_;
  const char* file_;
  int line_;
  const CopyCall* outer_;  // the call around this one, if any (current again at its end)
};
/// The bytes copied from device to host memory since the process started, per source
/// line that asked for them (in the order the lines first copied).
struct CopySite {
  const char* function;  // "cudaMemcpy"
  const char* file;      // as __FILE__ spelled it (the rewriter's #line: an absolute path)
  int line;
  unsigned long long to_host_bytes;
};
std::vector<CopySite> to_host_sites();
/// Lines printed under the emulator's report of a fault (an out-of-bounds access, a
/// deadlock, barrier divergence) until replaced; the harness puts the check's
/// reproduce command there. Empty: nothing.
void set_fault_note(const char* note);
/// What prints the note under a report: given the report and the note, the lines to print
/// (the harness names the one TODO step that holds the report's line). Null, the default:
/// the note as set.
using FaultNoteWriter = std::string (*)(const std::string& report, const std::string& note);
void set_fault_note_writer(FaultNoteWriter writer);
/// An invalid memory access in a kernel: by default, as in CUDA, the report goes to
/// stderr, the launch stops, and the next synchronising call (and every later one,
/// until cudaDeviceReset) returns cudaErrorIllegalAddress. true: the report ends the
/// process with status 1, like the emulator's other reports (the lab runner asks for
/// that: the checker judges a fault from how the runner ended).
void set_faults_end_process(bool end);
void register_symbol(const void* ptr, size_t size);
cudaError_t symbol_copy(void* dst, const void* src, size_t count, size_t symbol_size, size_t offset, bool to_symbol);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  (void)kind;
  return pplab::sim::symbol_copy(const_cast<T*>(&symbol), src, count, sizeof(T), offset, true);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  (void)kind;
  return pplab::sim::symbol_copy(dst, &symbol, count, sizeof(T), offset, false);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** dev_ptr, const T& symbol) {
  pplab::sim::register_symbol(&symbol, sizeof(T));
  *dev_ptr = const_cast<T*>(&symbol);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  *size = sizeof(T);
  return cudaSuccess;
}

// --- kernel attributes ---
namespace pplab::sim {
cudaError_t set_max_dynamic_smem(int bytes);
}
template <class F>
inline cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) return pplab::sim::set_max_dynamic_smem(value);
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) { return cudaSuccess; }
cudaError_t pplab_sim_func_get_attributes(cudaFuncAttributes* attr);
template <class F>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F*) { return pplab_sim_func_get_attributes(attr); }
namespace pplab::sim {
/// Blocks of `block_size` threads with `dynamic_smem` bytes each that one multiprocessor
/// of the selected device holds (registers are not modelled).
int occupancy_blocks(int block_size, size_t dynamic_smem);
}
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F*, int block_size, size_t smem) {
  if (!blocks) return cudaErrorInvalidValue;
  *blocks = pplab::sim::occupancy_blocks(block_size, smem);
  return cudaSuccess;
}

// --- schedules -------------------------------------------------------------
namespace pplab::sim {
// Order in which a block's runnable threads run between rendezvous points.
enum class Schedule { forward, reverse, random };
void set_schedule(Schedule s, unsigned seed = 0);
Schedule schedule();
unsigned schedule_seed();
// Number of worker threads blocks are spread over (PPLAB_SIM_THREADS, default: cores).
int worker_count();
// Called by each CUDA thread as its kernel body starts and as it returns, with
// threadIdx and blockIdx its own (null: nothing). For tools that attribute a thread's
// writes to it when no barrier follows them, such as `pplab trace` (harness/trace).
void set_thread_observers(void (*on_start)(), void (*on_exit)());
}  // namespace pplab::sim
