// Lab 01's library row, beside the reference only: the device copy of the same bytes.
#include "pplab/bench_main.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  measure_copy(PPLAB_LAB, n, 4, options);
}
