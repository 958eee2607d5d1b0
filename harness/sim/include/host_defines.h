// Part of the runtime API, which the sim provides whole through <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
