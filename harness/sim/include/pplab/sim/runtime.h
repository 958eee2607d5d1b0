// The CUDA runtime API subset the labs and the harness use, with CUDA's enum values.
// Memory is ordinary host memory (device pointers are host-accessible), launches run
// synchronously, so streams and events only order and time host-side work.
#pragma once
#include <cstddef>
#include <cstring>

// CUDA's errors with the toolkit's values, and what cudaGetErrorString says of each
// ("unknown error" where the sim has no text of its own): X(name, value, message). The
// one table declares the enum and answers cudaGetErrorName and cudaGetErrorString.
#define PPLAB_SIM_CUDA_ERRORS(X) \
  X(cudaSuccess, 0, "no error") \
  X(cudaErrorInvalidValue, 1, "invalid argument") \
  X(cudaErrorMemoryAllocation, 2, "out of memory") \
  X(cudaErrorInitializationError, 3, "initialization error") \
  X(cudaErrorCudartUnloading, 4, "unknown error") \
  X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument") \
  X(cudaErrorInvalidPitchValue, 12, "unknown error") \
  X(cudaErrorInvalidSymbol, 13, "invalid device symbol") \
  X(cudaErrorInvalidHostPointer, 16, "unknown error") \
  X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer") \
  X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  X(cudaErrorMissingConfiguration, 52, "unknown error") \
  X(cudaErrorInvalidDeviceFunction, 98, "invalid device function") \
  X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected") \
  X(cudaErrorInvalidDevice, 101, "invalid device ordinal") \
  X(cudaErrorInvalidKernelImage, 200, "unknown error") \
  X(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
  X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle") \
  X(cudaErrorSymbolNotFound, 500, "unknown error") \
  X(cudaErrorNotReady, 600, "device not ready") \
  X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
  X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated") \
  X(cudaErrorAssert, 710, "device-side assert triggered") \
  X(cudaErrorIllegalInstruction, 715, "unknown error") \
  X(cudaErrorMisalignedAddress, 716, "unknown error") \
  X(cudaErrorLaunchFailure, 719, "unspecified launch failure") \
  X(cudaErrorCooperativeLaunchTooLarge, 720, "unknown error") \
  X(cudaErrorNotPermitted, 800, "unknown error") \
  X(cudaErrorNotSupported, 801, "operation not supported") \
  X(cudaErrorTimeout, 909, "unknown error") \
  X(cudaErrorUnknown, 999, "unknown error")
#define PPLAB_SIM_ERROR_ENUMERATOR(name, value, message) name = value,
enum cudaError_t : int { PPLAB_SIM_CUDA_ERRORS(PPLAB_SIM_ERROR_ENUMERATOR) };
#undef PPLAB_SIM_ERROR_ENUMERATOR
typedef enum cudaError_t cudaError;

// The values are CUDA's, 0 to 4; each enumerator is one more than the one before it.
enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault,
};

enum cudaFuncAttribute : int {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache : int { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
// The device attributes the sim answers, with the toolkit's values, each answered by the
// cudaDeviceProp field of the same meaning: X(name, value, field). The one table declares
// the enum and answers cudaDeviceGetAttribute (runtime.cpp).
#define PPLAB_SIM_CUDA_DEVICE_ATTRIBUTES(X) \
  X(cudaDevAttrMaxThreadsPerBlock, 1, maxThreadsPerBlock) \
  X(cudaDevAttrMaxBlockDimX, 2, maxThreadsDim[0]) \
  X(cudaDevAttrMaxBlockDimY, 3, maxThreadsDim[1]) \
  X(cudaDevAttrMaxBlockDimZ, 4, maxThreadsDim[2]) \
  X(cudaDevAttrMaxGridDimX, 5, maxGridSize[0]) \
  X(cudaDevAttrMaxGridDimY, 6, maxGridSize[1]) \
  X(cudaDevAttrMaxGridDimZ, 7, maxGridSize[2]) \
  X(cudaDevAttrMaxSharedMemoryPerBlock, 8, sharedMemPerBlock) \
  X(cudaDevAttrWarpSize, 10, warpSize) \
  X(cudaDevAttrClockRate, 13, clockRate) \
  X(cudaDevAttrMultiProcessorCount, 16, multiProcessorCount) \
  X(cudaDevAttrIntegrated, 18, integrated) \
  X(cudaDevAttrCanMapHostMemory, 19, canMapHostMemory) \
  X(cudaDevAttrComputeMode, 20, computeMode) \
  X(cudaDevAttrConcurrentKernels, 31, concurrentKernels) \
  X(cudaDevAttrMaxThreadsPerMultiProcessor, 39, maxThreadsPerMultiProcessor) \
  X(cudaDevAttrMemoryClockRate, 36, memoryClockRate) \
  X(cudaDevAttrGlobalMemoryBusWidth, 37, memoryBusWidth) \
  X(cudaDevAttrL2CacheSize, 38, l2CacheSize) \
  X(cudaDevAttrComputeCapabilityMajor, 75, major) \
  X(cudaDevAttrComputeCapabilityMinor, 76, minor) \
  X(cudaDevAttrUnifiedAddressing, 41, unifiedAddressing) \
  X(cudaDevAttrManagedMemory, 83, managedMemory) \
  X(cudaDevAttrConcurrentManagedAccess, 89, concurrentManagedAccess) \
  X(cudaDevAttrCooperativeLaunch, 95, cooperativeLaunch) \
  X(cudaDevAttrMaxSharedMemoryPerBlockOptin, 97, sharedMemPerBlockOptin)
#define PPLAB_SIM_ATTRIBUTE_ENUMERATOR(name, value, field) name = value,
enum cudaDeviceAttr : int { PPLAB_SIM_CUDA_DEVICE_ATTRIBUTES(PPLAB_SIM_ATTRIBUTE_ENUMERATOR) };
#undef PPLAB_SIM_ATTRIBUTE_ENUMERATOR

#define cudaStreamNonBlocking 0x01
#define cudaStreamDefault 0x00
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId (-1)

struct CUstream_st;
struct CUevent_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int concurrentManagedAccess;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int cooperativeLaunch;
  size_t reservedSharedMemPerBlock;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

// --- errors ---
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);

// --- device ---
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaThreadSynchronize();
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache);

// --- memory ---
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = nullptr);
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, int device, cudaStream_t stream = nullptr);
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
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

// --- streams and events ---
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

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
