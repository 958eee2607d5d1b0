// Compiled with every include path a lab's code or test file gets (the runner, the
// checker, the doctest main, the in-process harness): it must not find the grader's
// protocol. See harness/tests/CMakeLists.txt, "the lab API cannot include the protocol".
#include "pplab/result_channel.h"
