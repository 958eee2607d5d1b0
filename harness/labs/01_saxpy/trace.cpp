// pplab trace 01: SAXPY on the handout's worked example (a = 4, 12 elements), the
// student's saxpy_kernel launched as the handout draws it: 3 blocks of 4 threads. The
// kernel has no barrier and no shared array, so the trace watches y itself: each
// thread's write is taken as the thread ends, and a block's last thread ending is a step.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "pplab/trace.h"
#include "saxpy.cuh"

namespace pplab::lab01 {
void trace_saxpy_blocks_of_4(float a, const float* d_x, float* d_y, std::size_t n);  // trace_kernels.cu
}

namespace tr = pplab::trace;

int main(int argc, char** argv) {
  const auto options = tr::parse_options(argc, argv, "lab 01: saxpy, a = 4, 12 elements, 3 blocks of 4 threads");
  const float a = 4;
  const std::vector<float> x{2, 4, 2, 1, 8, 3, 9, 5, 5, 1, 2, 1};
  const std::vector<float> y0{3, 7, 0, 1, 4, 0, 0, 4, 5, 3, 1, 0};
  const std::size_t n = x.size();
  const std::string grid = "3 blocks of 4 threads";  // as trace_saxpy_blocks_of_4 launches n = 12
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = a * x[i] + y0[i];

  // The handout's account: block b updates elements 4b ... 4b + 3 and no others.
  std::vector<tr::HandoutStep> handout;
  for (std::size_t b = 0; b < 3; ++b) {
    std::vector<float> after = y0;
    std::copy(want.begin(), want.begin() + 4 * (b + 1), after.begin());
    handout.push_back({"y[" + std::to_string(4 * b) + "…" + std::to_string(4 * b + 3) + "] = a·x + y (TODO 01.1)",
                       tr::as_bits(after)});
  }

  tr::Tracer& tracer = tr::tracer();
  tracer.begin(sizeof(float));
  const float* d_x = tr::to_device(x);
  float* d_y = tr::to_device(y0);
  tracer.watch(d_y, n * sizeof(float));
  const std::vector<float> y = tr::traced_once(tracer, tr::output_of(d_y, n, [&] {
    pplab::lab01::trace_saxpy_blocks_of_4(a, d_x, d_y, n);
  }));

  const std::vector<int> matched = tr::match_handout(tracer, handout);
  tr::Format format = tr::handout_format(handout, matched, "y", tr::text_of<float>,
                                          "not the handout's: y is none of its rows");
  format.what = [&](std::size_t, const tr::Step&, const tr::Write& w) {
    const std::string i = std::to_string(w.index);
    const float before = tr::as<float>(w.before), after = tr::as<float>(w.after);
    const std::string sum = w.index < n ? tr::number(a) + "·" + tr::number(x[w.index]) + " + " + tr::number(before)
                                        : tr::number(before);
    return "y[" + i + "] = " + sum + " = " + tr::number(after) +
           "  (i = " + std::to_string(w.block) + "·4 + " + std::to_string(w.thread) + ")";
  };

  std::ostream& o = std::cout;
  tr::print_opening(o, options,
                    {"Lab 01, SAXPY: y = a·x + y with a = " + tr::number(a) + ", " + std::to_string(n) + " elements, " +
                         grid,
                     "Steps are the blocks as your kernel finished them, named after the handout where y matches",
                     "`saxpy_kernel` launched as " + grid +
                         "; each step is one block finishing, with what each of its threads wrote to `y`."});
  tr::print_steps(o, tracer, format, options.markdown);

  bool ok = true;
  std::string got;
  for (std::size_t i = 0; i < n; ++i) {
    ok = ok && std::fabs(y[i] - want[i]) <= 1e-5f * (1 + std::fabs(want[i]));
    got += (got.empty() ? "" : " ") + tr::number(y[i]);
  }
  if (options.markdown) o << "\n";
  tr::print_missing(o, tr::handout_missing(handout, matched));
  tr::print_result(o, options.markdown, "y afterwards", got, ok);
  return tr::finish(ok);
}
