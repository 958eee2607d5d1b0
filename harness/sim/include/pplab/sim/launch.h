// What `kernel<<<grid, block, smem, stream>>>(args)` becomes after pplab-sim-rewrite:
//
//   ::pplab::sim::make_launcher("kernel", __FILE__, __LINE__,
//       [&](const auto&... a) { kernel(a...); }, grid, block, smem, stream)
//       .typed([](auto tag) -> decltype(kernel_parameters<decltype(tag)>(kernel)) { return {}; })(args)
//
// The arguments are evaluated once, converted to the kernel's parameter types where
// those are known (below), and stored; every CUDA thread then calls the kernel with
// them, and the kernel's by-value parameters make each thread's own copy, as on a GPU.
// The lambda (rather than a function pointer) lets template arguments be deduced from
// the call arguments as nvcc does.
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
  bool counted = false;  // already counted in pplab::sim::traffic() when it was queued
};
// Runs every block of the launch; returns after the last one.
void launch(const LaunchDesc& d);
// Queues the launch on `stream` (src/streams.cpp): it runs after the work queued
// before it, while the host goes on. destroy(owner) frees the kernel's stored
// arguments once it has run. A bad configuration sets the last error at once.
void launch_async(LaunchDesc* d, void (*destroy)(void*), void* owner, cudaStream_t stream);
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
  cudaStream_t stream = nullptr;

  template <class... A>
  void operator()(A&&... a) const {
    using Args = std::tuple<std::decay_t<A>...>;
    // The kernel and its arguments live on the heap until the queued launch has run.
    struct Task {
      F kernel;
      const Args args;
      LaunchDesc desc;
    };
    auto* t = new Task{kernel, Args(std::forward<A>(a)...),
                       LaunchDesc{name, file, line, grid, block, smem, nullptr, nullptr, cooperative}};
    t->desc.run = [](const void* b) {
      const Task* task = static_cast<const Task*>(b);
      std::apply(task->kernel, task->args);
    };
    t->desc.body = t;
    launch_async(&t->desc, [](void* p) { delete static_cast<Task*>(p); }, t, stream);
  }
  // This launcher, or one typed with the parameters `probe` names (TypedLauncher, below).
  template <class Probe>
  auto typed(Probe probe) const;
};

// The parameter types of a kernel named by a function, a function pointer, or a template
// with every template argument given; only ever named in decltype. Tag makes the call
// dependent, so that for a name that does not say its types (a template whose arguments
// come from the call, an overload set) the probe in Launcher::typed fails quietly.
template <class Tag, class... P>
std::tuple<P...> kernel_parameters(void (*)(P...));

/// A launcher whose call takes the kernel's own parameter types, so the launch's
/// arguments convert as a call's do (a literal 0 or NULL to a pointer, an int to a
/// float, a derived pointer to its base) before they are stored. A call with another
/// number of arguments (a kernel with default arguments) goes to the untyped launcher.
/// Only the specialisation for a std::tuple of parameter types is defined.
template <class F, class Params>
struct TypedLauncher;
template <class F, class... P>
struct TypedLauncher<F, std::tuple<P...>> {
  Launcher<F> untyped;
  void operator()(P... p) const { untyped(std::move(p)...); }
  template <class... A>
    requires(sizeof...(A) != sizeof...(P))
  void operator()(A&&... a) const {
    untyped(std::forward<A>(a)...);
  }
};

template <class F>
template <class Probe>
auto Launcher<F>::typed(Probe) const {
  if constexpr (std::is_invocable_v<Probe, int>)
    return TypedLauncher<F, std::invoke_result_t<Probe, int>>{*this};
  else
    return *this;
}

template <class F>
Launcher<F> make_launcher(const char* name, const char* file, int line, F kernel, dim3 grid, dim3 block,
                          size_t smem = 0, cudaStream_t stream = nullptr, bool cooperative = false) {
  return Launcher<F>{name, file, line, kernel, grid, block, smem, cooperative, stream};
}

}  // namespace pplab::sim
