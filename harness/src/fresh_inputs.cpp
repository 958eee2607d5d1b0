// The CPU's half of pplab/fresh_inputs.h: the draw a check needs, split over every core,
// and the seeds, from a source that lives only in the timer's process.
#include "pplab/fresh_inputs.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <random>

#include "pplab/parallel_parts.h"

namespace pplab {

template <class T>
std::vector<T> fresh_values(std::size_t n, Spread spread, std::uint64_t seed) {
  std::vector<T> values(n);
  for_each_part(n, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) values[i] = fresh::value<T>(seed, i, n, spread);
  });
  return values;
}

template std::vector<int> fresh_values<int>(std::size_t, Spread, std::uint64_t);
template std::vector<unsigned> fresh_values<unsigned>(std::size_t, Spread, std::uint64_t);
template std::vector<float> fresh_values<float>(std::size_t, Spread, std::uint64_t);

std::vector<std::size_t> sample_positions(std::size_t n, std::size_t count) {
  std::vector<std::size_t> positions(std::min(n, count));
  if (n <= count) {
    std::iota(positions.begin(), positions.end(), std::size_t{0});
    return positions;
  }
  std::mt19937_64 source{unpredictable_seed()};
  std::uniform_int_distribution<std::size_t> anywhere(0, n - 1);
  for (auto& position : positions) position = anywhere(source);
  std::sort(positions.begin(), positions.end());  // the output is read in order
  return positions;
}

namespace {
std::atomic<int> same_draws{0};
}  // namespace

SameDraws::SameDraws() { ++same_draws; }
SameDraws::~SameDraws() { --same_draws; }
bool drawing_the_same() { return same_draws.load() > 0; }

std::uint64_t unpredictable_seed() {
  static std::mutex mutex;
  static std::mt19937_64 source{(std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  return source();
}

}  // namespace pplab
