// pplab trace 06: the Blelloch scan on the handout's example 3 1 7 0 4 1 6 3, one block
// of 4 threads scanning one tile of 8 elements (the tiles algorithm): the load, the
// up-sweep (strides 1, 2, 4), clearing the root, the down-sweep (strides 4, 2, 1).
// The kernel's shared tile is called `tile` (the handout's x). Then, untraced, both scans
// of an input of many tiles of 64 elements, which the one small tile never is: padding
// that skips slots (TODO 06.3), the tiles' totals (TODO 06.2) and their add-back (06.5).
#include <cuda_runtime.h>

#include <iostream>
#include <string>
#include <vector>

#include "pplab/trace.h"
#include "work_efficient_scan.cuh"

namespace tr = pplab::trace;
namespace lab = pplab::lab06;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 06: the work-efficient scan, 4 threads, 8 elements");
  constexpr int kThreads = 4, kTile = 2 * kThreads;
  const std::vector<int> in{3, 1, 7, 0, 4, 1, 6, 3};
  const int n = static_cast<int>(in.size());

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  int* d_in = tr::to_device(in);
  int* d_out = tr::device_array<int>(n);
  auto scan = [&](bool inclusive) {
    if (inclusive)
      lab::inclusive_scan(d_in, d_out, n, lab::Algorithm::tiles, kThreads);
    else
      lab::exclusive_scan(d_in, d_out, n, lab::Algorithm::tiles, kThreads);
    cudaDeviceSynchronize();
    return tr::from_device(d_out, n);
  };
  // The first scan finds the tile; the second is traced.
  const std::vector<int> exclusive = tr::traced_run(tracer, [&] { return scan(false); });
  const std::vector<int> inclusive = scan(true);

  // Steps: 0 the load; 1 .. L-1 up-sweep strides 1 .. TILE/4; L the last up-sweep level
  // and clearing the root (no barrier between them); L+1 .. 2L the down-sweep.
  int levels = 0;
  while ((1 << levels) < kTile) ++levels;  // L = log2(TILE) = 3
  auto up_stride = [&](std::size_t k) { return 1 << (k - 1); };
  auto down_stride = [&](std::size_t k) { return (kTile / 2) >> (k - levels - 1); };
  bool consistent = true;
  auto value = [&](const std::vector<std::uint8_t>& snapshot, int i) {
    // (a kernel with other barriers than the reference's may point outside the tile)
    if (i < 0 || static_cast<std::size_t>(i) >= tracer.size()) return 0;
    return tr::as<int>(tracer.value(snapshot, static_cast<std::size_t>(i)));
  };
  auto pair = [](int t, int stride) {
    const int left = stride * (2 * t + 1) - 1, right = stride * (2 * t + 2) - 1;
    return "(" + std::to_string(left) + "→" + std::to_string(right) + ")";
  };

  // The handout's tile after each of its steps (labs/06_work_efficient_scan/README.md):
  // step j of the reference is j above. A step of the student's kernel is named, and
  // its writes explained, as handout step j only where it left exactly that tile.
  const std::vector<std::vector<int>> handout_tiles{{3, 1, 7, 0, 4, 1, 6, 3},  {3, 4, 7, 7, 4, 5, 6, 9},
                                                    {3, 4, 7, 11, 4, 5, 6, 14}, {3, 4, 7, 11, 4, 5, 6, 0},
                                                    {3, 4, 7, 0, 4, 5, 6, 11},  {3, 0, 7, 4, 4, 11, 6, 16},
                                                    {0, 3, 4, 11, 11, 15, 16, 22}};
  auto label = [&](std::size_t k) -> std::string {
    if (k == 0) return "load two elements per thread";
    if (static_cast<int>(k) < levels) return "up-sweep, stride " + std::to_string(up_stride(k));
    if (static_cast<int>(k) == levels)
      return "up-sweep, stride " + std::to_string(up_stride(k)) + "; then clear the root";
    if (static_cast<int>(k) <= 2 * levels) return "down-sweep, stride " + std::to_string(down_stride(k));
    return "after the sweeps";
  };
  const std::vector<tr::HandoutStep> handout = tr::handout_steps(handout_tiles, label);
  const std::vector<int> matched = tr::match_handout(tracer, handout);

  tr::Format format = tr::handout_format(handout, matched, "tile", tr::text_of<int>,
                                          "not a step of the handout: the tile is none of its rows");
  format.what = [&](std::size_t step, const tr::Step& s, const tr::Write& w) -> std::string {
    const int i = static_cast<int>(w.index), after = tr::as<int>(w.after);
    const std::string x = "x" + std::to_string(i);
    if (matched[step] < 0) return x + " = " + std::to_string(after);  // not the handout's step: no story
    const std::size_t k = static_cast<std::size_t>(matched[step]);
    if (k == 0) return x + " = " + std::to_string(after);
    if (static_cast<int>(k) <= levels) {  // x[right] += x[left]
      const int stride = up_stride(k);
      const int left = i - stride, old = value(s.before, i), added = value(s.before, left);
      std::string text = pair(w.thread, stride) + " " + x + " = " + std::to_string(old) + " + " +
                         std::to_string(added) + " = " + std::to_string(old + added);
      if (static_cast<int>(k) == levels) {  // the root: the tile's total, then 0
        if (old + added != inclusive.back() || after != 0) consistent = false;
        return text + " (the total), then the root " + x + " = " + std::to_string(after);
      }
      if (old + added != after) consistent = false;
      return text;
    }
    const int stride = down_stride(k);
    if (stride < 1) return x + " = " + std::to_string(after);
    if ((i + 1) % (2 * stride) != 0) {  // a left child: gets its parent's value
      if (after != value(s.before, i + stride)) consistent = false;
      return pair(w.thread, stride) + " " + x + " = " + std::to_string(after);
    }
    const int parent = value(s.before, i), old_left = value(s.before, i - stride);
    if (parent + old_left != after) consistent = false;
    return x + " = " + std::to_string(parent) + " + " + std::to_string(old_left) + " = " + std::to_string(after);
  };

  std::ostream& out = std::cout;
  tr::print_opening(out, options,
                    {"Lab 06, the work-efficient (Blelloch) scan: " + std::to_string(kThreads) +
                         " threads per block, a tile of " + std::to_string(kTile) + " elements",
                     "\n  in: " + tr::joined(in),
                     "`tile` is the handout's x (thread t loads elements t and t + 4); `·` is a slot not yet written."});
  tr::print_steps(out, tracer, format, options.markdown);
  tr::print_missing(out, tr::handout_missing(handout, matched), options.markdown ? "\n" : "");

  std::vector<int> want_ex(n), want_in(n);
  for (int i = 0, sum = 0; i < n; ++i) want_ex[i] = sum, sum += in[i], want_in[i] = sum;
  const bool ok = exclusive == want_ex && inclusive == want_in;
  if (options.markdown) out << "\n";
  tr::print_result(out, options.markdown, "The exclusive scan written to `out`", tr::joined(exclusive),
                   exclusive == want_ex, "differs from the CPU's", /*item=*/true);
  out << (options.markdown ? "- " : "") << "The inclusive scan (each element added back at the write): "
      << tr::joined(inclusive) << (inclusive == want_in ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  if (!consistent) tr::print_note(out, options.markdown, "some steps did not follow the up/down-sweep pattern.");

  // One tile of 8 elements never writes its total to tile_sums (TODO 06.2) nor adds the
  // tiles' offsets back (TODO 06.5), and its indices stay below 32, so the padding of
  // TODO 06.3 never leaves a slot empty. Here both scans run untraced by the tiles
  // algorithm on 4500 elements in blocks of 32 threads: tiles of 64 elements (one padding
  // slot each), 71 of them, whose totals are scanned as 2 tiles, whose totals as one. The
  // emulator watches them as it watches every check (a missing barrier is a data race, a
  // padded index past the tile an out-of-bounds access, and the trace ends in that
  // report); the results are compared with the CPU's.
  constexpr int kTilesThreads = 32;
  std::vector<int> many(4500);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int>((i * 37) % 19) - 9;
  const std::size_t many_n = many.size();
  const int* d_many = tr::to_device(many);
  int* d_many_out = tr::device_array<int>(many_n);
  auto scanned = [&](bool inclusive_scan) {
    if (inclusive_scan)
      lab::inclusive_scan(d_many, d_many_out, many_n, lab::Algorithm::tiles, kTilesThreads);
    else
      lab::exclusive_scan(d_many, d_many_out, many_n, lab::Algorithm::tiles, kTilesThreads);
    cudaDeviceSynchronize();
    return tr::from_device(d_many_out, many_n);
  };
  const std::vector<int> many_inclusive = scanned(true), many_exclusive = scanned(false);
  std::vector<int> many_want_in(many_n), many_want_ex(many_n);
  int running = 0;
  for (std::size_t i = 0; i < many_n; ++i) {
    many_want_ex[i] = running;
    running += many[i];
    many_want_in[i] = running;
  }
  const bool inclusive_ok = many_inclusive == many_want_in, exclusive_ok = many_exclusive == many_want_ex;
  const std::string wrong =
      !inclusive_ok && !exclusive_ok ? "both scans" : !inclusive_ok ? "the inclusive scan" : "the exclusive scan";
  const std::size_t tiles = (many_n + 2 * kTilesThreads - 1) / (2 * kTilesThreads);
  out << (options.markdown ? "- " : "") << "Many tiles (TODOs 06.1-06.5), untraced: the exclusive and inclusive "
      << "scans of " << many_n << " elements in blocks of " << kTilesThreads << " threads (" << tiles
      << " padded tiles of " << 2 * kTilesThreads << ", their totals scanned in turn)"
      << (inclusive_ok && exclusive_ok ? " ✓" : " ✗ (" + wrong + " differs from the CPU's)") << "\n";
  return tr::finish(ok && inclusive_ok && exclusive_ok);
}
