// What `kernel<<<grid, block, smem, stream>>>(args)` becomes after pplab-sim-rewrite:
//
//   ::pplab::sim::make_launcher("kernel", __FILE__, __LINE__,
//       [&](const auto&... a) { kernel(a...); }, grid, block, smem, stream)(args)
//
// The arguments are evaluated once, decayed and stored; every CUDA thread then
// calls the kernel with them, and the kernel's by-value parameters make each
// thread's own copy, as on a GPU. The lambda (rather than a function pointer) lets
// template arguments be deduced from the call arguments as nvcc does.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "pplab/sim/runtime.h"
#include "pplab/sim/types.h"

namespace pplab::sim {
struct LaunchDesc {
  const char* name;
  const char* file;
  int line;
  dim3 grid;
  dim3 block;
  size_t smem;
  void (*run)(const void* body);  // runs the kernel once, for the current CUDA thread
  const void* body;
  // cudaLaunchCooperativeKernel: every block runs at once, so grid.sync() can wait for all.
  bool cooperative = false;
};
// Runs every block of the launch; returns after the last one (launches are synchronous).
void launch(const LaunchDesc& d);
// The calling block's dynamic shared memory (`extern __shared__`).
void* dynamic_smem();

template <class F>
struct Launcher {
  const char* name;
  const char* file;
  int line;
  F kernel;
  dim3 grid;
  dim3 block;
  size_t smem;
  bool cooperative = false;

  template <class... A>
  void operator()(A&&... a) const {
    const std::tuple<std::decay_t<A>...> args(std::forward<A>(a)...);
    auto body = [this, &args] { std::apply(kernel, args); };
    using Body = decltype(body);
    LaunchDesc d{name, file, line, grid, block, smem,
                 [](const void* b) { (*static_cast<const Body*>(b))(); }, &body, cooperative};
    launch(d);
  }
};

template <class F>
Launcher<F> make_launcher(const char* name, const char* file, int line, F kernel, dim3 grid, dim3 block,
                          size_t smem = 0, cudaStream_t = nullptr, bool cooperative = false) {
  return Launcher<F>{name, file, line, kernel, grid, block, smem, cooperative};
}

}  // namespace pplab::sim
