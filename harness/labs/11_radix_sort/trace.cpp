// pplab trace 11: the lecture's 1-bit split sort of 7 14 4 1 (bits 0 to 3) by
// split_sort_kernel: one block of 32 threads, one key per thread (threads 4-31 hold
// none). Each pass counts the 1s with __syncthreads_count (the histogram), and each
// key goes to its group's start plus the keys of its group before it, in the other
// half of the ping-pong array keys[2][1024].
// Then, untraced, the device-wide sort of parts 2 and 3 (TODOs 11.2-11.6), which the
// worked example never enters: radix_sort_keys of unsigned, int and float keys and
// radix_sort_pairs, each on three tiles, by the three kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "pplab/trace.h"
#include "pplab/trace_bit_passes.h"
#include "radix_sort.cuh"

namespace tr = pplab::trace;
namespace lab = pplab::lab11;

namespace {
// The device-wide sort's input: three tiles, the last one partial, so every pass runs
// histogram_kernel and scatter_kernel in several blocks and scan_counts_kernel scans
// several blocks' histograms; a tile's ranking (TODO 11.4) runs a warp over 16 items.
constexpr std::size_t kSortKeys = 2 * lab::kTileKeys + 1000;

/// The order the sort must give a key, as an unsigned whose order is the key's: the
/// contract's order (for floats -inf, negatives, -0.0, +0.0, positives, +inf), computed
/// here apart from the lab's own flips (TODO 11.6) so that the trace checks them.
template <class Key>
unsigned order_of(Key key) {
  const unsigned bits = std::bit_cast<unsigned>(key);
  if constexpr (std::is_same_v<Key, int>) return bits ^ 0x80000000u;
  if constexpr (std::is_same_v<Key, float>) return (bits >> 31) ? ~bits : bits | 0x80000000u;
  return bits;
}

/// Pseudo-random 32-bit words, the same on every run.
struct Words {
  std::uint64_t state = 20261204;
  unsigned operator()() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>(state >> 32);
  }
};

/// The lab's sort of `keys` (and `values`, when not empty) by the three kernels, with the
/// contract's scratch protocol: ask the size, allocate, sort. The sorted keys and values
/// replace the inputs.
template <class Key>
void sort_on_device(std::vector<Key>& keys, std::vector<unsigned>& values) {
  const std::size_t n = keys.size();
  const bool pairs = !values.empty();
  const Key* d_keys_in = tr::to_device(keys);
  Key* d_keys_out = tr::device_array<Key>(n);
  const unsigned* d_values_in = pairs ? tr::to_device(values) : nullptr;
  unsigned* d_values_out = pairs ? tr::device_array<unsigned>(n) : nullptr;
  auto sort = [&](void* d_temp, std::size_t& temp_bytes) {
    if (pairs)
      lab::radix_sort_pairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0, 32, 0,
                            lab::Algorithm::three_kernels);
    else
      lab::radix_sort_keys(d_temp, temp_bytes, d_keys_in, d_keys_out, n, 0, 32, 0, lab::Algorithm::three_kernels);
  };
  std::size_t temp_bytes = 0;
  sort(nullptr, temp_bytes);
  sort(tr::device_array<unsigned char>(temp_bytes), temp_bytes);
  cudaDeviceSynchronize();
  keys = tr::from_device(d_keys_out, n);
  if (pairs) values = tr::from_device(d_values_out, n);
}

/// Whether the lab sorts `keys` (with values 0, 1, 2, ... when `pairs`) as the CPU's
/// stable sort by order_of() does, bit for bit (so -0.0 before +0.0).
template <class Key>
bool sorts_like_the_cpu(const std::vector<Key>& keys, bool pairs) {
  std::vector<unsigned> values;
  if (pairs)
    for (std::size_t i = 0; i < keys.size(); ++i) values.push_back(static_cast<unsigned>(i));
  std::vector<unsigned> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) want[i] = static_cast<unsigned>(i);
  std::stable_sort(want.begin(), want.end(),
                   [&](unsigned a, unsigned b) { return order_of(keys[a]) < order_of(keys[b]); });
  std::vector<Key> got = keys;
  sort_on_device(got, values);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (order_of(got[i]) != order_of(keys[want[i]])) return false;
    if (pairs && values[i] != want[i]) return false;
  }
  return true;
}

/// Part 2 and 3's keys: random words (every digit of every pass varies, half of the ints
/// and floats negative), with the ends of each order among them.
std::vector<unsigned> unsigned_keys() {
  Words word;
  std::vector<unsigned> keys(kSortKeys);
  for (unsigned& k : keys) k = word();
  keys[5] = 0, keys[6] = UINT_MAX, keys[kSortKeys - 1] = 0;
  return keys;
}
std::vector<int> int_keys() {
  Words word;
  std::vector<int> keys(kSortKeys);
  for (int& k : keys) k = static_cast<int>(word());
  keys[1] = INT_MIN, keys[2] = INT_MAX, keys[3] = -1, keys[4] = 0, keys[lab::kTileKeys + 7] = INT_MIN;
  return keys;
}
std::vector<float> float_keys() {
  Words word;
  std::vector<float> keys(kSortKeys);
  // Numbers from about -2^20 to 2^20, and small ones whose exponents differ.
  for (float& k : keys) {
    const int whole = static_cast<int>(word()) / 2048;
    k = static_cast<float>(whole) / static_cast<float>(1 << (word() % 28));
  }
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {-0.0f, 0.0f, -inf, inf, -0.0f, std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::max(), 0.0f, -0.0f, -std::numeric_limits<float>::denorm_min()};
  for (std::size_t j = 0; j < std::size(specials); ++j) keys[j * 997 % kSortKeys] = specials[j];
  return keys;
}
/// Keys for the pairs: 61 values, so each one comes about 150 times and the values show
/// whether equal keys kept their input order; each of the four bytes differs between them.
std::vector<unsigned> duplicate_keys() {
  Words word;
  std::vector<unsigned> keys(kSortKeys);
  for (unsigned& k : keys) k = (word() % 61) * 0x01030507u;
  return keys;
}
}  // namespace

int main(int argc, char** argv) {
  const auto [options, tracer, in, n, end_bit, d_in, d_out] =
      tr::begin_lecture_sort(argc, argv, "lab 11: the 1-bit split sort of 7 14 4 1");
  const std::size_t half = lab::kSplitMaxKeys;  // keys[1] starts here
  unsigned* d_positions = tr::device_array<unsigned>(n);
  auto sort = [&](int bits, std::vector<unsigned>& positions) {
    lab::split_sort(d_in, d_out, d_positions, n, 0, bits);
    cudaDeviceSynchronize();
    positions = tr::from_device(d_positions, n);
    return tr::from_device(d_out, n);
  };
  std::vector<unsigned> positions, positions_bit0;
  // The first sort finds keys[2][1024]; the second is traced.
  const std::vector<unsigned> sorted = tr::traced_run(tracer, [&] { return sort(end_bit, positions); });
  const std::vector<unsigned> after_bit0 = sort(1, positions_bit0);

  // Which bit each step belongs to: the j-th __syncthreads_count is bit j's histogram,
  // and the barrier after it ends bit j's scatter.
  const auto& steps = tracer.steps();
  auto is_count = [](const tr::Step& s) { return std::string(s.op) == "__syncthreads_count()"; };
  const std::vector<int> bit_of = tr::bit_of_steps(steps, is_count);
  const std::vector<unsigned> ones_of = tr::vote_results(steps, bit_of, is_count, end_bit);
  bool consistent = true;

  tr::Format format =
      tr::bit_pass_format(tracer, bit_of, "keys", half, n, "load: thread i holds key i", "the histogram");
  format.show = [&](std::size_t k, const tr::Step& s) {
    // The block scan's shuffles (block_exclusive_sum, given) are left out.
    return s.lanes.empty() ? !s.writes.empty() : is_count(s) && bit_of[k] >= 0;
  };
  format.exchange_row = [&](std::size_t k, const tr::Step& s) -> std::string {
    const tr::Lane* l = s.lane(0);
    const unsigned ones = l ? static_cast<unsigned>(l->received) : 0, zeros = n - ones;
    return "ones = " + std::to_string(ones) + ", zeros = " + std::to_string(n) + " − " + std::to_string(ones) +
           " = " + std::to_string(zeros) + ": the 0s start at 0, the 1s at " + std::to_string(zeros) +
           (bit_of[k] < 0 ? "" : "");
  };
  format.what = [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
    const int bit = bit_of[k];
    if (auto text = tr::write_outside_passes(bit, end_bit, "keys", half, w)) return *text;
    const unsigned key = tr::as<unsigned>(w.after);
    const std::size_t position = w.index % half;
    const unsigned one = (key >> bit) & 1u;
    // The keys of the same group before this one, in the order the pass read them.
    const std::size_t source = (bit % 2) * half;
    unsigned relative = 0;
    for (int j = 0; j < w.thread; ++j)
      relative += ((tr::as<unsigned>(tracer.value(s.before, source + j)) >> bit) & 1u) == one;
    const unsigned start = one ? n - ones_of[bit] : 0;  // the 1s start after the 0s
    if (start + relative != position) consistent = false;
    return std::to_string(key) + " (bit " + std::to_string(one) + ") → " + std::to_string(start) + " + " +
           std::to_string(relative) + " = " + std::to_string(position);
  };

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 11, the lecture's 1-bit split: keys " + tr::joined(in) + ", bits 0 to " + std::to_string(end_bit - 1) +
                         ", one block of 32 threads",
                     "keys[2][1024] is the ping-pong array; shown: keys[0][0-3] ‖ keys[1][0-3]",
                     "`keys[2][1024]` is the kernel's ping-pong array; the table shows `keys[0][0…3] ‖ keys[1][0…3]` "
                     "(threads 4–31 hold no key). Each key's new position is its group's start plus the keys of its "
                     "group before it (the relative position, from the given block scan). A key written to the slot "
                     "that already holds it changes nothing, so its thread is not listed."});
  tr::print_steps(o, tracer, format, options.markdown);

  const std::vector<unsigned> want = tr::sorted(in);
  const std::vector<unsigned> want_bit0{14, 4, 7, 1}, want_positions{2, 0, 1, 3};
  const bool ok = sorted == want && after_bit0 == want_bit0 && positions_bit0 == want_positions;
  if (options.markdown) o << "\n";
  tr::print_result(o, options.markdown, "Sorted by bits 0–3", tr::joined(sorted), sorted == want,
                   "differs from the CPU's", /*item=*/true);
  o << (options.markdown ? "- " : "") << "`split_sort` by bit 0 alone: output " << tr::joined(after_bit0)
    << ", `positions` " << tr::joined(positions_bit0)
    << (after_bit0 == want_bit0 && positions_bit0 == want_positions ? " ✓" : " ✗ (the lecture has 14 4 7 1 and 2 0 1 3)")
    << "\n";
  if (!consistent) tr::print_note(o, options.markdown, "some keys did not go where the split puts them.");

  // The worked example runs Part 1 alone. The device-wide sort (parts 2 and 3) runs here
  // untraced on three tiles of keys, by the three kernels (the one-sweep stretch is not
  // asked for): every main step 11.2-11.6 under the emulator's checks, so a missing
  // barrier in the histogram or the scatter is a data race and the trace ends in that
  // report. The results are compared with the CPU's stable sort.
  std::vector<std::string> differ;
  if (!sorts_like_the_cpu(unsigned_keys(), false)) differ.push_back("unsigned keys");
  if (!sorts_like_the_cpu(int_keys(), false)) differ.push_back("int keys");
  if (!sorts_like_the_cpu(float_keys(), false)) differ.push_back("float keys");
  if (!sorts_like_the_cpu(duplicate_keys(), true)) differ.push_back("pairs");
  std::string which;
  for (const std::string& d : differ) which += (which.empty() ? "" : ", ") + d;
  o << (options.markdown ? "- " : "") << "The device-wide sort (TODOs 11.2-11.6), untraced, by the three kernels on "
    << kSortKeys << " keys (" << (kSortKeys + lab::kTileKeys - 1) / lab::kTileKeys << " tiles): `radix_sort_keys` of unsigned, int and float keys (negatives, −0.0, ±∞) and "
    << "`radix_sort_pairs` of keys with many duplicates (stable)"
    << (differ.empty() ? " ✓" : " ✗ (differs from the CPU's stable sort: " + which + ")") << "\n";
  return tr::finish(ok && differ.empty());
}
