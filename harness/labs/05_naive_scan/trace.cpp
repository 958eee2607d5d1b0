// pplab trace 05: the Hillis–Steele scan on the handout's example A B C D E
// (1, 10, 100, 1000, 10000: each digit of a sum says which letters it holds), one
// block of 8 threads. The kernel keeps two copies of the tile, buffer[0] and
// buffer[1]: every step reads one and writes the other. Then, untraced, both scans of an
// input of many tiles, which the one-tile example never is: the tiles' totals (TODO 05.3)
// scanned in turn and added back (TODO 05.4).
#include <cuda_runtime.h>

#include <iostream>
#include <string>
#include <vector>

#include "naive_scan.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 05: the naive scan, 8 threads, A B C D E");
  constexpr int kThreads = 8;
  const std::vector<int> in{1, 10, 100, 1000, 10000};
  const int n = static_cast<int>(in.size());

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  int* d_in = tr::to_device(in);
  int* d_out = tr::device_array<int>(n);
  // The first scan finds the buffer; the second is traced.
  const std::vector<int> out = tr::traced_run(tracer, tr::output_of(d_out, n, [&] {
    pplab::lab05::inclusive_scan(d_in, d_out, n, kThreads);
  }));

  auto as_int = [](std::uint64_t bits) { return tr::as<int>(bits); };
  // The handout's buffer[0] ‖ buffer[1] after each of its steps (-1: not yet written).
  // A step of the kernel is named and explained as handout step j only where it left
  // exactly that buffer.
  const std::vector<std::vector<int>> handout_buffers{
      {1, 10, 100, 1000, 10000, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1},
      {1, 10, 100, 1000, 10000, 0, 0, 0, 1, 11, 110, 1100, 11000, 10000, 0, 0},
      {1, 11, 111, 1111, 11110, 11100, 11000, 10000, 1, 11, 110, 1100, 11000, 10000, 0, 0},
      {1, 11, 111, 1111, 11110, 11100, 11000, 10000, 1, 11, 111, 1111, 11111, 11111, 11111, 11111}};
  auto label = [&](std::size_t k) -> std::string {
    if (k == 0) return "load into buffer[0]";
    const int offset = 1 << (k - 1);
    if (offset >= kThreads) return "write out";
    return "offset " + std::to_string(offset) + ": buffer[" + std::to_string((k - 1) % 2) + "] → buffer[" +
           std::to_string(k % 2) + "]";
  };
  const std::vector<tr::HandoutStep> handout = tr::handout_steps(handout_buffers, label);
  const std::vector<int> matched = tr::match_handout(tracer, handout);

  tr::Format format = tr::handout_format(handout, matched, "buffer", tr::text_of<int>,
                                          "not a step of the handout: the buffers are none of its rows");
  format.row_break = kThreads;
  format.what = [&](std::size_t step, const tr::Step& s, const tr::Write& w) -> std::string {
    const int value = as_int(w.after);
    const std::size_t slot = w.index % kThreads;
    if (matched[step] < 0) return "buffer[" + std::to_string(w.index / kThreads) + "][" + std::to_string(slot) + "] = " + std::to_string(value);
    const std::size_t k = static_cast<std::size_t>(matched[step]);
    if (k == 0) return std::to_string(value) + (slot < in.size() ? "" : " (identity)");
    const int offset = 1 << (k - 1);
    const std::size_t source = ((k - 1) % 2) * kThreads;
    const int own = as_int(tracer.value(s.before, source + slot));
    if (static_cast<int>(slot) < offset) return std::to_string(own);
    const int left = as_int(tracer.value(s.before, source + slot - offset));
    return std::to_string(own) + " + " + std::to_string(left) + " = " + std::to_string(value);
  };

  std::ostream& out_stream = std::cout;
  tr::print_opening(out_stream, options,
                    {"Lab 05, the naive (Hillis–Steele) scan: " + std::to_string(kThreads) + " threads per block, " +
                         std::to_string(n) + " elements (A B C D E = 1 10 100 1000 10000)",
                     "buffer holds two copies of the tile, shown as buffer[0] ‖ buffer[1]",
                     "`buffer[0] ‖ buffer[1]`: the kernel's two copies of the tile; `·` is a slot not yet written."});
  tr::print_steps(out_stream, tracer, format, options.markdown);
  tr::print_missing(out_stream, tr::handout_missing(handout, matched), options.markdown ? "\n" : "");

  bool ok = true;
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += in[i];
    ok = ok && out[i] == sum;
  }
  if (options.markdown) out_stream << "\n";
  tr::print_result(out_stream, options.markdown,
                   options.markdown ? "The inclusive scan written to `out`" : "Result (inclusive scan)", tr::joined(out),
                   ok);

  // Five elements fit one tile, so the worked example never writes a tile's total
  // (TODO 05.3) nor adds the tiles' offsets back (TODO 05.4), and scans inclusively only.
  // Here both scans run untraced on 1100 elements in blocks of 32 threads: 35 tiles, whose
  // totals are scanned as 2 tiles, whose totals are scanned as one. The emulator watches
  // them as it watches every check (a missing barrier is a data race, and the trace ends
  // in that report); the results are compared with the CPU's.
  constexpr int kTilesThreads = 32;
  std::vector<int> many(1100);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int>((i * 37) % 19) - 9;
  const std::size_t many_n = many.size();
  const int* d_many = tr::to_device(many);
  int* d_many_out = tr::device_array<int>(many_n);
  auto scanned = [&](bool inclusive) {
    if (inclusive)
      pplab::lab05::inclusive_scan(d_many, d_many_out, many_n, kTilesThreads);
    else
      pplab::lab05::exclusive_scan(d_many, d_many_out, many_n, kTilesThreads);
    cudaDeviceSynchronize();
    return tr::from_device(d_many_out, many_n);
  };
  const std::vector<int> many_inclusive = scanned(true), many_exclusive = scanned(false);
  std::vector<int> want_inclusive(many_n), want_exclusive(many_n);
  int running = 0;
  for (std::size_t i = 0; i < many_n; ++i) {
    want_exclusive[i] = running;
    running += many[i];
    want_inclusive[i] = running;
  }
  const bool inclusive_ok = many_inclusive == want_inclusive, exclusive_ok = many_exclusive == want_exclusive;
  const std::string wrong = !inclusive_ok && !exclusive_ok ? "both scans" : !inclusive_ok ? "the inclusive scan" : "the exclusive scan";
  out_stream << (options.markdown ? "\n" : "") << "Many tiles (TODOs 05.1-05.4), untraced: the inclusive and exclusive "
             << "scans of " << many_n << " elements in blocks of " << kTilesThreads << " threads ("
             << (many_n + kTilesThreads - 1) / kTilesThreads << " tiles, their totals scanned in turn)"
             << (inclusive_ok && exclusive_ok ? " ✓" : " ✗ (" + wrong + " differs from the CPU's)") << "\n";
  return tr::finish(ok && inclusive_ok && exclusive_ok);
}
