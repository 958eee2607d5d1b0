// pplab trace 09: odd-even transposition sort on the handout's keys 5 1 4 2 3, through
// odd_even_phases (one block of 4 threads sorting a window of 8 slots in shared memory,
// 5 phases). `window` is the kernel's shared array; slots 5-7 are never used.
//
// The steps are the kernel's own barriers, in the order they released; each is named
// after the handout's row whose keys it left in the window, and only then. Then,
// untraced, the lab's odd_even_sort on more keys than one window holds: the rounds of
// TODO 09.5, which odd_even_phases (given) never runs.
#include <cuda_runtime.h>

#include <iostream>
#include <string>
#include <vector>

#include "odd_even_sort.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 09: odd-even transposition sort of 5 1 4 2 3");
  const std::vector<int> in{5, 1, 4, 2, 3};
  const int n = static_cast<int>(in.size());
  // The handout's rows (labs/09_odd_even_sort/README.md, "The worked example").
  const std::vector<tr::HandoutStep> handout{
      {"the window loaded (TODO 09.2)", tr::as_bits(in)},
      {"phase 0 (even): pairs (0,1) (2,3)", tr::as_bits({1, 5, 2, 4, 3})},
      {"phase 1 (odd): pairs (1,2) (3,4)", tr::as_bits({1, 2, 5, 3, 4})},
      {"phase 2 (even): pairs (0,1) (2,3)", tr::as_bits({1, 2, 3, 5, 4})},
      {"phase 3 (odd): pairs (1,2) (3,4)", tr::as_bits({1, 2, 3, 4, 5})},
      {"phase 4 (even): nothing to swap", tr::as_bits({1, 2, 3, 4, 5})},
  };

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  int* d_keys = tr::device_array<int>(n);
  // The first sort finds the window; the second is traced.
  const std::vector<int> out = tr::traced_run(tracer, tr::output_of(d_keys, n, [&] {
    cudaMemcpy(d_keys, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    pplab::lab09::odd_even_phases(d_keys, n, n);
  }));

  const std::vector<int> matched = tr::match_handout(tracer, handout);
  tr::Format format = tr::handout_format(handout, matched, "window", tr::text_of<int>,
                                          "not a row of the handout: the window holds none of its orders");
  format.what = [&](std::size_t, const tr::Step&, const tr::Write& w) {
    return "window[" + std::to_string(w.index) + "]: " +
           (tracer.unwritten(w.before) ? std::string("·") : std::to_string(tr::as<int>(w.before))) + " → " +
           std::to_string(tr::as<int>(w.after));
  };

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 09, odd-even transposition sort: keys " + tr::joined(in) +
                         ", one block of 4 threads, a window of 8 slots",
                     "Steps are your kernel's barriers as they ran, named after the handout's row they match",
                     "`window` is the block's shared array of 8 slots (5 keys used; `·` is a slot never written). "
                     "Each step is a barrier of the kernel, named after the handout's row whose keys it left."});
  tr::print_steps(o, tracer, format, options.markdown);

  const bool ok = out == tr::sorted(in);
  if (options.markdown) o << "\n";
  tr::print_missing(o, tr::handout_missing(handout, matched));
  tr::print_result(o, options.markdown, "Sorted", tr::joined(out), ok);

  // The worked example calls odd_even_phases, the given launch of one window, so the
  // rounds of windows (TODO 09.5) never run. Here odd_even_sort runs untraced on 280 keys
  // in blocks of 32 threads: windows of 64 keys, 9 rounds of up to 5 windows at offsets 0
  // and 32 in turn. The emulator watches it as it watches every check (a missing barrier
  // is a data race, a window read past the array an out-of-bounds access, and the trace
  // ends in that report); the result is compared with the CPU's sort.
  constexpr int kRoundsThreads = 32;
  std::vector<int> many(280);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int>((i * 7919) % 211) - 100;
  const int* d_many = tr::to_device(many);
  int* d_many_out = tr::device_array<int>(many.size());
  pplab::lab09::odd_even_sort(d_many, d_many_out, many.size(), kRoundsThreads);
  cudaDeviceSynchronize();
  const bool rounds_ok = tr::from_device(d_many_out, many.size()) == tr::sorted(many);
  o << (options.markdown ? "\n" : "") << "Several windows (TODOs 09.1-09.5), untraced: `odd_even_sort` of "
    << many.size() << " keys in blocks of " << kRoundsThreads << " threads (windows of " << 2 * kRoundsThreads
    << " keys, " << (many.size() + kRoundsThreads - 1) / kRoundsThreads << " rounds)"
    << (rounds_ok ? " ✓" : " ✗ (differs from the CPU's sort)") << "\n";
  return tr::finish(ok && rounds_ok);
}
