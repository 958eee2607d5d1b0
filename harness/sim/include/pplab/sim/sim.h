// Everything a .cu file compiled for the sim can use. Included by <cuda_runtime.h>.
#pragma once
#define PPLAB_SIM 1

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pplab/sim/qualifiers.h"
#include "pplab/sim/types.h"
#include "pplab/sim/builtins.h"
#include "pplab/sim/sync.h"
#include "pplab/sim/warp.h"
#include "pplab/sim/atomics.h"
#include "pplab/sim/math.h"
#include "pplab/sim/runtime.h"
#include "pplab/sim/launch.h"
#include "pplab/sim/shared_check.h"
#include "pplab/sim/compat.h"
#include "pplab/sim/textures.h"
