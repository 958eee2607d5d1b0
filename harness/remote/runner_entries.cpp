// The runner's table of the lab's entry points (harness/remote/define_entries.h).
#include "define_entries.h"
#include "entries.h"  // the lab's list, harness/labs/NN_name/entries.h

PPLAB_DEFINE_LAB_ENTRIES()
