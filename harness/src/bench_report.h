// What both timers share (bench.cpp): the L2 scrub buffer, the summary of a
// measurement's times and the one place a measurement is written out, so the in-process
// and the checker's figures have the same form.
#pragma once
#include <vector>

#include "pplab/bench.h"
#include "pplab/device_buffer.h"

namespace pplab::detail {

/// Fills median/min/max, GB/s, items/s and % of copy from the repeats' times.
void summarise(Measurement& m, std::vector<double> times_ms);

/// Prints the JSON line on stdout, sends it on the result channel, and prints the
/// readable line on stderr.
void report(const Measurement& m);

/// A scratch buffer twice the L2 size (one per process): writing it evicts whatever the
/// last run left in the L2.
DeviceBuffer<unsigned char>& l2_scrub_buffer();

/// The middle of `values` (they are sorted in place).
double median(std::vector<double>& values);

}  // namespace pplab::detail
