// Driver-API header stand-in: the labs only need what the runtime header offers.
#pragma once
#include "pplab/sim/sim.h"
