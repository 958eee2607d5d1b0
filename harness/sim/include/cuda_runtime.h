// The sim's stand-in for the CUDA runtime header: unmodified .cu code that
// includes <cuda_runtime.h> gets the CPU emulator instead (see harness/sim/README.md).
#pragma once
#include "pplab/sim/sim.h"
