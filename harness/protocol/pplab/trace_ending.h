/// \file
/// \brief How a trace program (harness/labs/NN_name/trace.cpp) tells `pplab trace` that
/// the lab's code ended it early.
///
/// A trace program exits with 0 (the worked example's answer is right) or 1 (wrong) from
/// the end of its main(). When the lab's code calls exit() first, the program prints
/// kTraceEndedEarlyLine on stderr and exits with kTraceEndedEarly, which pplab trace
/// reports as a fault; before, exit(0) looked like a passing trace with empty tables.
#pragma once

namespace pplab {
inline constexpr const char* kTraceEndedEarlyLine = "pplab-trace: error: the trace ended before its last line";
inline constexpr int kTraceEndedEarly = 3;
}  // namespace pplab
