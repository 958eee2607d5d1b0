// pplab trace 10: the handout's merge path, A = 0 3 5 8 9 merged with B = 1 2 4 6 7 by five
// threads of 2 outputs each (trace_kernels.cu, from the student's merge_path and
// serial_merge). The kernel has no barrier, so the trace watches its output, the merged
// keys beside each thread's split, and takes each thread's writes as it ends. Then the
// lab's own merge_keys (the merge pass of TODO 10.5) merges the same lists.
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
  pplab::lab10::merge_keys(d_list, na, d_list + na, nb, d_out);
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
  return tr::finish(traced_ok && pass_ok);
}
