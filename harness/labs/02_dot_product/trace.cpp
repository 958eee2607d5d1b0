// pplab trace 02: the dot product's tree reduction on the seed's worked example
// (TPB = 8 threads, SIZE = 8 elements, a = 1..8, b = 2 1 2 1 ...; the sum is 52).
// Compiled with the lab's kernel file for the CPU emulator; see pplab/trace.h.
#include <cuda_runtime.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "dot_product.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 02: the dot product, 8 threads, 8 elements");
  constexpr int kThreads = 8, kSize = 8;
  const std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8}, b{2, 1, 2, 1, 2, 1, 2, 1};

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(float));
  const float* d_a = tr::to_device(a);
  const float* d_b = tr::to_device(b);
  float* d_result = tr::device_array<float>(1);
  const float result = tr::traced_once(tracer, tr::output_of(d_result, 1, [&] {
    pplab::lab02::dot_product(d_a, d_b, d_result, kSize, kThreads);
  }))[0];

  // Step 0 is the products; step k >= 1 is the tree level with stride TPB >> k.
  auto stride_of = [&](std::size_t step) { return kThreads >> step; };
  bool consistent = true;
  auto label = [&](std::size_t k) -> std::string {
    if (k == 0) return "products into shared memory";
    if (stride_of(k) >= 1) return "the tree, stride " + std::to_string(stride_of(k));
    return "after the tree";
  };
  // The handout's shared array after each of its steps (the seed's tables). A step of the
  // kernel is named and explained as handout step j only where it left exactly that array.
  const std::vector<std::vector<float>> handout_arrays{{2, 2, 6, 4, 10, 6, 14, 8},
                                                       {12, 8, 20, 12, 10, 6, 14, 8},
                                                       {32, 20, 20, 12, 10, 6, 14, 8},
                                                       {52, 20, 20, 12, 10, 6, 14, 8}};
  const std::vector<tr::HandoutStep> handout = tr::handout_steps(handout_arrays, label);
  const std::vector<int> matched = tr::match_handout(tracer, handout);
  tr::Format format = tr::handout_format(handout, matched, "shared", tr::text_of<float>,
                                          "not a step of the handout: shared is none of its rows");
  format.what = tr::explained_by_handout(
      format, matched, consistent, [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
        const float after = tr::as<float>(w.after);
        if (k == 0) {
          const std::size_t i = w.index;  // one block: the thread's global index is its slot
          if (i < a.size() && a[i] * b[i] == after)
            return tr::number(a[i]) + "×" + tr::number(b[i]) + " = " + tr::number(after);
          consistent = false;
          return "shared[" + std::to_string(i) + "] = " + tr::number(after);
        }
        const float before = tr::as<float>(w.before);
        const std::size_t partner = w.index + stride_of(k);
        const float added = partner < tracer.size() ? tr::as<float>(tracer.value(s.before, partner)) : after - before;
        if (before + added != after) consistent = false;
        return tr::number(before) + " + " + tr::number(added) + " = " + tr::number(after);
      });

  std::vector<std::string> av, bv;
  for (int i = 0; i < kSize; ++i) av.push_back(tr::number(a[i])), bv.push_back(tr::number(b[i]));
  std::ostream& out = std::cout;
  if (!options.markdown) {
    tr::print_heading(out, "Lab 02, the dot product: " + std::to_string(kThreads) + " threads per block, " +
                               std::to_string(kSize) + " elements",
                      options.kernel_file);
    out << "Step 0: the inputs\n";
  }
  tr::print_arrays(out, options.markdown, {{"a", av}, {"b", bv}});
  out << "\n";
  tr::print_steps(out, tracer, format, options.markdown);
  tr::print_missing(out, tr::handout_missing(handout, matched), options.markdown ? "\n" : "");

  double expected = 0;
  std::string terms;
  for (int i = 0; i < kSize; ++i) {
    expected += double(a[i]) * b[i];
    terms += (i ? " + " : "") + tr::number(a[i]) + "×" + tr::number(b[i]);
  }
  const bool ok = result == expected;
  if (options.markdown) out << "\n- ";
  out << (options.markdown ? "Thread 0 adds `shared[0]` to `*result` with `atomicAdd`: **result = " : "Result: thread 0 adds shared[0] to *result with atomicAdd: result = ")
      << tr::number(result) << (options.markdown ? "**" : "") << "\n";
  if (options.markdown) out << "- ";
  out << "Check: " << terms << " = " << tr::number(expected) << (ok ? " ✓" : " ✗ (the kernel's result differs)") << "\n";
  if (!consistent)
    tr::print_note(out, options.markdown, "some steps did not follow the tree's pattern (this kernel is not the reference's tree).");
  return tr::finish(ok);
}
