/// \file
/// \brief A CPU loop over 0 .. n-1 split into contiguous parts, one thread each, for the
/// timer's work between timed repeats (a fresh draw's values, a sampled check's pass
/// over the input): at 2^24 elements the cores cut it from tens of milliseconds to a few.
#pragma once
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace pplab {

/// How many parts of n elements for_each_part makes: one per core (at most 16), none
/// smaller than 65,536 elements, at least one. Parts are numbered in input order.
inline std::size_t part_count(std::size_t n) {
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  const std::size_t chunk = std::max<std::size_t>((n + cores - 1) / cores, std::size_t{1} << 16);
  return std::max<std::size_t>((n + chunk - 1) / chunk, 1);
}

/// Calls work(part, begin, end) for each of part_count(n) contiguous parts of [0, n), on
/// threads of their own, and returns when every one has.
template <class Work>
void for_each_part(std::size_t n, Work work) {
  const std::size_t parts = part_count(n), chunk = (n + parts - 1) / parts;
  std::vector<std::thread> threads;
  for (std::size_t part = 0; part < parts; ++part)
    threads.emplace_back([&work, part, begin = std::min(n, part * chunk), end = std::min(n, (part + 1) * chunk)] {
      work(part, begin, end);
    });
  for (auto& thread : threads) thread.join();
}

}  // namespace pplab
