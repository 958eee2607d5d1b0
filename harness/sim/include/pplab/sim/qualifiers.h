// CUDA declaration qualifiers mapped onto plain C++.
#pragma once
#include "pplab/sim/devices.h"

// Kernels and device functions are ordinary host functions on the CPU.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
// Blocks never migrate between worker threads, and a worker runs one block at a
// time, so one copy per worker thread is exactly "one copy per running block".
#define __shared__ static thread_local
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
// __restrict__ is understood by g++ itself. __noinline__ is deliberately not
// defined: libstdc++ spells __attribute__((__noinline__)).
// __CUDACC__ and __CUDA_ARCH__ stay undefined: code that tests them takes its host
// path, which is the path that runs here. Test PPLAB_SIM to tell the backends apart.
// In code only a GPU compiles (a __global__ or __device__-only function, or a group of
// such definitions), the rewriter spells __CUDA_ARCH__ as PPLAB_SIM_CUDA_ARCH
// (tools/device_arch.h): the architecture the code is compiled for. That is the device
// named at build time, -DPPLAB_SIM_DEVICE_BUILD=<key> (simcc and CMake pass
// PPLAB_SIM_DEVICE on), else the default device (pplab/sim/devices.h); simcc's
// -arch=sm_XY sets the architecture alone, as nvcc's does.
#define PPLAB_SIM_CAT_(a, b) a##b
#define PPLAB_SIM_CAT(a, b) PPLAB_SIM_CAT_(a, b)
#ifndef PPLAB_SIM_CUDA_ARCH
#ifdef PPLAB_SIM_DEVICE_BUILD
#define PPLAB_SIM_CUDA_ARCH PPLAB_SIM_CAT(PPLAB_SIM_ARCH_OF_, PPLAB_SIM_DEVICE_BUILD)
#else
#define PPLAB_SIM_CUDA_ARCH PPLAB_SIM_CAT(PPLAB_SIM_ARCH_OF_, PPLAB_SIM_DEFAULT_DEVICE)
#endif
#endif
#if !(PPLAB_SIM_CUDA_ARCH >= 700)
#error "PPLAB_SIM_DEVICE names a device the emulator does not know: the keys are in pplab/sim/devices.h"
#endif
