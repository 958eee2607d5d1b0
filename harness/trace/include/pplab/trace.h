/// \file
/// \brief Step tables of a kernel's shared array, for `pplab trace` and the handouts.
///
/// A lab's trace program (harness/labs/NN_name/trace.cpp) is compiled together with the
/// lab's kernel file for the CPU emulator, with this header force-included before it
/// (`-include pplab/trace.h`). The header wraps the block rendezvous points
/// (`__syncthreads()`, `__syncwarp()`, `__ballot_sync()`) so that each thread, as it
/// arrives, records what it wrote into the watched shared array since the last time
/// it was seen. The emulator runs a block's threads one at a time between rendezvous
/// points, so every change is attributed to exactly one thread. When the last thread
/// of the block arrives, the barrier is about to release: that is one *step*, and the
/// array's contents then are the row a step table shows.
///
/// The warp exchanges (`__shfl_sync()` and its `_up`/`_down`/`_xor` forms,
/// `__ballot_sync()`) and `__syncthreads_count()` are wrapped too: each is a step of its
/// own whose *lanes* record what every taking part thread handed in and got back (a
/// register's value, a vote and its mask, a count), whether or not the watched array
/// is in scope there.
///
/// The watched array is found by name: the kernel's own variable called
/// `PPLAB_TRACE_ARRAY` (default `shared`) where it is in scope at a rendezvous point.
/// A rendezvous in a function without such a variable sees the global placeholder
/// of the same name and records nothing.
///
/// A kernel with no shared array (a map, a gather) is traced on a global array instead:
/// Tracer::watch() names it, and each thread's writes are then also taken as the thread
/// ends, so a kernel without any barrier still shows who wrote what, block by block.
///
/// Steps are the student's own: one per rendezvous the kernel actually reached, in the
/// order they released, whatever the handout expects. A trace program names a step
/// after the handout only where the array it left is the handout's (see Expected).
///
/// Only meaningful with `PPLAB_SIM_THREADS=1` and a sequential schedule, where the
/// blocks of a launch run one after the other; Tracer::begin() arranges both.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <utility>
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
  int block = 0;                ///< linear block index in the grid
  std::size_t index = 0;        ///< element index in the watched array
  std::uint64_t before = 0;     ///< element bits before (see Tracer::value)
  std::uint64_t after = 0;      ///< element bits after
};

/// What one thread handed to a warp exchange (or `__syncthreads_count()`) and got back.
struct Lane {
  int thread = 0;              ///< linear thread index in the block
  int block = 0;               ///< linear block index in the grid
  std::uint64_t sent = 0;      ///< the value's bits (a shuffle's `var`, a vote's predicate 0 or 1)
  std::uint64_t received = 0;  ///< the result's bits (the shuffled value, the ballot mask, the count)
};

/// What happened between one barrier release and the next, or at one warp exchange.
struct Step {
  const char* file = nullptr;          ///< the rendezvous that ends the step
  int line = 0;
  const char* op = "__syncthreads()";  ///< which rendezvous ("block end": the block's threads all returned)
  std::vector<std::uint8_t> before;    ///< the array when the step began
  std::vector<std::uint8_t> after;     ///< the array when the barrier released
  std::vector<Write> writes;           ///< in the order the threads arrived
  std::vector<Lane> lanes;             ///< a warp exchange's threads, in arrival order (else empty)
  int block = 0;                       ///< the block (linear index) whose threads met there
  int launch = 0;                      ///< which traced launch (0, 1, ...: a second pass is launch 1)
  /// Threads that wrote anything (or, at an exchange, took part), in increasing order.
  std::vector<int> active() const;
  /// The lane of `thread` at an exchange, or null.
  const Lane* lane(int thread) const;
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
  /// Records nothing more until the next begin() or rearm(): later launches (a second
  /// run to print beside the trace) leave the steps as they are.
  void stop() { stopped_ = true; }
  /// Watches the global array at `device_ptr` (`bytes` long) instead of a shared one, for
  /// kernels without a shared array: writes are taken at every rendezvous and as each
  /// thread ends, and a block's last thread ending closes a "block end" step. Call after
  /// begin(); every launch from then on is traced, until stop().
  void watch(const void* device_ptr, std::size_t bytes);
  /// Number of elements of the watched array (0 before the first rendezvous).
  std::size_t size() const { return current_.size() / element_bytes_; }
  /// Element `i` of a snapshot, as bits (reinterpret with as<T>()).
  std::uint64_t value(const std::vector<std::uint8_t>& snapshot, std::size_t i) const;

  /// Called by the wrapped rendezvous points; not for direct use.
  void arrive(const void* array, std::size_t bytes, const char* file, int line, const char* op);
  /// Called by the wrapped exchanges as a thread arrives with `sent`; the step closes
  /// when `participants` threads have arrived. Not for direct use.
  void exchange(const char* file, int line, const char* op, int participants, std::uint64_t sent);
  /// Called by the wrapped exchanges with what the thread got back. Not for direct use.
  void exchange_result(std::uint64_t received);
  /// Called by the emulator as each CUDA thread starts and ends. Not for direct use.
  void thread_start();
  void thread_end();

 private:
  void record_writes(int thread);
  // A step ending at this rendezvous, from `before` to the array as last seen, in the
  // block and launch being recorded.
  Step& push_step(const char* file, int line, const char* op, const std::vector<std::uint8_t>& before);
  void close_step(const char* file, int line, const char* op);
  void note_block();
  std::size_t element_bytes_ = 4;
  bool watching_global_ = false;  // watch(): the array is fixed, threads are followed to their end
  int ended_ = 0;                 // threads of the current block that have ended
  long long block_ = -1;          // the block being recorded (linear), -1 before the first
  int launch_ = 0;                // launches seen since begin()/rearm()
  bool launch_done_ = false;      // the last block of a launch has ended: the next block starts a launch
  const std::uint8_t* array_ = nullptr;
  std::vector<std::uint8_t> current_;  // the array as last seen
  std::vector<std::uint8_t> step_start_;
  std::vector<Write> pending_;
  std::vector<Step> steps_;
  int arrived_ = 0;
  std::vector<Lane> pending_lanes_;
  bool stopped_ = false;
};

/// The tracer the wrapped rendezvous points report to.
Tracer& tracer();

/// How a lab's trace program words its steps.
struct Format {
  std::string array = "shared";  ///< the watched array's name, as the kernel spells it
  std::size_t row_break = 0;     ///< elements per row of a 2-D array (printed with a `‖` between rows)
  /// The elements shown, in order (empty: all). A gap in the indices prints as `‖`, so
  /// {0, 1, 2, 3, 1024, 1025, 1026, 1027} shows the first four of each half of keys[2][1024].
  std::vector<std::size_t> shown;
  /// The threads listed in a step's "active" and "what each did" (empty: all).
  std::vector<int> threads;
  /// Whether a step is printed (default: all). Printed steps are numbered 1, 2, ...
  std::function<bool(std::size_t step, const Step&)> show;
  /// An element's bits as text (default: a float).
  std::function<std::string(std::uint64_t bits)> value;
  /// A step's title, e.g. "the tree, stride 4" (default: the rendezvous and its line).
  std::function<std::string(std::size_t step, const Step&)> title;
  /// What one write did, e.g. "2 + 10 = 12" (default: "shared[i] = v").
  std::function<std::string(std::size_t step, const Step&, const Write&)> what;
  /// What one thread did at an exchange (default: "sends v, gets w"); an empty text
  /// leaves the thread out of the step's active threads.
  std::function<std::string(std::size_t step, const Step&, const Lane&)> lane;
  /// The last column of an exchange step, e.g. the registers after it (default: the array).
  std::function<std::string(std::size_t step, const Step&)> exchange_row;
  /// The last column's heading (default: "`array` afterwards").
  std::string row_heading;
};

/// One step of the handout's worked example: its name and the array it leaves behind.
struct HandoutStep {
  std::string label;                 ///< e.g. "phase 1 (odd)"
  std::vector<std::uint64_t> after;  ///< the array's elements afterwards, as bits (Tracer::value)
  /// For a step a warp exchange can do (a level of a shuffle tree): what lanes 0, 1, …
  /// hand in and get back, as bits (Lane::sent, Lane::received). Empty: not an exchange's.
  std::vector<std::uint64_t> sent, received;
};

/// Sets the student's steps beside the handout's: for each recorded step, the index of
/// the handout step whose array it left (on the elements `after` lists), or -1 where it
/// matches none. A recorded warp exchange is matched instead on what its lanes handed in
/// and got back, where the handout step lists that (`sent`, `received`), so the same
/// handout step can be a barrier's array in one kernel and a shuffle in another.
/// Handout steps are matched in order, each once, so a step that repeats
/// a state (a phase that swaps nothing) is not named twice, and a missing barrier, which
/// merges two handout steps into one, is named after the later one only if the array is
/// that one's. Only steps of `launch` (or every launch when -1) and not excluded by
/// `considered` take part; the others get -1.
std::vector<int> match_handout(const Tracer& tracer, const std::vector<HandoutStep>& handout, int launch = -1,
                               const std::function<bool(const Step&)>& considered = {});
/// The title of a student's step beside the handout: "phase 1 (odd)" where it matched
/// handout step j, else `unmatched` (e.g. "not a step of the handout").
std::string handout_title(const std::vector<HandoutStep>& handout, int j, const std::string& unmatched);
/// The handout steps that no recorded step matched, as "label; label", or "".
std::string handout_missing(const std::vector<HandoutStep>& handout, const std::vector<int>& matched);
/// A Format::title for a trace named after the handout: step k is called by the handout
/// step it matched (matched[k], from match_handout), else `unmatched`; a "block end" step
/// (a watch()ed array) also says whose it is, "block 1 ends: …". Keeps references to
/// `handout` and `matched`, which must outlive the format.
std::function<std::string(std::size_t step, const Step&)> handout_titles(const std::vector<HandoutStep>& handout,
                                                                         const std::vector<int>& matched,
                                                                         const std::string& unmatched);

/// A Format for a trace named after the handout: the watched array `array`, its elements as
/// `value` writes them (text_of<T>), and each step titled by the handout step it matched
/// (handout_titles(): `unmatched` where it matched none). Keeps references to `handout` and
/// `matched`, which must outlive the format.
Format handout_format(const std::vector<HandoutStep>& handout, const std::vector<int>& matched,
                      const std::string& array, std::function<std::string(std::uint64_t bits)> value,
                      const std::string& unmatched);

/// A Format::what for a trace that explains each write by the handout step its step matched
/// (matched[k], from match_handout()): `explain(j, step, write)`, j that handout step. A
/// write in a step that matched none is shown plainly, "shared[3] = 7" (`format`'s array
/// and value), and clears `consistent`: the kernel left the pattern the explanations assume.
/// Keeps references to `matched` and `consistent`.
std::function<std::string(std::size_t step, const Step&, const Write&)> explained_by_handout(
    const Format& format, const std::vector<int>& matched, bool& consistent,
    std::function<std::string(std::size_t j, const Step&, const Write&)> explain);

/// Prints every recorded step: text in the seed's style, or one Markdown table
/// (step, active threads, what each did, the array afterwards) for the handouts.
void print_steps(std::ostream& out, const Tracer& tracer, const Format& format, bool markdown);

/// What a trace program was asked for on its command line, and what it traces.
struct Options {
  bool markdown = false;         ///< `--markdown`: tables for the handouts, else plain text
  const char* kernel_file = "";  ///< the kernel file the program was built with, as its output names it
};
/// Parses `[--markdown]`; prints usage and exits on anything else.
Options parse_options(int argc, char** argv, const char* what, const char* kernel_file);
#ifdef PPLAB_TRACE_SOURCE
/// As above, for the kernel file this trace program was built with (the build sets
/// PPLAB_TRACE_SOURCE), so that no trace program spells it again.
inline Options parse_options(int argc, char** argv, const char* what) {
  return parse_options(argc, argv, what, PPLAB_TRACE_SOURCE);
}
#endif

/// Prints `label` and the values, space separated: text `  a: 1 2 3`, or a Markdown row.
void print_array(std::ostream& out, bool markdown, const std::string& label, const std::vector<std::string>& values);

/// Opens a trace's text output: `title`, the kernel file traced, the `notes` lines (if
/// any), then a blank line.
void print_heading(std::ostream& out, const std::string& title, const char* kernel_file,
                   const std::string& notes = "");
/// How a trace's output opens: a heading in text, a paragraph above the table in Markdown.
struct Opening {
  std::string title;     ///< the text heading (print_heading)
  std::string notes;     ///< lines under the heading, text only (may be empty)
  std::string markdown;  ///< the paragraph a handout shows above the table (may be empty)
};
/// Prints `opening` as `options` ask: print_heading() with the kernel file in text; in
/// Markdown the paragraph, if any, and a blank line after it.
void print_opening(std::ostream& out, const Options& options, const Opening& opening);
/// A trace's inputs, one labelled row each (print_array); in Markdown under an index row
/// as wide as the first.
void print_arrays(std::ostream& out, bool markdown,
                  const std::vector<std::pair<std::string, std::vector<std::string>>>& rows);
/// The heading rows of a Markdown table of an array's n elements: `| i | 0 | 1 | … |`.
void print_index_row(std::ostream& out, std::size_t n);
/// "Handout steps your kernel never reached: …" after `before`, where `missing` (from
/// handout_missing) names any; else nothing.
void print_missing(std::ostream& out, const std::string& missing, const char* before = "");
/// A trace's summary line, "label: values ✓" or "label: values ✗ (why)"; in Markdown
/// the values are bold, and `item` makes the line a list item.
void print_result(std::ostream& out, bool markdown, const std::string& label, const std::string& values, bool ok,
                  const std::string& why = "differs from the CPU's", bool item = false);

/// The end of a trace program's main(): `return finish(ok);` (0 right, 1 wrong). A
/// program that ends before it says so (pplab/trace_ending.h).
int finish(bool ok);

/// "Note: `text`" on a line of its own (after a blank line in Markdown), for a trace whose
/// kernel left the pattern its explanations assume.
void print_note(std::ostream& out, bool markdown, const std::string& text);

/// Formats a number as the seed does: integers without a decimal point.
std::string number(double v);

/// The values, space separated ("7 14 4 1"), as a trace's summary lines print an array.
template <class T>
std::string joined(const std::vector<T>& values) {
  std::string text;
  for (const T& v : values) text += (text.empty() ? "" : " ") + std::to_string(v);
  return text;
}

/// `values` in increasing order: what a sort of them must hand back.
template <class T>
std::vector<T> sorted(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values;
}

/// Reinterprets element bits as a value of type T.
template <class T>
T as(std::uint64_t bits) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

/// Element bits as the text of a T, the usual Format::value: `format.value = text_of<int>`
/// (a float as number() writes it).
template <class T>
std::string text_of(std::uint64_t bits) {
  if constexpr (std::is_floating_point_v<T>)
    return number(as<T>(bits));
  else
    return std::to_string(as<T>(bits));
}

/// Values as element bits (Tracer::value's form), e.g. for a HandoutStep's `after`.
template <class T>
std::vector<std::uint64_t> as_bits(const std::vector<T>& values) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  std::vector<std::uint64_t> out;
  for (const T& v : values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    out.push_back(bits);
  }
  return out;
}
/// As above, for values written out, e.g. as_bits({1, 5, 2, 4, 3}).
template <class T>
std::vector<std::uint64_t> as_bits(std::initializer_list<T> values) {
  return as_bits(std::vector<T>(values));
}

/// The handout's steps from its arrays: step j leaves arrays[j] and is called label(j).
template <class T, class Label>
std::vector<HandoutStep> handout_steps(const std::vector<std::vector<T>>& arrays, Label&& label) {
  std::vector<HandoutStep> steps;
  for (std::size_t j = 0; j < arrays.size(); ++j) steps.push_back({label(j), as_bits(arrays[j])});
  return steps;
}

/// As joined(), but an element the kernel never wrote (the all-one bits of rearm() or of
/// unwritten_device_array()) prints as `·`.
template <class T>
std::string joined_written(const std::vector<T>& values, const Tracer& tracer) {
  std::string text;
  for (std::uint64_t bits : as_bits(values)) {
    const std::string v = tracer.unwritten(bits) ? std::string("·") : std::to_string(as<T>(bits));
    text += (text.empty() ? "" : " ") + v;
  }
  return text;
}

/// The low `bits` bits of v, most significant first: binary(7, 4) is "0111".
inline std::string binary(unsigned v, int bits) {
  std::string text;
  for (int b = bits - 1; b >= 0; --b) text += ((v >> b) & 1u) ? '1' : '0';
  return text;
}

/// `n` elements of device memory, unset (cudaMalloc); trace programs never free it.
template <class T>
T* device_array(std::size_t n) {
  T* device = nullptr;
  cudaMalloc(&device, n * sizeof(T));
  return device;
}

/// `n` elements of device memory filled with all-one bytes, which the step tables print
/// as `·` until the kernel writes them (Tracer::unwritten); trace programs never free it.
template <class T>
T* unwritten_device_array(std::size_t n) {
  T* device = device_array<T>(n);
  cudaMemset(device, 0xff, n * sizeof(T));
  return device;
}

/// A device copy of `host` (cudaMalloc and cudaMemcpy); trace programs never free it.
template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = device_array<T>(host.size());
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

/// A device copy of `host` whose first element is not 16-byte aligned, so that a launcher
/// that vectorises only aligned inputs takes its scalar path (the handouts' tables show
/// that one); trace programs never free it.
template <class T>
T* to_device_unaligned(const std::vector<T>& host) {
  T* buffer = device_array<T>(host.size() + 1);
  T* device = reinterpret_cast<std::uintptr_t>(buffer) % 16 == 0 ? buffer + 1 : buffer;
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

/// `n` elements of device memory, copied back to the host.
template <class T>
std::vector<T> from_device(const T* device, std::size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

/// The traced launch: `run` (the lab's call, returning what the trace prints) runs once,
/// recorded; returns its result. Later launches are not recorded (stop()). Enough for a
/// watch()ed array, or a shared array taken as zeroed where the first rendezvous finds
/// it; traced_run() finds the array first, so that the traced launch shows every write.
template <class Run>
auto traced_once(Tracer& tracer, Run&& run) {
  auto result = run();
  tracer.end_launch();
  tracer.stop();
  return result;
}

/// The usual traced run of a kernel's shared array: `run` runs once for the tracer to
/// find the array, then again from rearm() as the traced launch (traced_once()).
template <class Run>
auto traced_run(Tracer& tracer, Run&& run) {
  run();
  tracer.rearm();
  return traced_once(tracer, run);
}

/// A run for traced_once() and traced_run(): `launch` (the lab's call), then, once the
/// device is done, the `n` elements at `device` copied back: the output the trace prints.
template <class T, class Launch>
auto output_of(const T* device, std::size_t n, Launch launch) {
  return [device, n, launch]() mutable {
    launch();
    cudaDeviceSynchronize();
    return from_device(device, n);
  };
}

/// Placeholder seen by rendezvous points with no watched array in scope.
struct NoArray {};

namespace detail {
template <class A>
inline void arrive(A& array, const char* file, int line, const char* op) {
  using T = std::remove_cv_t<A>;
  if constexpr (std::is_same_v<T, NoArray>) {
    // No shared array of that name in scope: only a watch()ed global array is recorded.
    tracer().arrive(nullptr, 0, file, line, op);
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

/// A ballot (or another one-value warp op) recorded as an exchange step.
inline std::uint64_t exchange(::pplab::sim::WarpOp op, const char* name, const char* file, int line, unsigned mask,
                              std::uint64_t value) {
  tracer().exchange(file, line, name, __builtin_popcount(mask), value);
  const std::uint64_t result = ::pplab::sim::warp_op(op, mask, value, 0, 32, file, line);
  tracer().exchange_result(result);
  return result;
}

/// A shuffle recorded as an exchange step: the value handed in, the value got back.
template <class T>
T shuffle(::pplab::sim::WarpOp op, const char* name, const char* file, int line, unsigned mask, T var, int arg,
          int width = 32) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "shuffles move at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  tracer().exchange(file, line, name, __builtin_popcount(mask), bits);
  const T out = ::pplab::sim::shfl(op, file, line, mask, var, arg, width);
  bits = 0;
  std::memcpy(&bits, &out, sizeof(T));
  tracer().exchange_result(bits);
  return out;
}

/// `__syncthreads_count(pred)` recorded as an exchange step of the whole block.
inline int count_barrier(const char* file, int line, int pred) {
  tracer().exchange(file, line, "__syncthreads_count()",
                    static_cast<int>(blockDim.x * blockDim.y * blockDim.z), static_cast<std::uint64_t>(pred));
  const int count = ::pplab::sim::syncthreads_op(::pplab::sim::BarrierOp::count, pred, file, line);
  tracer().exchange_result(static_cast<std::uint64_t>(count));
  return count;
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
#define __ballot_sync(mask, pred)                                                                       \
  static_cast<unsigned>(::pplab::trace::detail::exchange(::pplab::sim::WarpOp::ballot, "__ballot_sync()", \
                                                         __FILE__, __LINE__, (mask), (pred) ? 1u : 0u))
#undef __syncthreads_count
#define __syncthreads_count(pred) \
  ::pplab::trace::detail::count_barrier(__FILE__, __LINE__, (pred) ? 1 : 0)
#undef __shfl_sync
#define __shfl_sync(...) \
  ::pplab::trace::detail::shuffle(::pplab::sim::WarpOp::shfl, "__shfl_sync()", __FILE__, __LINE__, __VA_ARGS__)
#undef __shfl_up_sync
#define __shfl_up_sync(...) \
  ::pplab::trace::detail::shuffle(::pplab::sim::WarpOp::shfl_up, "__shfl_up_sync()", __FILE__, __LINE__, __VA_ARGS__)
#undef __shfl_down_sync
#define __shfl_down_sync(...)                                                                            \
  ::pplab::trace::detail::shuffle(::pplab::sim::WarpOp::shfl_down, "__shfl_down_sync()", __FILE__, __LINE__, \
                                  __VA_ARGS__)
#undef __shfl_xor_sync
#define __shfl_xor_sync(...) \
  ::pplab::trace::detail::shuffle(::pplab::sim::WarpOp::shfl_xor, "__shfl_xor_sync()", __FILE__, __LINE__, __VA_ARGS__)
