// Lab 08's benchmark inputs, made the same way for the lab's rows (bench.cpp) and the
// library's (bench_library.cu): random values and a random permutation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "pplab/inputs.h"

namespace pplab::lab08::bench {

using Index = std::uint32_t;

struct Inputs {
  std::vector<int> in;
  std::vector<Index> perm;
  explicit Inputs(std::size_t n) : in(pplab::random_values<int>(n, -1000000, 1000000, 1)), perm(n) {
    std::iota(perm.begin(), perm.end(), Index(0));
    auto rng = pplab::make_rng(2);
    std::shuffle(perm.begin(), perm.end(), rng);
  }
};

}  // namespace pplab::lab08::bench
