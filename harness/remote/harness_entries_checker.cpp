// The harness's entry points as a checker links them: each forwards its call to the
// runner, which runs the real one (harness/src/fresh_inputs_device.cu) on its device.
#define PPLAB_REMOTE_CHECKER
#include "define_entries.h"
#include "harness_entries.h"

PPLAB_HARNESS_ENTRIES(PPLAB_CHECKER_FUNCTION)
