// The runtime API's C face: the types and the functions CUDA declares with C linkage
// in cuda_runtime_api.h and driver_types.h, with the toolkit's values. It is valid C and
// C++, so that a C translation unit (compiled by gcc, or by simcc from a .c file) can
// call the runtime and link against the sim's library. C++ code gets it through
// <cuda_runtime.h>, which adds the C++ overloads (typed cudaMalloc, symbol copies,
// launches) in pplab/sim/runtime.h and pplab/sim/compat.h.
#pragma once
#include <stddef.h>

#ifdef __cplusplus
#define PPLAB_SIM_C_BEGIN extern "C" {
#define PPLAB_SIM_C_END }
// A default argument exists only in C++, as CUDA's own __dv() does it.
#define PPLAB_SIM_DEFAULT(value) = value
#else
#define PPLAB_SIM_C_BEGIN
#define PPLAB_SIM_C_END
#define PPLAB_SIM_DEFAULT(value)
#endif

// The runtime API version this surface follows (CUDA 13.0), as the real header sets it.
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

// Every cudaError_t value of CUDA 13.0, with its name and the text its runtime's
// cudaGetErrorString gives: X(name, value, message). The one table declares the enum
// and answers cudaGetErrorName and cudaGetErrorString (src/runtime.cpp).
#define PPLAB_SIM_CUDA_ERRORS(X) \
  X(cudaSuccess, 0, "no error") \
  X(cudaErrorInvalidValue, 1, "invalid argument") \
  X(cudaErrorMemoryAllocation, 2, "out of memory") \
  X(cudaErrorInitializationError, 3, "initialization error") \
  X(cudaErrorCudartUnloading, 4, "driver shutting down") \
  X(cudaErrorProfilerDisabled, 5, "profiler disabled while using external profiling tool") \
  X(cudaErrorProfilerNotInitialized, 6, "profiler not initialized: call cudaProfilerInitialize()") \
  X(cudaErrorProfilerAlreadyStarted, 7, "profiler already started") \
  X(cudaErrorProfilerAlreadyStopped, 8, "profiler already stopped") \
  X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument") \
  X(cudaErrorInvalidPitchValue, 12, "invalid pitch argument") \
  X(cudaErrorInvalidSymbol, 13, "invalid device symbol") \
  X(cudaErrorInvalidHostPointer, 16, "invalid host pointer") \
  X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer") \
  X(cudaErrorInvalidTexture, 18, "invalid texture reference") \
  X(cudaErrorInvalidTextureBinding, 19, "texture is not bound to a pointer") \
  X(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor") \
  X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  X(cudaErrorAddressOfConstant, 22, "invalid address of constant") \
  X(cudaErrorTextureFetchFailed, 23, "fetch from texture failed") \
  X(cudaErrorTextureNotBound, 24, "cannot fetch from a texture that is not bound") \
  X(cudaErrorSynchronizationError, 25, "incorrect use of __syncthreads()") \
  X(cudaErrorInvalidFilterSetting, 26, "linear filtering not supported for non-float type") \
  X(cudaErrorInvalidNormSetting, 27, "read as normalized float not supported for data type") \
  X(cudaErrorMixedDeviceExecution, 28, "device emulation mode and device execution mode cannot be mixed") \
  X(cudaErrorNotYetImplemented, 31, "feature not yet implemented") \
  X(cudaErrorMemoryValueTooLarge, 32, "memory size or pointer value too large to fit in 32 bit") \
  X(cudaErrorStubLibrary, 34, "CUDA driver is a stub library") \
  X(cudaErrorInsufficientDriver, 35, "CUDA driver version is insufficient for CUDA runtime version") \
  X(cudaErrorCallRequiresNewerDriver, 36, "API call is not supported in the installed CUDA driver") \
  X(cudaErrorInvalidSurface, 37, "invalid surface reference") \
  X(cudaErrorDuplicateVariableName, 43, "duplicate global variable looked up by string name") \
  X(cudaErrorDuplicateTextureName, 44, "duplicate texture looked up by string name") \
  X(cudaErrorDuplicateSurfaceName, 45, "duplicate surface looked up by string name") \
  X(cudaErrorDevicesUnavailable, 46, "CUDA-capable device(s) is/are busy or unavailable") \
  X(cudaErrorIncompatibleDriverContext, 49, "incompatible driver context") \
  X(cudaErrorMissingConfiguration, 52, "__global__ function call is not configured") \
  X(cudaErrorPriorLaunchFailure, 53, "unspecified launch failure in prior launch") \
  X(cudaErrorLaunchMaxDepthExceeded, 65, "launch would exceed maximum depth of nested launches") \
  X(cudaErrorLaunchFileScopedTex, 66, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") \
  X(cudaErrorLaunchFileScopedSurf, 67, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") \
  X(cudaErrorSyncDepthExceeded, 68, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") \
  X(cudaErrorLaunchPendingCountExceeded, 69, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") \
  X(cudaErrorInvalidDeviceFunction, 98, "invalid device function") \
  X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected") \
  X(cudaErrorInvalidDevice, 101, "invalid device ordinal") \
  X(cudaErrorDeviceNotLicensed, 102, "device doesn't have valid Grid license") \
  X(cudaErrorSoftwareValidityNotEstablished, 103, "integrity checks failed") \
  X(cudaErrorStartupFailure, 127, "startup failure in cuda runtime") \
  X(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid") \
  X(cudaErrorDeviceUninitialized, 201, "invalid device context") \
  X(cudaErrorMapBufferObjectFailed, 205, "mapping of buffer object failed") \
  X(cudaErrorUnmapBufferObjectFailed, 206, "unmapping of buffer object failed") \
  X(cudaErrorArrayIsMapped, 207, "array is mapped") \
  X(cudaErrorAlreadyMapped, 208, "resource already mapped") \
  X(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
  X(cudaErrorAlreadyAcquired, 210, "resource already acquired") \
  X(cudaErrorNotMapped, 211, "resource not mapped") \
  X(cudaErrorNotMappedAsArray, 212, "resource not mapped as array") \
  X(cudaErrorNotMappedAsPointer, 213, "resource not mapped as pointer") \
  X(cudaErrorECCUncorrectable, 214, "uncorrectable ECC error encountered") \
  X(cudaErrorUnsupportedLimit, 215, "limit is not supported on this architecture") \
  X(cudaErrorDeviceAlreadyInUse, 216, "exclusive-thread device already in use by a different thread") \
  X(cudaErrorPeerAccessUnsupported, 217, "peer access is not supported between these two devices") \
  X(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed") \
  X(cudaErrorInvalidGraphicsContext, 219, "invalid OpenGL or DirectX context") \
  X(cudaErrorNvlinkUncorrectable, 220, "uncorrectable NVLink error detected during the execution") \
  X(cudaErrorJitCompilerNotFound, 221, "PTX JIT compiler library not found") \
  X(cudaErrorUnsupportedPtxVersion, 222, "the provided PTX was compiled with an unsupported toolchain.") \
  X(cudaErrorJitCompilationDisabled, 223, "PTX JIT compilation was disabled") \
  X(cudaErrorUnsupportedExecAffinity, 224, "the provided execution affinity is not supported") \
  X(cudaErrorUnsupportedDevSideSync, 225, "the provided PTX contains unsupported call to cudaDeviceSynchronize") \
  X(cudaErrorContained, 226, "Invalid access of peer GPU memory over nvlink or a hardware error") \
  X(cudaErrorInvalidSource, 300, "device kernel image is invalid") \
  X(cudaErrorFileNotFound, 301, "file not found") \
  X(cudaErrorSharedObjectSymbolNotFound, 302, "shared object symbol not found") \
  X(cudaErrorSharedObjectInitFailed, 303, "shared object initialization failed") \
  X(cudaErrorOperatingSystem, 304, "OS call failed or operation not supported on this OS") \
  X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle") \
  X(cudaErrorIllegalState, 401, "the operation cannot be performed in the present state") \
  X(cudaErrorLossyQuery, 402, "attempted introspection would be semantically lossy") \
  X(cudaErrorSymbolNotFound, 500, "named symbol not found") \
  X(cudaErrorNotReady, 600, "device not ready") \
  X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
  X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated") \
  X(cudaErrorLaunchIncompatibleTexturing, 703, "launch uses incompatible texturing mode") \
  X(cudaErrorPeerAccessAlreadyEnabled, 704, "peer access is already enabled") \
  X(cudaErrorPeerAccessNotEnabled, 705, "peer access has not been enabled") \
  X(cudaErrorSetOnActiveProcess, 708, "cannot set while device is active in this process") \
  X(cudaErrorContextIsDestroyed, 709, "context is destroyed") \
  X(cudaErrorAssert, 710, "device-side assert triggered") \
  X(cudaErrorTooManyPeers, 711, "peer mapping resources exhausted") \
  X(cudaErrorHostMemoryAlreadyRegistered, 712, "part or all of the requested memory range is already mapped") \
  X(cudaErrorHostMemoryNotRegistered, 713, "pointer does not correspond to a registered memory region") \
  X(cudaErrorHardwareStackError, 714, "hardware stack error") \
  X(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered") \
  X(cudaErrorMisalignedAddress, 716, "misaligned address") \
  X(cudaErrorInvalidAddressSpace, 717, "operation not supported on global/shared address space") \
  X(cudaErrorInvalidPc, 718, "invalid program counter") \
  X(cudaErrorLaunchFailure, 719, "unspecified launch failure") \
  X(cudaErrorCooperativeLaunchTooLarge, 720, "too many blocks in cooperative launch") \
  X(cudaErrorTensorMemoryLeak, 721, "tensor memory not completely freed") \
  X(cudaErrorNotPermitted, 800, "operation not permitted") \
  X(cudaErrorNotSupported, 801, "operation not supported") \
  X(cudaErrorSystemNotReady, 802, "system not yet initialized") \
  X(cudaErrorSystemDriverMismatch, 803, "system has unsupported display driver / cuda driver combination") \
  X(cudaErrorCompatNotSupportedOnDevice, 804, "forward compatibility was attempted on non supported HW") \
  X(cudaErrorMpsConnectionFailed, 805, "MPS client failed to connect to the MPS control daemon or the MPS server") \
  X(cudaErrorMpsRpcFailure, 806, "the remote procedural call between the MPS server and the MPS client failed") \
  X(cudaErrorMpsServerNotReady, 807, "MPS server is not ready to accept new MPS client requests") \
  X(cudaErrorMpsMaxClientsReached, 808, "the hardware resources required to create MPS client have been exhausted") \
  X(cudaErrorMpsMaxConnectionsReached, 809, "the hardware resources required to support device connections have been exhausted") \
  X(cudaErrorMpsClientTerminated, 810, "the MPS client has been terminated by the server") \
  X(cudaErrorCdpNotSupported, 811, "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it") \
  X(cudaErrorCdpVersionMismatch, 812, "unsupported interaction between different versions of CUDA Dynamic Parallelism") \
  X(cudaErrorStreamCaptureUnsupported, 900, "operation not permitted when stream is capturing") \
  X(cudaErrorStreamCaptureInvalidated, 901, "operation failed due to a previous error during capture") \
  X(cudaErrorStreamCaptureMerge, 902, "operation would result in a merge of separate capture sequences") \
  X(cudaErrorStreamCaptureUnmatched, 903, "capture was not ended in the same stream as it began") \
  X(cudaErrorStreamCaptureUnjoined, 904, "capturing stream has unjoined work") \
  X(cudaErrorStreamCaptureIsolation, 905, "dependency created on uncaptured work in another stream") \
  X(cudaErrorStreamCaptureImplicit, 906, "operation would make the legacy stream depend on a capturing blocking stream") \
  X(cudaErrorCapturedEvent, 907, "operation not permitted on an event last recorded in a capturing stream") \
  X(cudaErrorStreamCaptureWrongThread, 908, "attempt to terminate a thread-local capture sequence from another thread") \
  X(cudaErrorTimeout, 909, "wait operation timed out") \
  X(cudaErrorGraphExecUpdateFailure, 910, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
  X(cudaErrorExternalDevice, 911, "an async error has occured in external entity outside of CUDA") \
  X(cudaErrorInvalidClusterSize, 912, "a kernel launch error has occurred due to cluster misconfiguration") \
  X(cudaErrorFunctionNotLoaded, 913, "the function handle is not loaded when calling an API that requires a loaded function") \
  X(cudaErrorInvalidResourceType, 914, "one or more resources passed in are not valid resource types for the operation") \
  X(cudaErrorInvalidResourceConfiguration, 915, "one or more resources are insufficient or non-applicable for the operation") \
  X(cudaErrorUnknown, 999, "unknown error") \
  X(cudaErrorApiFailureBase, 10000, "api failure base")
#define PPLAB_SIM_ERROR_ENUMERATOR(name, value, message) name = value,
enum cudaError { PPLAB_SIM_CUDA_ERRORS(PPLAB_SIM_ERROR_ENUMERATOR) };
#undef PPLAB_SIM_ERROR_ENUMERATOR
typedef enum cudaError cudaError_t;

// The values are CUDA's, 0 to 4; each enumerator is one more than the one before it.
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
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
enum cudaDeviceAttr { PPLAB_SIM_CUDA_DEVICE_ATTRIBUTES(PPLAB_SIM_ATTRIBUTE_ENUMERATOR) };
#undef PPLAB_SIM_ATTRIBUTE_ENUMERATOR

#define cudaStreamNonBlocking 0x01
#define cudaStreamDefault 0x00
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId (-1)

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
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

// Device flags (cudaSetDeviceFlags) and host-memory flags; values as in CUDA.
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaInvalidDeviceId (-2)
#define cudaCooperativeLaunchMultiDeviceNoPreSync 0x01
#define cudaCooperativeLaunchMultiDeviceNoPostSync 0x02

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

// CUDA 13 names where memory should live with a location, not a device number.
// The values in this enum and cudaMemoryAdvise are CUDA's; each enumerator is one more
// than the one before it.
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice, cudaMemLocationTypeHost,
  cudaMemLocationTypeHostNuma, cudaMemLocationTypeHostNumaCurrent,
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly, cudaMemAdviseSetPreferredLocation,
  cudaMemAdviseUnsetPreferredLocation, cudaMemAdviseSetAccessedBy, cudaMemAdviseUnsetAccessedBy,
};

// Host work queued on a stream (runs after the stream's earlier work).
#define CUDART_CB
typedef void (*cudaHostFn_t)(void* user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* user_data);

PPLAB_SIM_C_BEGIN
// --- errors ---
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);

// --- device ---
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaChooseDevice(int* device, const struct cudaDeviceProp* prop);
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);

// --- memory ---
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width_bytes, size_t height);
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags PPLAB_SIM_DEFAULT(cudaMemAttachGlobal));
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream PPLAB_SIM_DEFAULT(0));
cudaError_t cudaMemcpy2D(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width_bytes,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width_bytes,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream PPLAB_SIM_DEFAULT(0));
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream PPLAB_SIM_DEFAULT(0));
cudaError_t cudaMemset2D(void* ptr, size_t pitch, int value, size_t width_bytes, size_t height);
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream PPLAB_SIM_DEFAULT(0));
cudaError_t cudaMemAdvise(const void* ptr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location);
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host_ptr);

// --- streams and events ---
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags PPLAB_SIM_DEFAULT(0));
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, size_t length PPLAB_SIM_DEFAULT(0),
                                     unsigned int flags PPLAB_SIM_DEFAULT(cudaMemAttachSingle));
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void* user_data, unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream PPLAB_SIM_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
PPLAB_SIM_C_END

// CUDA arrays and texture objects: their types and C functions.
#include "pplab/sim/textures_api.h"
