// pplab trace 07: compaction on the lecture's example, keep x > 50 of 20 60 51 10 49,
// with the three kernels: flag_kernel (a map), scan_tile_kernel (the exclusive scan of
// the flags, Hillis-Steele in shared memory; traced step by step) and scatter_kernel.
// The scan runs in a block of 256 threads; the table shows the first 5 slots.
#include <cuda_runtime.h>

#include <iostream>
#include <string>
#include <vector>

#include "compact.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;
namespace lab = pplab::lab07;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 07: compact, keep x > 50 of 20 60 51 10 49");
  const std::vector<int> in{20, 60, 51, 10, 49};
  const int threshold = 50;
  const int n = static_cast<int>(in.size());

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(unsigned));
  const std::size_t temp_bytes = lab::compact_temp_bytes(n);
  const int* d_in = tr::to_device(in);
  int* d_out = tr::device_array<int>(n);
  unsigned* d_count = tr::device_array<unsigned>(1);
  unsigned char* d_temp = tr::device_array<unsigned char>(temp_bytes);
  // The first run finds the scan's shared array; the second, on a poisoned out, is traced.
  const std::vector<int> out = tr::traced_run(tracer, tr::output_of(d_out, n, [&] {
    cudaMemset(d_out, 0xff, n * sizeof(int));  // -1: an output slot never written
    lab::compact_async(d_in, d_out, d_count, n, threshold, d_temp, temp_bytes, lab::CompactPath::three_kernels);
  }));
  const unsigned count = tr::from_device(d_count, 1)[0];
  // The scan's temporary storage starts with the flags' exclusive scan.
  const std::vector<unsigned> positions = tr::from_device(reinterpret_cast<const unsigned*>(d_temp), n);

  // The scan's steps: 0 the load of the flags; then per offset 1, 2, 4, ... a barrier
  // after the reads (odd steps) and one after the writes (even steps).
  auto offset_of = [](std::size_t k) { return 1u << ((k - 2) / 2); };
  const auto& steps = tracer.steps();
  std::vector<std::string> flags(n, "?");
  if (!steps.empty())
    for (int i = 0; i < n; ++i) flags[i] = std::to_string(tr::as<unsigned>(tracer.value(steps[0].after, i)));
  bool consistent = true;

  tr::Format format;
  for (int i = 0; i < n; ++i) format.shown.push_back(static_cast<std::size_t>(i));
  format.value = tr::text_of<unsigned>;
  format.show = [&](std::size_t, const tr::Step& s) {
    for (const tr::Write& w : s.writes)
      if (w.index < static_cast<std::size_t>(n)) return true;
    return false;  // levels that change nothing in the shown slots
  };
  auto label = [&](std::size_t k) -> std::string {
    if (k == 0) return "scan_tile_kernel loads the flags";
    if (k % 2 == 0) return "offset " + std::to_string(offset_of(k)) + ": add `shared[t - " +
                           std::to_string(offset_of(k)) + "]`";
    return "offset " + std::to_string(1u << ((k - 1) / 2)) + ", after the reads";
  };
  // The handout's flags 0 1 1 0 0 (slots 0-4) after each step of the reference's scan:
  // the load, then per offset 1, 2, ..., 128 (256 threads) the reads and the adds. A step
  // of the kernel is named and explained as handout step j only where it left those slots.
  std::vector<tr::HandoutStep> handout;
  for (std::size_t k = 0; k <= 16; ++k) {
    const std::vector<std::uint64_t> slots = k < 2 ? std::vector<std::uint64_t>{0, 1, 1, 0, 0}
                                             : k < 4 ? std::vector<std::uint64_t>{0, 1, 2, 1, 0}
                                                     : std::vector<std::uint64_t>{0, 1, 2, 2, 2};
    handout.push_back({label(k), slots});
  }
  const std::vector<int> matched = tr::match_handout(tracer, handout);
  format.title = tr::handout_titles(handout, matched, "not a step of the handout: slots 0-4 are none of its rows");
  format.what = tr::explained_by_handout(
      format, matched, consistent, [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
        const unsigned after = tr::as<unsigned>(w.after);
        if (k == 0 && w.index < in.size()) {
          const int x = in[w.index];
          if ((x > threshold ? 1u : 0u) != after) consistent = false;
          return std::to_string(x) + (x > threshold ? " > " : " ≤ ") + std::to_string(threshold) + ": " +
                 std::to_string(after);
        }
        const unsigned own = tr::as<unsigned>(tracer.value(s.before, w.index));
        const unsigned add =  // (a kernel with other barriers than the reference's may not fit the pattern)
            w.index >= offset_of(k) ? tr::as<unsigned>(tracer.value(s.before, w.index - offset_of(k))) : 0u;
        if (own + add != after) consistent = false;
        return std::to_string(own) + " + " + std::to_string(add) + " = " + std::to_string(after);
      });

  std::vector<std::string> in_text, scan_text, scatter_text;
  std::vector<int> want;
  bool ok = true;
  unsigned kept = 0;
  for (int i = 0; i < n; ++i) {
    in_text.push_back(std::to_string(in[i]));
    scan_text.push_back(std::to_string(positions[i]));
    ok = ok && positions[i] == kept;
    if (in[i] > threshold) {
      scatter_text.push_back("out[" + std::to_string(positions[i]) + "] = " + std::to_string(in[i]));
      want.push_back(in[i]);
      ++kept;
    } else {
      scatter_text.push_back(options.markdown ? " " : "-");
    }
  }
  ok = ok && count == kept;
  std::string result;
  for (unsigned j = 0; j < count && j < static_cast<unsigned>(n); ++j) {
    result += (result.empty() ? "" : " ") + std::to_string(out[j]);
    ok = ok && out[j] == want[j];
  }

  std::ostream& o = std::cout;
  if (options.markdown) {
    tr::print_index_row(o, n);
    tr::print_array(o, true, "in", in_text);
    tr::print_array(o, true, "step 1, `flag_kernel`: `in[i] > " + std::to_string(threshold) + "`", flags);
    tr::print_array(o, true, "step 2, `scan_tile_kernel`: exclusive scan", scan_text);
    tr::print_array(o, true, "step 3, `scatter_kernel`", scatter_text);
    o << "\nInside step 2, the tile's Hillis–Steele scan in shared memory (the inclusive scan; each thread "
         "then subtracts its own flag):\n\n";
  } else {
    tr::print_heading(o, "Lab 07, compaction: keep x > " + std::to_string(threshold), options.kernel_file);
    tr::print_array(o, false, "in", in_text);
    tr::print_array(o, false, "step 1, flag_kernel: flags", flags);
    tr::print_array(o, false, "step 2, scan_tile_kernel: exclusive scan", scan_text);
    tr::print_array(o, false, "step 3, scatter_kernel", scatter_text);
    o << "\nInside step 2 (256 threads; slots 0-" << n - 1 << " shown):\n\n";
  }
  tr::print_steps(o, tracer, format, options.markdown);
  if (options.markdown) o << "\n";
  tr::print_result(o, options.markdown, "Result", "out = " + result + ", k = " + std::to_string(count), ok,
                   "differs from the CPU's", /*item=*/true);
  if (!consistent) tr::print_note(o, options.markdown, "some steps did not follow the scan's pattern.");
  return tr::finish(ok);
}
