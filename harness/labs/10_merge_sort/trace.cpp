// pplab trace 10: the handout's merge path, A = 0 3 5 8 9 merged with B = 1 2 4 6 7 by five
// threads of 2 outputs each (trace_kernels.cu, from the student's merge_path and
// serial_merge). The kernel has no barrier, so the trace watches its output, the merged
// keys beside each thread's split, and takes each thread's writes as it ends. Then the
// lab's own merge_keys (the merge pass of TODO 10.5) merges the same lists, and, untraced,
// sort_keys and sort_pairs sort two block-sort tiles: the block sort (TODOs 10.3, 10.4)
// and the passes (TODO 10.6), which the merge alone never runs.
#include <cuda_runtime.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "merge_sort.cuh"
#include "pplab/trace.h"

namespace pplab::lab10 {
void trace_merge(const int* d_list, int a_count, int b_count, int* d_shown);  // trace_kernels.cu
}

namespace tr = pplab::trace;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 10: the merge path of 0 3 5 8 9 and 1 2 4 6 7");
  const std::vector<int> a{0, 3, 5, 8, 9}, b{1, 2, 4, 6, 7};
  std::vector<int> list = a;
  list.insert(list.end(), b.begin(), b.end());
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size()), n = na + nb;
  constexpr int kShown = 16;  // 10 keys, a gap, 5 splits
  const std::vector<int> handout_splits{0, 1, 2, 3, 3};  // the handout's table: (0,0) (1,1) (2,2) (3,3) (3,5)
  std::vector<int> merged = list;
  std::stable_sort(merged.begin(), merged.end());

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  const int* d_list = tr::to_device(list);
  int* d_shown = tr::unwritten_device_array<int>(kShown);
  int* d_out = tr::unwritten_device_array<int>(n);
  tracer.watch(d_shown, kShown * sizeof(int));
  const std::vector<int> shown = tr::traced_once(tracer, tr::output_of(d_shown, kShown, [&] {
    pplab::lab10::trace_merge(d_list, na, nb, d_shown);
  }));
  // The lab's own merge pass on the same lists (not traced: one thread writes all ten).
  // The main step's kernel, asked for by name: a finished stretch would otherwise take its place.
  pplab::lab10::merge_keys(d_list, na, d_list + na, nb, d_out, 0, pplab::lab10::MergeKernel::global);
  cudaDeviceSynchronize();
  const std::vector<int> out = tr::from_device(d_out, n);

  std::vector<tr::HandoutStep> handout{{"each thread's split (TODO 10.1) and 2 keys merged from it (TODO 10.2)", {}}};
  for (int i = 0; i < kShown; ++i) {
    const int v = i < n ? merged[i] : i >= 11 ? handout_splits[i - 11] : -1;
    handout[0].after.push_back(static_cast<std::uint32_t>(v));
  }
  const std::vector<int> matched = tr::match_handout(tracer, handout);

  tr::Format format = tr::handout_format(handout, matched, "shown", tr::text_of<int>,
                                          "not the handout's merge (see the splits and keys below)");
  for (int i = 0; i < n; ++i) format.shown.push_back(i);
  for (int i = 11; i < kShown; ++i) format.shown.push_back(i);
  format.row_heading = "merged keys ‖ split i of T0 … T4";
  format.what = [&](std::size_t, const tr::Step&, const tr::Write& w) -> std::string {
    const int v = tr::as<int>(w.after);
    if (w.index >= 11) {
      const int t = static_cast<int>(w.index) - 11, d = 2 * t;
      return "diagonal " + std::to_string(d) + ": split (" + std::to_string(v) + ", " + std::to_string(d - v) + ")" +
             (t < static_cast<int>(handout_splits.size()) && v != handout_splits[t]
                  ? " (the handout's: " + std::to_string(handout_splits[t]) + ")"
                  : "");
    }
    return "out[" + std::to_string(w.index) + "] = " + std::to_string(v);
  };

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 10, the merge path: A = " + tr::joined(a) + ", B = " + tr::joined(b) +
                         ", five threads of 2 outputs each",
                     "shown: the merged keys ‖ each thread's split i (it takes i keys of A and 2t − i of B first)",
                     "Five threads, 2 outputs each: thread t searches diagonal 2t with `merge_path`, then merges 2 "
                     "keys from its split with `serial_merge`. `·` is a slot never written."});
  tr::print_steps(o, tracer, format, options.markdown);

  std::vector<int> keys(shown.begin(), shown.begin() + n);
  const bool traced_ok = keys == merged;
  const bool pass_ok = out == merged;
  if (options.markdown) o << "\n";
  tr::print_missing(o, tr::handout_missing(handout, matched));
  tr::print_result(o, options.markdown, "Merged by the five threads", tr::joined_written(keys, tracer), traced_ok, "differs from the CPU's",
                   /*item=*/true);
  tr::print_result(o, options.markdown, "merge_keys, the lab's merge pass (TODO 10.5)", tr::joined_written(out, tracer), pass_ok,
                   "differs from the CPU's", /*item=*/true);

  // The merge alone never runs the block sort (TODOs 10.3, 10.4) nor the passes (10.6).
  // Here they run untraced with the block sort of 512 threads (the T4's, which every
  // device runs: 17 keys a thread sorted in registers, then merged inside the block 9
  // times) and TODO 10.5's merge kernel: sort_keys on two block-sort tiles (one merge
  // pass, so the block sort writes the scratch array first) and sort_pairs on three (two
  // passes, so it writes the output first). The emulator watches them as it watches every
  // check (a missing barrier is a data race, and the trace ends in that report); the
  // results are compared with the CPU's stable sort.
  namespace lab = pplab::lab10;
  constexpr std::size_t kSortTile = lab::kSmallSortTileItems;
  auto keys_to_sort = [](std::size_t n) {
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>((i * 7919) % 1009) - 500;  // each about n / 1009 times
    return keys;
  };
  auto passes_of = [&](std::size_t n) {  // runs of one tile, two, four, ... until one run
    int passes = 0;
    while ((kSortTile << passes) < n) ++passes;
    return passes;
  };

  const std::vector<int> keys_in = keys_to_sort(kSortTile + 1000);
  int* d_keys_sorted = tr::device_array<int>(keys_in.size());
  lab::sort_keys(tr::to_device(keys_in), d_keys_sorted, keys_in.size(), 0, lab::MergeKernel::global,
                 lab::SortTile::small);
  cudaDeviceSynchronize();
  const bool keys_ok = tr::from_device(d_keys_sorted, keys_in.size()) == tr::sorted(keys_in);

  const std::vector<int> pair_keys_in = keys_to_sort(2 * kSortTile + 1000);
  const std::size_t pairs_n = pair_keys_in.size();
  std::vector<std::uint32_t> positions(pairs_n);
  for (std::size_t i = 0; i < pairs_n; ++i) positions[i] = static_cast<std::uint32_t>(i);
  int* d_pair_keys = tr::device_array<int>(pairs_n);
  std::uint32_t* d_pair_values = tr::device_array<std::uint32_t>(pairs_n);
  lab::sort_pairs(tr::to_device(pair_keys_in), tr::to_device(positions), d_pair_keys, d_pair_values, pairs_n, 0,
                  lab::MergeKernel::global, lab::SortTile::small);
  cudaDeviceSynchronize();
  std::vector<std::uint32_t> want_values = positions;  // equal keys keep their input order
  std::stable_sort(want_values.begin(), want_values.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return pair_keys_in[x] < pair_keys_in[y]; });
  const bool pairs_ok = tr::from_device(d_pair_keys, pairs_n) == tr::sorted(pair_keys_in) &&
                        tr::from_device(d_pair_values, pairs_n) == want_values;

  const std::string wrong = !keys_ok && !pairs_ok ? "both sorts" : !keys_ok ? "sort_keys" : "sort_pairs";
  o << (options.markdown ? "- " : "") << "The whole sort (TODOs 10.3-10.6), untraced: `sort_keys` of "
    << keys_in.size() << " keys (2 block-sort tiles of " << kSortTile << ", " << passes_of(keys_in.size())
    << " merge pass) and `sort_pairs` of " << pairs_n << " (3 tiles, " << passes_of(pairs_n) << " merge passes)"
    << (keys_ok && pairs_ok ? " ✓" : " ✗ (" + wrong + " differs from the CPU's stable sort)") << "\n";
  return tr::finish(traced_ok && pass_ok && keys_ok && pairs_ok);
}
