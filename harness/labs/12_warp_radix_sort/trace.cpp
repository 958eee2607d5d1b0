// pplab trace 12: the single-warp radix sort on the lecture's keys 7 14 4 1 in lanes
// 0-3 (lanes 4-31 hold the padding key 0xFFFFFFFF), bits 0 to 3. Each pass is a
// __ballot_sync of the bit (a step of its own: every lane's bit in, the warp's mask
// out), then each lane writes its key to its new position in the other buffer, then
// __syncwarp. `buffers` is the warp's pair of 32-key shared buffers.
#include <cuda_runtime.h>

#include <bit>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "pplab/trace.h"
#include "pplab/trace_bit_passes.h"
#include "warp_radix_sort.cuh"

namespace tr = pplab::trace;
namespace lab = pplab::lab12;

namespace {
std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}
}  // namespace

int main(int argc, char** argv) {
  const auto [options, tracer, in, n, end_bit, d_in, d_out] =
      tr::begin_lecture_sort(argc, argv, "lab 12: the warp radix sort of 7 14 4 1");
  constexpr std::size_t kSegment = lab::kSegmentKeys;  // buffers[1] starts here
  tr::set_pointer_bytes(2 * kSegment * sizeof(unsigned));  // warp_sort_32 sees `buffers` as a pointer
  auto sort = [&] {
    lab::warp_radix_sort(d_in, d_out, n, 0, end_bit, /*warps_per_block=*/1, 0, lab::Algorithm::bit_passes);
    cudaDeviceSynchronize();
    return tr::from_device(d_out, n);
  };
  const std::vector<unsigned> sorted = tr::traced_run(tracer, sort);  // the first sort finds the buffers

  // The j-th ballot is bit j's; the __syncwarp after it ends bit j's pass.
  const auto& steps = tracer.steps();
  auto is_ballot = [](const tr::Step& s) { return !s.lanes.empty(); };
  const std::vector<int> bit_of = tr::bit_of_steps(steps, is_ballot);
  const std::vector<unsigned> ones_of = tr::vote_results(steps, bit_of, is_ballot, end_bit);
  bool consistent = true;

  tr::Format format = tr::bit_pass_format(tracer, bit_of, "buffers", kSegment, n, "load: lane L holds key L",
                                          "every lane's bit at once");
  format.exchange_row = [&](std::size_t, const tr::Step& s) -> std::string {
    const tr::Lane* l = s.lane(0);
    const unsigned ones = l ? static_cast<unsigned>(l->received) : 0;
    return "`ones` = " + hex(ones) + ", `zeros = ~ones` = " + hex(~ones) + ", `__popc(zeros)` = " +
           std::to_string(std::popcount(~ones));
  };
  format.what = [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
    const int bit = bit_of[k];
    if (auto text = tr::write_outside_passes(bit, end_bit, "buffers", kSegment, w)) return *text;
    const unsigned key = tr::as<unsigned>(w.after);
    const std::size_t position = w.index % kSegment;
    const unsigned lane = static_cast<unsigned>(w.thread);
    const unsigned source_key = tr::as<unsigned>(tracer.value(s.before, (bit % 2) * kSegment + lane));
    const unsigned one = (source_key >> bit) & 1u;
    const unsigned ones = ones_of[bit], zeros = ~ones, below = ~(0xFFFFFFFFu << lane);
    const unsigned relative = std::popcount((one ? ones : zeros) & below);
    const unsigned start = one ? std::popcount(zeros) : 0;
    if (start + relative != position || key != source_key) consistent = false;
    return std::to_string(key) + ": " + (one ? "ones" : "zeros") + " & below " + tr::binary(below, 4) + " = " +
           tr::binary((one ? ones : zeros) & below & 0xFu, 4) + " → " + (one ? std::to_string(start) + " + " : "") +
           std::to_string(relative) + (one ? " = " + std::to_string(position) : "");
  };

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 12, the warp radix sort: keys " + tr::joined(in) + " in lanes 0-" + std::to_string(n - 1) +
                         ", padding in lanes " + std::to_string(n) + "-31, bits 0 to " + std::to_string(end_bit - 1),
                     "shown: buffers[0][0-3] ‖ buffers[1][0-3], lanes 0-3",
                     "`buffers` is the warp's pair of 32-key shared buffers; the table shows lanes 0–3 and "
                     "`buffers[0][0…3] ‖ buffers[1][0…3]` (the padding lanes 4–31 vote 1 and land at 4…31). "
                     "`below` is `~(0xFFFFFFFFu << lane)`, printed in its low 4 bits. A key written to the slot that "
                     "already holds it changes nothing, so its lane is not listed."});
  tr::print_steps(o, tracer, format, options.markdown);

  const bool ok = sorted == tr::sorted(in);
  if (options.markdown) o << "\n";
  tr::print_result(o, options.markdown, "Sorted by bits 0–3", tr::joined(sorted), ok, "differs from the CPU's",
                   /*item=*/true);
  if (!consistent) tr::print_note(o, options.markdown, "some keys did not go where the ballot puts them.");
  return tr::finish(ok);
}
