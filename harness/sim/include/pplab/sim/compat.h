// The rest of the runtime API surface ordinary CUDA programs (NVIDIA's cuda-samples
// among them) expect from <cuda_runtime.h>: version macros, device flags, mapped and
// registered host memory, CUDA 13's cudaMemLocation prefetch, occupancy helpers,
// launches through a kernel's address (cudaLaunchKernel, cudaLaunchCooperativeKernel),
// host callbacks, and the few device helpers (umin/umax) nvcc declares implicitly.
#pragma once
#include <cstddef>
#include <utility>

#include "pplab/sim/launch.h"
#include "pplab/sim/runtime.h"
#include "pplab/sim/types.h"

#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif

// The C functions (device flags, mapped and registered memory, versions) are declared
// in pplab/sim/runtime_api.h; these are the C++ overloads of them.
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** dev_ptr, void* host_ptr, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(dev_ptr), host_ptr, flags);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}

// All memory is host memory here: prefetches and advice have nothing to move. The
// forms before CUDA 13, with a device number for the location:
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, int device, cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* ptr, size_t count, cudaMemoryAdvise advice, int device);

// --- occupancy -------------------------------------------------------------
// The sim has no registers to fill; it answers what the selected device
// (PPLAB_SIM_DEVICE) would for a kernel without register pressure: the largest block
// the limit allows, and enough blocks to fill every worker thread as a multiprocessor.
namespace pplab::sim {
int occupancy_grid(int block_size);
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, F, size_t = 0,
                                                      int block_size_limit = 0) {
  if (!min_grid || !block_size) return cudaErrorInvalidValue;
  int b = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  *block_size = b;
  *min_grid = pplab::sim::occupancy_grid(b);
  return cudaSuccess;
}
template <class F, class SMem>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid, int* block_size, F f, SMem,
                                                                  int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid, block_size, f, 0, block_size_limit);
}
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, F f, int block_size,
                                                                          size_t smem, unsigned int) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block_size, smem);
}

// --- launches through a kernel's address -------------------------------------
// `(void*)kernel` loses the kernel's type, so in files that call these the rewriter
// registers each non-template __global__ function (after its body, on the same line)
// with a thunk that knows the parameter types; these calls look the address up.
namespace pplab::sim {
struct ErasedLaunch {
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  bool cooperative;
  const char* file;
  int line;
};
using KernelThunk = void (*)(const void* fn, const char* name, void** args, const ErasedLaunch& how);
void register_kernel(const void* fn, const char* name, KernelThunk thunk);
cudaError_t launch_by_address(const void* fn, void** args, const ErasedLaunch& how);
// What cudaLaunchKernel and cudaLaunchCooperativeKernel share: the kernel's address, typed
// or `(void*)`, erased for launch_by_address; the two differ only in how.cooperative.
template <class F>
inline cudaError_t launch_kernel_address(F* fn, void** args, const ErasedLaunch& how) {
  return launch_by_address(reinterpret_cast<const void*>(fn), args, how);
}
// grid.sync(): every thread of every block of a cooperative launch arrives first.
void grid_sync(const char* file, int line);
bool grid_is_cooperative();

// Registered by the rewriter for each non-template kernel it sees, so that
// cudaLaunchKernel((void*)k, ..., args) can call k with its real parameter types.
template <class... P>
struct KernelReg {
  KernelReg(void (*f)(P...), const char* name) {
    register_kernel(reinterpret_cast<const void*>(f), name, &thunk);
  }
  static void thunk(const void* fn, const char* name, void** args, const ErasedLaunch& how) {
    call(reinterpret_cast<void (*)(P...)>(const_cast<void*>(fn)), name, args, how, std::index_sequence_for<P...>{});
  }
  template <size_t... I>
  static void call(void (*f)(P...), const char* name, void** args, const ErasedLaunch& how, std::index_sequence<I...>) {
    make_launcher(name, how.file, how.line, [f](const auto&... a) { f(a...); }, how.grid, how.block, how.smem,
                  how.stream, how.cooperative)(*static_cast<std::remove_cvref_t<P>*>(args[I])...);
  }
};
}  // namespace pplab::sim
// The call site's file and line stand in for the <<<>>> line in reports.
template <class F>
inline cudaError_t cudaLaunchKernel(F* fn, dim3 grid, dim3 block, void** args, size_t smem = 0,
                                    cudaStream_t stream = nullptr, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  return pplab::sim::launch_kernel_address(fn, args, {grid, block, smem, stream, false, file, line});
}
template <class F>
inline cudaError_t cudaLaunchCooperativeKernel(F* fn, dim3 grid, dim3 block, void** args, size_t smem = 0,
                                               cudaStream_t stream = nullptr, const char* file = __builtin_FILE(),
                                               int line = __builtin_LINE()) {
  return pplab::sim::launch_kernel_address(fn, args, {grid, block, smem, stream, true, file, line});
}

// --- device helpers nvcc declares without an include --------------------------
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }

// Device clock: a steady nanosecond count (the sim has no cycle counter per SM).
long long pplab_sim_clock64();
inline long long clock64() { return pplab_sim_clock64(); }
