// What both timers share (bench.cpp): the summary of a measurement's times and the one
// place a measurement is written out, so the in-process and the checker's figures have
// the same form.
#pragma once
#include <vector>

#include "pplab/bench.h"

namespace pplab::detail {

/// Fills median/min/max, GB/s, items/s and % of copy from the repeats' times.
void summarise(Measurement& m, std::vector<double> times_ms);

/// Prints the JSON line on stdout, sends it on the result channel, and prints the
/// readable line on stderr.
void report(const Measurement& m);

/// The middle of `values` (they are sorted in place).
double median(std::vector<double>& values);

}  // namespace pplab::detail
