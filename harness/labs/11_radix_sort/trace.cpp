// pplab trace 11: the lecture's 1-bit split sort of 7 14 4 1 (bits 0 to 3) by
// split_sort_kernel: one block of 32 threads, one key per thread (threads 4-31 hold
// none). Each pass counts the 1s with __syncthreads_count (the histogram), and each
// key goes to its group's start plus the keys of its group before it, in the other
// half of the ping-pong array keys[2][1024].
#include <cuda_runtime.h>

#include <iostream>
#include <string>
#include <vector>

#include "pplab/trace.h"
#include "pplab/trace_bit_passes.h"
#include "radix_sort.cuh"

namespace tr = pplab::trace;
namespace lab = pplab::lab11;

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
  return tr::finish(ok);
}
