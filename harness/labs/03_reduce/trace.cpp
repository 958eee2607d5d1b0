// pplab trace 03: the lecture's "find the largest element" on the handout's example:
// 16 ints, one block of 8 threads, Max; then, untraced, a block of 128 threads, which
// enters the tree in shared memory (TODO 03.2) that 8 threads skip. The load combines in[t] and in[t + 8] into
// shared memory; an 8-thread block then finishes entirely with register shuffles
// (__shfl_down_sync, offsets 4, 2, 1), traced here as steps of their own. The steps are the
// kernel's own barriers and shuffles as they ran; each is named after the handout's step
// only where it matches it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "pplab/trace.h"
#include "reduce.cuh"

namespace tr = pplab::trace;
namespace lab = pplab::lab03;

namespace {
template <class Op>
int reduce_on_device(const int* d_in, int* d_out, int n, Op op, int threads) {
  lab::reduce(d_in, d_out, static_cast<std::size_t>(n), op, threads);
  cudaDeviceSynchronize();
  return tr::from_device(d_out, 1)[0];
}
}  // namespace

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 03: reduce (max), 8 threads, 16 elements");
  constexpr int kThreads = 8;
  const std::vector<int> in{5, 17, 3, 8, 12, 1, 9, 4, 6, 2, 14, 11, 7, 20, 0, 10};
  const int n = static_cast<int>(in.size());

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  tr::set_pointer_bytes(kThreads * sizeof(int));  // block_reduce sees `shared` as a pointer
  // The input is not 16-byte aligned, so the launcher takes the main kernel (TODOs
  // 03.1-03.3), not the stretch kernel's vector loads.
  const int* d_in = tr::to_device_unaligned(in);
  int* d_out = tr::device_array<int>(1);
  const int result = tr::traced_run(tracer, [&] { return reduce_on_device(d_in, d_out, n, lab::Max<int>{}, kThreads); });
  const int minimum = reduce_on_device(d_in, d_out, n, lab::Min<int>{}, kThreads);
  const int sum = reduce_on_device(d_in, d_out, n, lab::Sum<int>{}, kThreads);

  // The handout's values after each of its steps (its tables): the load keeps the larger
  // of in[t] and in[t + 8] (TODO 03.1), then each level of the tree, stride 4, 2, 1, halves
  // them. A level is a barrier's step where the kernel does it in `shared` (TODO 03.2), a
  // shuffle's where it does it in registers (TODO 03.3: for 8 threads, every level).
  // A step of the student's kernel is named and explained after the handout only where
  // it left the handout's values, or its lanes handed in and got back the handout's.
  const std::vector<std::vector<int>> handout_values{{6, 17, 14, 11, 12, 20, 9, 10}, {12, 20, 14, 11}, {14, 20}, {20}};
  auto bits = [](const std::vector<int>& values, std::size_t from, std::size_t count) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = from; i < from + count; ++i) out.push_back(static_cast<std::uint32_t>(values[i]));
    return out;
  };
  auto stride_of = [&](int j) { return kThreads >> j; };  // handout step j >= 1 is the level of this stride
  std::vector<tr::HandoutStep> handout{{"first add during load (TODO 03.1)", bits(handout_values[0], 0, kThreads)}};
  for (int j = 1; j < static_cast<int>(handout_values.size()); ++j) {
    const std::size_t stride = static_cast<std::size_t>(stride_of(j));
    const std::vector<int>& before = handout_values[j - 1];
    handout.push_back({"the tree, stride " + std::to_string(stride), bits(handout_values[j], 0, stride),
                       bits(before, 0, stride), bits(before, stride, stride)});  // lane t gets lane t + stride's
  }
  const auto& steps = tracer.steps();
  std::vector<int> matched = tr::match_handout(tracer, handout);
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (!steps[k].lanes.empty() && matched[k] == 0) matched[k] = -1;  // the load is a store, never a shuffle

  // A lane's `value` after exchange step k: what it hands to the next exchange, or, after
  // the last one, thread 0's result.
  auto value_after = [&](std::size_t k, int thread, bool& known) -> int {
    known = true;
    for (std::size_t next = k + 1; next < steps.size(); ++next) {
      if (steps[next].lanes.empty()) continue;
      if (const tr::Lane* l = steps[next].lane(thread)) return tr::as<int>(l->sent);
      break;
    }
    bool later = false;
    for (std::size_t next = k + 1; next < steps.size(); ++next) later = later || !steps[next].lanes.empty();
    if (!later && thread == 0) return result;
    known = false;
    return 0;
  };
  auto max_text = [](int a, int b, int c) {
    return "max(" + std::to_string(a) + ", " + std::to_string(b) + ") = " + std::to_string(c);
  };
  bool consistent = true;

  tr::Format format;
  format.value = tr::text_of<int>;
  format.row_heading = "values afterwards (`shared[0…7]`, then the lanes' `value`)";
  format.title = [&](std::size_t k, const tr::Step& s) -> std::string {
    const int j = matched[k];
    if (j < 0)
      return s.lanes.empty() ? "not a step of the handout: `shared` holds none of its rows"
                             : "not a step of the handout: the lanes hand in and get back none of its levels";
    if (j == 0) return "first add during load, into `shared` (TODO 03.1)";
    const std::string stride = std::to_string(stride_of(j));
    if (!s.lanes.empty()) return "warp finish, offset " + stride + " (TODO 03.3)";
    return "the tree in shared memory, stride " + stride + " (TODO 03.2: the handout's 8 threads shuffle instead)";
  };
  format.what = [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
    const int j = matched[k], after = tr::as<int>(w.after);
    const std::string plain = "shared[" + std::to_string(w.index) + "] = " + std::to_string(after);
    if (j < 0) {  // not the handout's step: no story
      consistent = false;
      return plain;
    }
    if (j == 0) {  // thread t stores the larger of in[t] and in[t + 8] in shared[t]
      const int t = w.thread;
      if (t < 0 || t >= kThreads || w.index != static_cast<std::size_t>(t)) {
        consistent = false;
        return plain;
      }
      const int a = in[t], b = t + kThreads < n ? in[t + kThreads] : a;
      if (std::max(a, b) != after) consistent = false;
      return max_text(a, b, after);
    }
    const std::size_t partner = w.index + static_cast<std::size_t>(stride_of(j));
    const int a = tr::as<int>(tracer.value(s.before, w.index)), b = tr::as<int>(tracer.value(s.before, partner));
    if (partner >= tracer.size() || std::max(a, b) != after) consistent = false;
    return max_text(a, b, after);
  };
  format.lane = [&](std::size_t k, const tr::Step&, const tr::Lane& l) -> std::string {
    const int j = matched[k], sent = tr::as<int>(l.sent), got = tr::as<int>(l.received);
    if (j < 1) {  // not the handout's step: no story
      consistent = false;
      return "sends " + std::to_string(sent) + ", gets " + std::to_string(got);
    }
    if (l.thread >= stride_of(j)) return "";  // reads past the active half: not needed
    bool known = false;
    const int after = value_after(k, l.thread, known);
    if (!known) return "gets " + std::to_string(got);
    if (std::max(sent, got) != after) consistent = false;
    return max_text(sent, got, after);
  };
  format.exchange_row = [&](std::size_t k, const tr::Step& s) -> std::string {
    const int j = matched[k];
    const int live = j >= 1 ? stride_of(j) : kThreads;  // the lanes whose values the tree still needs
    std::string text;
    for (int t = 0; t < kThreads; ++t) {
      bool known = false;
      const int v = value_after(k, t, known);
      const bool active = t < live && known && s.lane(t);
      std::string cell = active ? std::to_string(v) : "·";
      if (active && live == 1) cell = "<b>" + cell + "</b>";
      text += (t ? " " : "") + cell;
    }
    return options.markdown ? "<code>" + text + "</code>" : text;
  };

  std::ostream& out = std::cout;
  std::vector<std::string> values;
  for (int v : in) values.push_back(std::to_string(v));
  if (!options.markdown)
    tr::print_heading(out, "Lab 03, reduce with Max: " + std::to_string(kThreads) + " threads per block, " +
                               std::to_string(n) + " elements",
                      options.kernel_file);
  tr::print_arrays(out, options.markdown, {{"in", values}});
  out << "\n";
  tr::print_steps(out, tracer, format, options.markdown);
  tr::print_missing(out, tr::handout_missing(handout, matched), options.markdown ? "\n" : "");

  // The CPU's max, min and sum of `values`.
  struct Answers {
    int max, min, sum;
  };
  const auto cpu_answers = [](const std::vector<int>& values) {
    Answers a{values[0], values[0], 0};
    for (int v : values) a.max = std::max(a.max, v), a.min = std::min(a.min, v), a.sum += v;
    return a;
  };
  const Answers expected = cpu_answers(in);
  const int expected_max = expected.max, expected_min = expected.min, expected_sum = expected.sum;
  const bool ok = result == expected_max && minimum == expected_min && sum == expected_sum;
  const char* bullet = options.markdown ? "\n- " : "";
  out << bullet << (options.markdown ? "Thread 0 writes **max = " : "Result: thread 0 writes max = ") << result
      << (options.markdown ? "**" : "") << (result == expected_max ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  out << (options.markdown ? "- " : "") << "The same kernel with `Min` gives " << minimum << ", with `Sum` " << sum
      << (minimum == expected_min && sum == expected_sum ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  if (!consistent) tr::print_note(out, options.markdown, "some steps did not follow the tree's pattern.");

  // A block of 8 threads finishes with shuffles alone, so the worked example never runs
  // the tree in shared memory (TODO 03.2 stops at a warp's worth of values). The same
  // kernel on a block of 128 threads does: two levels, strides 64 and 32 (so a missing
  // barrier between them shows), then the warp finish. Its
  // steps are not printed; the emulator watches it as it watches every check (a missing
  // barrier is a data race, a barrier inside the if a divergence, and the trace ends in
  // that report), and its answers are compared with the CPU's.
  constexpr int kTreeThreads = 128;
  std::vector<int> tree_in(2 * kTreeThreads);
  for (std::size_t i = 0; i < tree_in.size(); ++i) tree_in[i] = static_cast<int>((i * 37) % 101) - 50;
  const int* d_tree_in = tr::to_device_unaligned(tree_in);
  const int tree_n = static_cast<int>(tree_in.size());
  const int tree_max = reduce_on_device(d_tree_in, d_out, tree_n, lab::Max<int>{}, kTreeThreads);
  const int tree_min = reduce_on_device(d_tree_in, d_out, tree_n, lab::Min<int>{}, kTreeThreads);
  const int tree_sum = reduce_on_device(d_tree_in, d_out, tree_n, lab::Sum<int>{}, kTreeThreads);
  const Answers want = cpu_answers(tree_in);
  const int want_max = want.max, want_min = want.min, want_sum = want.sum;
  const bool tree_ok = tree_max == want_max && tree_min == want_min && tree_sum == want_sum;
  out << (options.markdown ? "- " : "") << "The tree in shared memory (TODO 03.2), on a block of " << kTreeThreads
      << " threads and " << tree_n << " values: max " << tree_max << ", min " << tree_min << ", sum " << tree_sum
      << (tree_ok ? " ✓" : " ✗ (the CPU's: max " + std::to_string(want_max) + ", min " + std::to_string(want_min) +
                               ", sum " + std::to_string(want_sum) + ")")
      << "\n";
  return tr::finish(ok && tree_ok);
}
