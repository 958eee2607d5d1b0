// pplab trace 05: the Hillis–Steele scan on the handout's example A B C D E
// (1, 10, 100, 1000, 10000: each digit of a sum says which letters it holds), one
// block of 8 threads. The kernel keeps two copies of the tile, buffer[0] and
// buffer[1]: every step reads one and writes the other.
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
  const std::vector<int> out = tr::traced_run(tracer, [&] {
    pplab::lab05::inclusive_scan(d_in, d_out, n, kThreads);
    cudaDeviceSynchronize();
    return tr::from_device(d_out, n);
  });

  auto as_int = [](std::uint64_t bits) { return tr::as<int>(bits); };
  tr::Format format;
  format.array = "buffer";
  format.row_break = kThreads;
  format.value = [&](std::uint64_t bits) { return std::to_string(as_int(bits)); };
  format.title = [&](std::size_t k, const tr::Step&) -> std::string {
    if (k == 0) return "load into buffer[0]";
    const int offset = 1 << (k - 1);
    if (offset >= kThreads) return "write out";
    return "offset " + std::to_string(offset) + ": buffer[" + std::to_string((k - 1) % 2) + "] → buffer[" +
           std::to_string(k % 2) + "]";
  };
  format.what = [&](std::size_t k, const tr::Step& s, const tr::Write& w) -> std::string {
    const int value = as_int(w.after);
    const std::size_t slot = w.index % kThreads;
    if (k == 0) return std::to_string(value) + (slot < in.size() ? "" : " (identity)");
    const int offset = 1 << (k - 1);
    const std::size_t source = ((k - 1) % 2) * kThreads;
    const int own = as_int(tracer.value(s.before, source + slot));
    if (static_cast<int>(slot) < offset) return std::to_string(own);
    const int left = as_int(tracer.value(s.before, source + slot - offset));
    return std::to_string(own) + " + " + std::to_string(left) + " = " + std::to_string(value);
  };

  std::ostream& out_stream = std::cout;
  if (!options.markdown)
    out_stream << "Lab 05, the naive (Hillis–Steele) scan: " << kThreads << " threads per block, " << n
               << " elements (A B C D E = 1 10 100 1000 10000)\nKernel file: " << PPLAB_TRACE_SOURCE << "\n"
               << "buffer holds two copies of the tile, shown as buffer[0] ‖ buffer[1]\n\n";
  else
    out_stream << "`buffer[0] ‖ buffer[1]`: the kernel's two copies of the tile; `·` is a slot not yet written.\n\n";
  tr::print_steps(out_stream, tracer, format, options.markdown);

  std::vector<std::string> values;
  bool ok = true;
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += in[i];
    ok = ok && out[i] == sum;
    values.push_back(std::to_string(out[i]));
  }
  if (options.markdown) out_stream << "\n";
  std::string joined;
  for (auto& v : values) joined += (joined.empty() ? "" : " ") + v;
  out_stream << (options.markdown ? "The inclusive scan written to `out`: **" : "Result (inclusive scan): ") << joined
             << (options.markdown ? "**" : "") << (ok ? " ✓" : " ✗ (differs from the CPU's)") << "\n";
  return ok ? 0 : 1;
}
