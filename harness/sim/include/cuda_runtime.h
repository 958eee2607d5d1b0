// The sim's stand-in for the CUDA runtime header: unmodified .cu code that
// includes <cuda_runtime.h> gets the CPU emulator instead (see harness/sim/README.md).
// A C translation unit gets the runtime API's C functions and types alone, as CUDA's
// cuda_runtime_api.h gives C code.
#pragma once
// The guard names of the real headers this one stands for: code such as
// cuda-samples' helper_cuda.h tests them to decide what to declare.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#ifdef __cplusplus
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif
#include "pplab/sim/sim.h"
#else
#include "pplab/sim/runtime_api.h"
#endif
