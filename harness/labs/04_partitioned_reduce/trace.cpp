// pplab trace 04: the handout's worked example, 20 elements 1 … 20 summed by 2 blocks of
// 4 threads, first with two passes (per-block partials, then one block over them), then
// with atomics. Each block's threads meet only inside block_sum (given), whose
// __shfl_down_sync steps show what every thread brings: its grid-stride sum (TODO 04.1),
// and in the second pass the partial it read (TODOs 04.2, 04.3). The trace watches
// *d_out, written as the threads end.
//
// The input starts one element into its allocation, so the launcher takes the scalar
// loop of TODO 04.1 (the vectorised stretch loop needs a 16-byte-aligned input and
// splits the elements differently from the handout's table).
#include <cuda_runtime.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "partitioned_reduce.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;
namespace lab = pplab::lab04;

namespace {
// The handout's launch: 2 blocks of 4 threads, 8 threads g0 … g7 in the grid.
constexpr int kBlockThreads = 4, kGridBlocks = 2;

// What the handout says each (launch, block) brings to block_sum's first shuffle.
struct Arrival {
  int launch, block;
  std::vector<int> sums;
  std::string label;
};

bool trace_method(std::ostream& o, const int* d_in, std::size_t n, lab::Method method, bool markdown) {
  const bool atomics = method == lab::Method::atomics;
  const std::vector<Arrival> handout =
      atomics ? std::vector<Arrival>{{0, 0, {27, 30, 33, 36}, "the grid-stride sums (TODO 04.1)"},
                                     {0, 1, {18, 20, 22, 24}, "the grid-stride sums (TODO 04.1)"}}
              : std::vector<Arrival>{{0, 0, {27, 30, 33, 36}, "the grid-stride sums (TODO 04.1)"},
                                     {0, 1, {18, 20, 22, 24}, "the grid-stride sums (TODO 04.1)"},
                                     {1, 0, {126, 84, 0, 0}, "reads the partials 126 84 (TODOs 04.2, 04.3)"}};
  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(int));
  int* d_out = tr::unwritten_device_array<int>(1);
  tracer.watch(d_out, sizeof(int));
  const int out = tr::traced_once(tracer, tr::output_of(d_out, 1, [&] {
    lab::partitioned_sum(d_in, d_out, n, method, kBlockThreads, kGridBlocks);
  }))[0];

  // Name a step after the handout only where it shows what the handout says happens.
  const auto& steps = tracer.steps();
  std::vector<std::string> titles(steps.size());
  std::vector<bool> seen(handout.size(), false);
  std::map<std::pair<int, int>, int> exchanges;  // (launch, block) -> shuffles so far
  int running = 0;                               // *d_out as the atomics leave it
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const tr::Step& s = steps[k];
    const std::string where = (s.launch > 0 ? "second pass, " : "") + std::string("block ") + std::to_string(s.block);
    if (!s.lanes.empty()) {
      const int count = exchanges[{s.launch, s.block}]++;
      titles[k] = where + ": block_sum's shuffle " + std::to_string(count + 1) + " (given)";
      if (count > 0) continue;
      std::vector<int> sent;
      for (const tr::Lane& l : s.lanes) sent.push_back(tr::as<int>(l.sent));
      for (std::size_t j = 0; j < handout.size(); ++j)
        if (!seen[j] && handout[j].launch == s.launch && handout[j].block == s.block && handout[j].sums == sent) {
          titles[k] = where + ": " + handout[j].label;
          seen[j] = true;
        }
      if (titles[k].find("TODO") == std::string::npos) titles[k] += "; not the handout's sums";
    } else {
      const int now = tr::as<int>(tracer.value(s.after, 0));
      if (atomics) {
        const int expected = running + (s.block == 0 ? 126 : 84);
        titles[k] = where + " ends: " + (now == expected ? "atomicAdd of the block's sum (TODO 04.4)"
                                                          : "not the handout's: *d_out should be " + std::to_string(expected));
        running = now;
      } else {
        titles[k] = where + " ends: " + (s.launch == 1 && now == 210 ? "thread 0 writes the total (TODO 04.3)"
                                                                        : "not the handout's: only the second pass writes *d_out, 210");
      }
    }
  }

  tr::Format format;
  format.array = "*d_out";
  format.value = tr::text_of<int>;
  format.title = [&](std::size_t k, const tr::Step&) { return titles[k]; };
  format.lane = [](std::size_t, const tr::Step&, const tr::Lane& l) {
    return "has " + std::to_string(tr::as<int>(l.sent)) + ", gets " + std::to_string(tr::as<int>(l.received));
  };
  format.exchange_row = [](std::size_t, const tr::Step& s) {
    const tr::Lane* l = s.lane(0);
    return l ? "thread 0 now holds " + std::to_string(tr::as<int>(l->sent) + tr::as<int>(l->received)) : std::string();
  };
  format.row_heading = "afterwards";
  format.what = [](std::size_t, const tr::Step&, const tr::Write& w) {
    return "*d_out = " + std::to_string(tr::as<int>(w.after));
  };

  o << (markdown ? "#### " : "") << (atomics ? "Atomics (TODO 04.4)" : "Two passes (TODOs 04.1-04.3)") << "\n\n";
  tr::print_steps(o, tracer, format, markdown);
  std::string missing;
  for (std::size_t j = 0; j < handout.size(); ++j)
    if (!seen[j])
      missing += (missing.empty() ? "" : "; ") + std::string(handout[j].launch > 0 ? "second pass, " : "") + "block " +
                 std::to_string(handout[j].block) + ": " + handout[j].label;
  if (markdown) o << "\n";
  tr::print_missing(o, missing);
  const bool ok = out == 210;
  tr::print_result(o, markdown, "The sum", std::to_string(out), ok, "1 + 2 + … + 20 = 210");
  o << "\n";
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 04: 1 + 2 + ... + 20 by 2 blocks of 4 threads");
  constexpr std::size_t n = 20;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i + 1);
  const int* d_in = tr::to_device_unaligned(in);  // so the launcher takes the scalar loop (see the top)

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 04, the partitioned reduce: 1 … " + std::to_string(n) + ", " + std::to_string(kGridBlocks) +
                         " blocks of " + std::to_string(kBlockThreads) + " threads (g0 … g" +
                         std::to_string(kGridBlocks * kBlockThreads - 1) + ")",
                     "Steps are your kernel's rendezvous as they ran: block_sum's shuffles, then each block's end",
                     "Each step is a rendezvous of the kernel as it ran (block_sum's `__shfl_down_sync`, where every "
                     "thread shows the value it brings) or a block's end, with what it wrote to `*d_out`."});
  bool ok = trace_method(o, d_in, n, lab::Method::two_pass, options.markdown);
  ok = trace_method(o, d_in, n, lab::Method::atomics, options.markdown) && ok;
  return tr::finish(ok);
}
