// pplab trace 08: the handout's worked example, putting 5 1 4 2 3 in order three ways:
// gather through the map 1 3 4 2 0, scatter through 4 0 3 1 2, and the inverse of the
// gather map (which is the scatter map). Each kernel runs as the lab launches it (the
// _unchecked forms: the index check is a launch of its own); it has no barrier or shared
// array, so the trace watches the output itself and takes each thread's writes as it ends.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "gather_scatter.cuh"
#include "pplab/trace.h"

namespace tr = pplab::trace;
namespace lab = pplab::lab08;

namespace {
struct Part {
  const char* name;      // "gather"
  const char* todo;      // "08.1"
  const char* formula;   // "out[i] = in[map[i]]"
  std::vector<std::uint32_t> in, map, want;
  // Runs the lab's launcher on device arrays: in, map, out.
  std::function<void(const std::uint32_t*, const std::uint32_t*, std::uint32_t*)> run;
  // What thread i's write means, for the step table.
  std::function<std::string(const tr::Write&)> what;
};

// Traces one kernel and prints its steps; returns whether its output is the handout's.
bool trace_part(std::ostream& o, const Part& p, bool markdown) {
  const std::size_t n = p.want.size();
  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(std::uint32_t));
  const std::uint32_t* d_in = p.in.empty() ? tr::device_array<std::uint32_t>(n) : tr::to_device(p.in);
  const std::uint32_t* d_map = tr::to_device(p.map);
  std::uint32_t* d_out = tr::unwritten_device_array<std::uint32_t>(n);
  tracer.watch(d_out, n * sizeof(std::uint32_t));
  const std::vector<std::uint32_t> out = tr::traced_once(tracer, tr::output_of(d_out, n, [&] {
    p.run(d_in, d_map, d_out);
  }));

  const std::vector<tr::HandoutStep> handout{
      {std::string(p.formula) + " for every i (TODO " + p.todo + ")", tr::as_bits(p.want)}};
  const std::vector<int> matched = tr::match_handout(tracer, handout);
  tr::Format format = tr::handout_format(handout, matched, "out", tr::text_of<std::uint32_t>,
                                          "not the handout's: out is not 1 2 3 4 5");
  format.what = [&](std::size_t, const tr::Step&, const tr::Write& w) { return p.what(w); };

  const std::string title =
      std::string(p.name) + " (TODO " + p.todo + "): " + p.formula + ", map " + tr::joined_written(p.map, tracer);
  o << (markdown ? "#### " : "") << title << "\n\n";
  tr::print_steps(o, tracer, format, markdown);
  const bool ok = out == p.want;
  if (markdown) o << "\n";
  tr::print_result(o, markdown, "out", tr::joined_written(out, tracer), ok,
                   "the handout's is " + tr::joined_written(p.want, tracer));
  o << "\n";
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 08: gather, scatter and the inverse on 5 1 4 2 3");
  const std::vector<std::uint32_t> in{5, 1, 4, 2, 3}, gather_map{1, 3, 4, 2, 0}, scatter_map{4, 0, 3, 1, 2};
  const std::vector<std::uint32_t> sorted{1, 2, 3, 4, 5};
  auto u = [](std::uint64_t b) { return std::to_string(tr::as<std::uint32_t>(b)); };
  auto as_int = [](const std::uint32_t* p) { return reinterpret_cast<const int*>(p); };

  const Part gather{"gather", "08.1", "out[i] = in[map[i]]", in, gather_map, sorted,
                    [&](const std::uint32_t* d_in, const std::uint32_t* d_map, std::uint32_t* d_out) {
                      lab::gather_unchecked(as_int(d_in), d_map, reinterpret_cast<int*>(d_out), in.size());
                    },
                    [&](const tr::Write& w) {
                      const std::size_t i = static_cast<std::size_t>(w.thread);
                      const std::string from = i < gather_map.size() ? "in[" + std::to_string(gather_map[i]) + "]" : "?";
                      return "out[" + std::to_string(w.index) + "] = " + from + " = " + u(w.after);
                    }};
  const Part scatter{"scatter", "08.2", "out[map[i]] = in[i]", in, scatter_map, sorted,
                     [&](const std::uint32_t* d_in, const std::uint32_t* d_map, std::uint32_t* d_out) {
                       lab::scatter_unchecked(as_int(d_in), d_map, reinterpret_cast<int*>(d_out), in.size());
                     },
                     [&](const tr::Write& w) {
                       const std::size_t i = static_cast<std::size_t>(w.thread);
                       const std::string from = i < in.size() ? "in[" + std::to_string(i) + "]" : "?";
                       return "out[" + std::to_string(w.index) + "] = " + from + " = " + u(w.after);
                     }};
  const Part inverse{"inverse permutation", "08.3", "inv[perm[i]] = i", {}, gather_map, scatter_map,
                     [&](const std::uint32_t*, const std::uint32_t* d_map, std::uint32_t* d_out) {
                       lab::inverse_permutation_unchecked(d_map, d_out, gather_map.size());
                     },
                     [&](const tr::Write& w) {
                       return "inv[" + std::to_string(w.index) + "] = " + u(w.after);
                     }};

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 08, gather and scatter: in = " + tr::joined(in) + ", one block, one thread per element",
                     "Steps are the blocks as your kernels finished them, with what each thread wrote",
                     "Each kernel has no barrier: a step is its block finishing, with what each thread wrote; `·` is "
                     "a slot never written."});
  bool ok = trace_part(o, gather, options.markdown);
  ok = trace_part(o, scatter, options.markdown) && ok;
  ok = trace_part(o, inverse, options.markdown) && ok;
  return tr::finish(ok);
}
