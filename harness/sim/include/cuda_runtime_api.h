#pragma once
#include "pplab/sim/sim.h"
