/// \file
/// \brief Host access to device memory, for the emulator's and the harness's own code.
///
/// On a GPU, host code that dereferences a pointer from cudaMalloc (or cudaMallocAsync)
/// gets a segmentation fault: the memory is the GPU's. Here it is host memory, so the
/// emulator maps it inaccessible (PROT_NONE) whenever no device work runs, and host code
/// that touches it gets a report naming the allocation (src/memory.cpp,
/// src/diagnostics.cpp). Managed (cudaMallocManaged) and pinned host memory
/// (cudaMallocHost, cudaHostAlloc) stay open to the host, as on a GPU.
///
/// Code that reads device memory from the host thread on purpose, as a GPU's driver or
/// a debugger would (a trace's snapshot of a watched array), holds a DeviceMemoryOpen
/// meanwhile. Not included by <cuda_runtime.h>: lab code has no business with it.
#pragma once

namespace pplab::sim {

/// While one lives, every cudaMalloc allocation is readable and writable by every
/// thread of the process (there is no per-thread protection). Scopes nest, on any
/// thread: memory closes when the last one ends. Each open and close changes the
/// protection of every live cudaMalloc allocation, so hold one around a batch of
/// accesses rather than around each.
class DeviceMemoryOpen {
 public:
  DeviceMemoryOpen();
  ~DeviceMemoryOpen();
  DeviceMemoryOpen(const DeviceMemoryOpen&) = delete;
  DeviceMemoryOpen& operator=(const DeviceMemoryOpen&) = delete;
};

}  // namespace pplab::sim
