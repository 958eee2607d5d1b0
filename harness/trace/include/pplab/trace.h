/// \file
/// \brief Step tables of a kernel's shared array, for `pplab trace` and the handouts.
///
/// A lab's trace program (harness/trace/trace_NN.cpp) is compiled together with the
/// lab's kernel file for the CPU emulator, with this header force-included before it
/// (`-include pplab/trace.h`). The header wraps the block rendezvous points
/// (`__syncthreads()`, `__syncwarp()`, `__ballot_sync()`) so that each thread, as it
/// arrives, records what it wrote into the watched shared array since the last time
/// it was seen. The emulator runs a block's threads one at a time between rendezvous
/// points, so every change is attributed to exactly one thread. When the last thread
/// of the block arrives, the barrier is about to release: that is one *step*, and the
/// array's contents then are the row a step table shows.
///
/// The watched array is found by name: the kernel's own variable called
/// `PPLAB_TRACE_ARRAY` (default `shared`) where it is in scope at a rendezvous point.
/// A rendezvous in a function without such a variable sees the global placeholder
/// of the same name and records nothing.
///
/// Only meaningful for a launch of one block run with `PPLAB_SIM_THREADS=1` and a
/// sequential schedule; Tracer::begin() arranges both.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

#ifndef PPLAB_SIM
#error "pplab/trace.h is for builds against the CPU emulator (harness/sim)"
#endif

#ifndef PPLAB_TRACE_ARRAY
/// The name of the kernel's shared array that the trace watches.
#define PPLAB_TRACE_ARRAY shared
#endif

namespace pplab::trace {

/// One value a thread wrote between two rendezvous points.
struct Write {
  int thread = 0;               ///< linear thread index in the block
  std::size_t index = 0;        ///< element index in the watched array
  std::uint64_t before = 0;     ///< element bits before (see Tracer::value)
  std::uint64_t after = 0;      ///< element bits after
};

/// What happened between one barrier release and the next.
struct Step {
  const char* file = nullptr;          ///< the rendezvous that ends the step
  int line = 0;
  const char* op = "__syncthreads()";  ///< which rendezvous
  std::vector<std::uint8_t> before;    ///< the array when the step began
  std::vector<std::uint8_t> after;     ///< the array when the barrier released
  std::vector<Write> writes;           ///< in the order the threads arrived
  /// Threads that wrote anything, in increasing order.
  std::vector<int> active() const;
};

/// Collects the steps of traced launches.
class Tracer {
 public:
  /// Starts a trace of arrays of `element_bytes`-byte elements (4 for float).
  /// Sets the emulator to one worker thread and the forward schedule.
  void begin(std::size_t element_bytes);
  /// The steps so far: one per barrier release, then one for writes after the last
  /// barrier ("kernel end"), when there were any.
  const std::vector<Step>& steps() const { return steps_; }
  /// Forgets the steps so far and fills the watched array (found by an earlier
  /// launch of the same kernel) with all-one bytes, so the next launch shows every
  /// write, even of a value the slot already held, and unwritten slots print as `·`.
  void rearm();
  /// Whether element bits are the all-one fill of rearm() (never written).
  bool unwritten(std::uint64_t bits) const;
  /// Records writes made after the last barrier of the launch that just returned.
  void end_launch();
  /// Number of elements of the watched array (0 before the first rendezvous).
  std::size_t size() const { return current_.size() / element_bytes_; }
  /// Element `i` of a snapshot, as bits (reinterpret with as<T>()).
  std::uint64_t value(const std::vector<std::uint8_t>& snapshot, std::size_t i) const;

  /// Called by the wrapped rendezvous points; not for direct use.
  void arrive(const void* array, std::size_t bytes, const char* file, int line, const char* op);

 private:
  void record_writes(int thread);
  std::size_t element_bytes_ = 4;
  const std::uint8_t* array_ = nullptr;
  std::vector<std::uint8_t> current_;  // the array as last seen
  std::vector<std::uint8_t> step_start_;
  std::vector<Write> pending_;
  std::vector<Step> steps_;
  int arrived_ = 0;
};

/// The tracer the wrapped rendezvous points report to.
Tracer& tracer();

/// How a lab's trace program words its steps.
struct Format {
  std::string array = "shared";  ///< the watched array's name, as the kernel spells it
  std::size_t row_break = 0;     ///< elements per row of a 2-D array (printed with a `‖` between rows)
  /// An element's bits as text (default: a float).
  std::function<std::string(std::uint64_t bits)> value;
  /// A step's title, e.g. "the tree, stride 4" (default: the rendezvous and its line).
  std::function<std::string(std::size_t step, const Step&)> title;
  /// What one write did, e.g. "2 + 10 = 12" (default: "shared[i] = v").
  std::function<std::string(std::size_t step, const Step&, const Write&)> what;
};

/// Prints every recorded step: text in the seed's style, or one Markdown table
/// (step, active threads, what each did, the array afterwards) for the handouts.
void print_steps(std::ostream& out, const Tracer& tracer, const Format& format, bool markdown);

/// What a trace program was asked for on its command line.
struct Options {
  bool markdown = false;  ///< `--markdown`: tables for the handouts, else plain text
};
/// Parses `[--markdown]`; prints usage and exits on anything else.
Options parse_options(int argc, char** argv, const char* what);

/// Prints `label` and the values, space separated: text `  a: 1 2 3`, or a Markdown row.
void print_array(std::ostream& out, bool markdown, const std::string& label, const std::vector<std::string>& values);

/// Formats a number as the seed does: integers without a decimal point.
std::string number(double v);

/// Reinterprets element bits as a value of type T.
template <class T>
T as(std::uint64_t bits) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

/// Placeholder seen by rendezvous points with no watched array in scope.
struct NoArray {};

namespace detail {
template <class A>
inline void arrive(A& array, const char* file, int line, const char* op) {
  using T = std::remove_cv_t<A>;
  if constexpr (std::is_same_v<T, NoArray>) {
    // No watched array in scope at this rendezvous.
  } else if constexpr (std::is_bounded_array_v<T>) {
    tracer().arrive((const void*)&array, sizeof(A), file, line, op);
  } else if constexpr (std::is_unbounded_array_v<T>) {
    // `extern __shared__ T name[]`: the trace program's size applies (set_pointer_bytes).
    tracer().arrive((const void*)&array, 0, file, line, op);
  } else if constexpr (std::is_pointer_v<T>) {
    tracer().arrive((const void*)array, 0, file, line, op);
  } else {
    tracer().arrive((const void*)&array, sizeof(A), file, line, op);  // one watched value
  }
}
}  // namespace detail

/// Sets the byte size watched behind a pointer or an `extern __shared__` array.
void set_pointer_bytes(std::size_t bytes);

}  // namespace pplab::trace

/// The global placeholder: kernels' own arrays of this name hide it.
inline ::pplab::trace::NoArray PPLAB_TRACE_ARRAY;

#undef __syncthreads
#define __syncthreads()                                                                       \
  (::pplab::trace::detail::arrive(PPLAB_TRACE_ARRAY, __FILE__, __LINE__, "__syncthreads()"), \
   (void)::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::plain, 0, __FILE__, __LINE__))
#undef __syncwarp
#define __syncwarp(...)                                                                                      \
  (::pplab::trace::detail::arrive(PPLAB_TRACE_ARRAY, __FILE__, __LINE__, "__syncwarp()"),                   \
   (void)::pplab::sim::warp_op(::pplab::sim::WarpOp::sync, ::pplab::sim::mask_or_full(__VA_ARGS__), 0, 0, 32, \
                               __FILE__, __LINE__))
#undef __ballot_sync
#define __ballot_sync(mask, pred)                                                             \
  (::pplab::trace::detail::arrive(PPLAB_TRACE_ARRAY, __FILE__, __LINE__, "__ballot_sync()"), \
   static_cast<unsigned>(::pplab::sim::warp_op(::pplab::sim::WarpOp::ballot, (mask), (pred) ? 1 : 0, 0, 32, \
                                               __FILE__, __LINE__)))
