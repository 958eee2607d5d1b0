// pplab trace 03: the lecture's "find the largest element" on the handout's example:
// 16 ints, one block of 8 threads, Max. The load combines in[t] and in[t + 8] into
// shared memory; an 8-thread block then finishes entirely with register shuffles
// (__shfl_down_sync, offsets 4, 2, 1), traced here as steps of their own.
#include <cuda_runtime.h>

#include <algorithm>
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
  int result = 0;
  cudaMemcpy(&result, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  return result;
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
  // The input starts one element into its buffer: not 16-byte aligned, so the launcher
  // takes the main kernel (TODOs 03.1-03.3), not the stretch kernel's vector loads.
  int *d_buffer = nullptr, *d_out = nullptr;
  cudaMalloc(&d_buffer, (n + 1) * sizeof(int));
  cudaMalloc(&d_out, sizeof(int));
  int* d_in = d_buffer + 1;
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reduce_on_device(d_in, d_out, n, lab::Max<int>{}, kThreads);  // finds the shared array
  tracer.rearm();
  const int result = reduce_on_device(d_in, d_out, n, lab::Max<int>{}, kThreads);  // the traced run
  tracer.end_launch();
  tracer.stop();
  const int minimum = reduce_on_device(d_in, d_out, n, lab::Min<int>{}, kThreads);
  const int sum = reduce_on_device(d_in, d_out, n, lab::Sum<int>{}, kThreads);

  // The exchange steps in order: the warp finish's levels.
  const auto& steps = tracer.steps();
  std::vector<std::size_t> levels;
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (!steps[k].lanes.empty()) levels.push_back(k);
  auto level_of = [&](std::size_t k) {
    for (std::size_t j = 0; j < levels.size(); ++j)
      if (levels[j] == k) return static_cast<int>(j);
    return -1;
  };
  auto offset_of = [&](std::size_t k) { return (kThreads / 2) >> level_of(k); };
  // A lane's `value` after level j's max: what it hands to level j + 1, or the result.
  auto value_after = [&](std::size_t k, int thread, bool& known) -> int {
    const int j = level_of(k);
    known = true;
    if (j + 1 < static_cast<int>(levels.size())) {
      if (const tr::Lane* next = steps[levels[j + 1]].lane(thread)) return tr::as<int>(next->sent);
    } else if (thread == 0) {
      return result;
    }
    known = false;
    return 0;
  };
  auto max_text = [](int a, int b, int c) {
    return "max(" + std::to_string(a) + ", " + std::to_string(b) + ") = " + std::to_string(c);
  };
  bool consistent = true;

  tr::Format format;
  format.value = [](std::uint64_t bits) { return std::to_string(tr::as<int>(bits)); };
  format.row_heading = "values afterwards (`shared[0…7]`, then the lanes' `value`)";
  format.title = [&](std::size_t k, const tr::Step& s) -> std::string {
    if (s.lanes.empty()) return k == 0 ? "first add during load, into `shared`" : "after the load";
    return "warp finish, offset " + std::to_string(offset_of(k));
  };
  format.what = [&](std::size_t, const tr::Step&, const tr::Write& w) -> std::string {
    const int t = w.thread, after = tr::as<int>(w.after);
    if (t < 0 || t + kThreads >= n + kThreads) return "shared[" + std::to_string(w.index) + "] = " + std::to_string(after);
    const int a = in[t], b = t + kThreads < n ? in[t + kThreads] : a;
    if (std::max(a, b) != after) consistent = false;
    return max_text(a, b, after);
  };
  format.lane = [&](std::size_t k, const tr::Step&, const tr::Lane& l) -> std::string {
    if (l.thread >= offset_of(k)) return "";  // reads past the active half: not needed
    bool known = false;
    const int sent = tr::as<int>(l.sent), got = tr::as<int>(l.received);
    const int after = value_after(k, l.thread, known);
    if (!known) return "gets " + std::to_string(got);
    if (std::max(sent, got) != after) consistent = false;
    return max_text(sent, got, after);
  };
  format.exchange_row = [&](std::size_t k, const tr::Step&) -> std::string {
    std::string text;
    for (int t = 0; t < kThreads; ++t) {
      bool known = false;
      const int v = value_after(k, t, known);
      const bool active = t < offset_of(k) && known;
      std::string cell = active ? std::to_string(v) : "·";
      if (active && offset_of(k) == 1) cell = "<b>" + cell + "</b>";
      text += (t ? " " : "") + cell;
    }
    return options.markdown ? "<code>" + text + "</code>" : text;
  };

  std::ostream& out = std::cout;
  std::vector<std::string> values;
  for (int v : in) values.push_back(std::to_string(v));
  if (options.markdown) {
    tr::print_index_row(out, n);
    tr::print_array(out, true, "in", values);
    out << "\n";
  } else {
    tr::print_heading(out, "Lab 03, reduce with Max: " + std::to_string(kThreads) + " threads per block, " +
                               std::to_string(n) + " elements",
                      PPLAB_TRACE_SOURCE);
    tr::print_array(out, false, "in", values);
    out << "\n";
  }
  tr::print_steps(out, tracer, format, options.markdown);

  int expected_max = in[0], expected_min = in[0], expected_sum = 0;
  for (int v : in) expected_max = std::max(expected_max, v), expected_min = std::min(expected_min, v), expected_sum += v;
  const bool ok = result == expected_max && minimum == expected_min && sum == expected_sum;
  const char* bullet = options.markdown ? "\n- " : "";
  out << bullet << (options.markdown ? "Thread 0 writes **max = " : "Result: thread 0 writes max = ") << result
      << (options.markdown ? "**" : "") << (result == expected_max ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  out << (options.markdown ? "- " : "") << "The same kernel with `Min` gives " << minimum << ", with `Sum` " << sum
      << (minimum == expected_min && sum == expected_sum ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  if (!consistent)
    out << (options.markdown ? "\n" : "") << "Note: some steps did not follow the tree's pattern.\n";
  return ok ? 0 : 1;
}
