// The lab's entry points as the checker links them: each forwards its call to the
// runner (harness/remote/define_entries.h). The lab's own code is never linked here.
#include "define_entries.h"
#include "entries.h"  // the lab's list, harness/labs/NN_name/entries.h

PPLAB_DEFINE_LAB_ENTRIES()
