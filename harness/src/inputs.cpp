#include "pplab/inputs.h"

#include <cuda_runtime.h>  // defines PPLAB_SIM on the CPU emulator

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace pplab {
namespace {
std::uint64_t seed_from_flag = 0;
bool seed_from_flag_set = false;

std::uint64_t parse_u64(const char* text, const char* what) {
  char* end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 0);
  if (end == text || *end != '\0')
    throw std::invalid_argument(std::string(what) + " must be a whole number, got '" + text + "'");
  return value;
}

// SplitMix64: spreads neighbouring (seed, stream) pairs over the whole state space.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
}  // namespace

void set_run_seed(std::uint64_t seed) {
  seed_from_flag = seed;
  seed_from_flag_set = true;
}

std::uint64_t run_seed() {
  if (seed_from_flag_set) return seed_from_flag;
  static const std::uint64_t from_env = [] {
    const char* text = std::getenv("PPLAB_SEED");
    return text && *text ? parse_seed(text, "PPLAB_SEED") : kDefaultSeed;
  }();
  return from_env;
}

std::mt19937_64 make_rng(std::uint64_t stream) { return std::mt19937_64(mix(run_seed() ^ mix(stream))); }

const std::vector<std::size_t>& edge_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    std::vector<std::size_t> kept;
    for (std::size_t n : {0, 1, 2, 7, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 4099, 65537})
      if (n <= large_size()) kept.push_back(n);
    return kept;
  }();
  return sizes;
}

std::size_t large_size() {
  if (const char* text = std::getenv("PPLAB_LARGE_N"); text && *text)
    return parse_u64(text, "PPLAB_LARGE_N");
#ifdef PPLAB_SIM
  return std::size_t{1} << 18;
#else
  return std::size_t{1} << 22;
#endif
}

}  // namespace pplab
