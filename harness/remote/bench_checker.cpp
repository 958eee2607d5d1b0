// The checker's timer (pplab/bench.h). The lab's code runs in the runner, a process the
// timer does not trust; every CUDA call here is a request to it (harness/remote). So the
// timer believes nothing the runner says about time, and not that a run did its work:
// - a timed repeat is the wall time, on this process's steady clock, of one request:
//   the lab's entry point, which the runner follows with a whole-device synchronise
//   before it answers (remote::SynchronizedRequests). From it the timer takes the fastest
//   of the case's empty requests of the same shape (a 1-byte memset and the synchronise),
//   measured the same way, so what is left is the run itself, never less;
// - after a repeat has returned, the timer decides (from its own random source) whether
//   to check that repeat's output against the CPU's values, and it always checks the
//   last. A runner cannot know which repeats will be checked, so a wrong answer on a
//   timed repeat is caught with even odds each time, and one wrong check makes the
//   whole measurement unverified: it earns no speed.
// The L2 flush and the case's prepare() run between repeats, untimed, as in process;
// after a checked repeat, untimed runs bring the device back to work first.
// On the GPU both processes wait for each other by polling, not asleep (BusyWaiting and
// the runner's loop), so neither one's wake-up is counted as the lab's time.
#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "bench_report.h"
#include "client.h"
#include "gpu_turn.h"
#include "runner_choice.h"
#include "pplab/bench.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"

namespace pplab {
namespace {

using Clock = std::chrono::steady_clock;
using detail::milliseconds_since;

// How long a case's repeats may go on past `repeats` for a smaller spread: a lab has up
// to 18 cases, and its timing should hold the GPU for about two seconds.
constexpr double kExtendForMs = 300;

// The wall time of a request that does (almost) nothing: the cost of asking, measured
// for each case as it starts, and its fastest. On a grading machine the CPUs' load comes
// and goes (other students' compiles): measured once, under load, and taken off every
// repeat, it left an H100's timed repeats of lab 02 at 0 ms and earned them full speed
// points. The fastest asking is never more than a repeat's own asking, so what is left
// of a repeat is never less than its run.
double empty_request_ms() {
  auto& scrub = detail::l2_scrub_buffer();
  return detail::fastest_request_wall_ms(25, [&] {
    const remote::SynchronizedRequests together;
    const cudaError_t set = cudaMemset(scrub.data(), 0, 1);
    const cudaError_t synced = cudaError_t(together.error());
    return set != cudaSuccess ? set : synced;
  });
}

// Untimed runs for at least 2 ms after a checked repeat. A check downloads and compares
// the whole output, so the device and both processes sit idle for tens of milliseconds,
// which the in-process loop's back-to-back repeats never do. On the H200 (2026-12-01, at
// 2^24) the labs whose check downloads a whole array had their fastest repeat equal to
// the in-process time but a median 10-45 µs above it; the labs that check one value did
// not. So the next timed repeat starts from a busy device again, as in process.
void warm_up_after_pause(const BenchCase& spec) {
  if (remote::backend() != "gpu") return;  // the emulator's time says nothing of a GPU
  const auto until = Clock::now() + std::chrono::milliseconds(2);
  do {
    if (spec.prepare) spec.prepare();
    spec.run(0);
    PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
  } while (Clock::now() < until);
}

// One timed repeat: fresh inputs and an L2 flush (untimed), then the run's request on
// this process's clock, less the empty request's cost.
double timed_run(const BenchCase& spec, double empty_ms) {
  if (spec.prepare) spec.prepare();
  flush_l2();
  PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
  const auto start = Clock::now();
  cudaError_t synced;
  {
    const remote::SynchronizedRequests together;
    spec.run(0);
    synced = cudaError_t(together.error());
  }
  const double wall_ms = milliseconds_since(start);
  PPLAB_CUDA_CHECK(synced);
  PPLAB_CUDA_CHECK(cudaGetLastError());
  return std::max(0.0, wall_ms - empty_ms);
}

// The same question again (pplab/fresh_inputs.h, SameDraws): after the timed repeats,
// three pairs of runs, each a new input and then that input filled again, every run
// prepared, flushed, timed and checked as a timed repeat is. Honest code takes about as
// long on the repeated input as on the new one; code that keeps answers from earlier
// calls (by a hash of its input, by pointer) answers the repeat from memory. Fresh draws
// already make such answers worthless in the timed repeats; this names the attempt, so
// that it earns no speed points at all. The pairs run back to back so that both sides
// see the same machine: a load that comes and goes (other students' compiles, other
// tests) only ever slows a run, so the fastest of each side is compared.
struct AskedAgain {
  double same_ms = std::numeric_limits<double>::infinity();  ///< the fastest repeated input
  double new_ms = std::numeric_limits<double>::infinity();   ///< the fastest new input beside them
  bool right = true;                                         ///< every output checked right
};

AskedAgain ask_again(const BenchCase& spec, double empty_ms) {
  AskedAgain again;
  const auto checked_run = [&] {
    warm_up_after_pause(spec);  // each run follows a check, as the last timed repeat did
    const double ms = timed_run(spec, empty_ms);
    if (!spec.verify()) again.right = false;
    return ms;
  };
  for (int pair = 0; pair < 3; ++pair) {
    again.new_ms = std::min(again.new_ms, checked_run());
    const SameDraws same;
    again.same_ms = std::min(again.same_ms, checked_run());
  }
  return again;
}

// Asked an input it has answered before, honest code is as fast as on a new one, give or
// take the run-to-run spread (a few percent at the graded sizes). An answer kept by hash
// costs a pass over the input and a copy of the output, a fraction of the work in every
// lab where keeping answers pays. Twice as fast as the fastest new input is not noise;
// nor is a tenth of a millisecond saved. Below that a request's own jitter is as large as
// the run (an honest lab 01 at 2^10 on the emulator: 8-50 us from one run to the next),
// and an answer kept for so little work saves nothing worth a point.
constexpr double kFromMemoryFraction = 0.5;
constexpr double kFromMemorySavedMs = 0.1;

}  // namespace

void detail::time_through_runner(const char* runner_file) { remote::use_runner_beside(runner_file); }

void flush_l2(cudaStream_t) {
  auto& buffer = detail::l2_scrub_buffer();
  PPLAB_CUDA_CHECK(cudaMemset(buffer.data(), 0, buffer.bytes()));
}

Measurement measure(const BenchCase& spec, const BenchOptions& options) {
  if (detail::left_out(spec, options)) return Measurement{spec};
  if (!spec.verify)
    throw std::logic_error(spec.lab + " " + spec.variant + ": a case timed by the checker needs verify()");
  // The GPU to itself for the warm-ups, the repeats and their checks: what came before
  // (starting the runner, the CPU's expected outputs, the inputs) ran beside other jobs.
  const detail::GpuTurn alone;
  const remote::BusyWaiting awake;
  const auto case_began = Clock::now();
  double check_ms = 0;
  for (int i = 0; i < options.warmup; ++i) {
    if (spec.prepare) spec.prepare();
    spec.run(0);
  }
  PPLAB_CUDA_CHECK(cudaDeviceSynchronize());

  const double empty_ms = empty_request_ms();
  std::mt19937_64 picker{std::random_device{}()};
  std::bernoulli_distribution check_this_one(0.5);
  std::vector<double> times;
  std::vector<bool> after_check;
  bool all_right = true;
  int checked = 0;
  bool paused = false;  // the last repeat was checked
  // Past `repeats`, while the median is still noisy: up to max_repeats, for a while.
  const int most = options.spread_target_percent <= 0 ? options.repeats
                   : std::max(options.repeats, options.max_repeats > 0 ? options.max_repeats : 4 * options.repeats);
  const auto began = Clock::now();
  const auto enough = [&](int done) {
    if (done < options.repeats) return false;
    if (done >= most || milliseconds_since(began) > kExtendForMs) return true;
    return options.spread_target_percent <= 0 || detail::median_spread_percent(times) <= options.spread_target_percent;
  };
  for (int i = 0; i < most; ++i) {
    const bool paused_before = paused;
    if (paused) warm_up_after_pause(spec);
    times.push_back(timed_run(spec, empty_ms));
    after_check.push_back(paused_before);
    // Picked only now, after the run has returned, so the runner cannot know. The last
    // is the one after which the spread was small enough.
    const bool last = enough(i + 1);
    paused = options.verify_all || last || check_this_one(picker);
    if (paused) {
      ++checked;
      const auto check_began = Clock::now();
      if (!spec.verify()) all_right = false;
      check_ms += milliseconds_since(check_began);
    }
    if (last) break;
  }
  const AskedAgain again = ask_again(spec, empty_ms);

  Measurement m;
  m.spec = spec;
  m.timed_by = "checker";
  m.repeat_ms = times;
  m.after_check = after_check;
  detail::summarise(m, times);
  m.verified = all_right && again.right && checked > 0;
  m.same_input_ms = again.same_ms;
  m.new_input_ms = std::min(again.new_ms, m.min_ms);  // the pairs' new inputs and the timed repeats'
  m.from_memory = m.same_input_ms < kFromMemoryFraction * m.new_input_ms &&
                  m.new_input_ms - m.same_input_ms >= kFromMemorySavedMs;
  m.verified_repeats = checked;
  m.case_wall_ms = milliseconds_since(case_began);
  m.check_wall_ms = check_ms;
  detail::report(m);
  return m;
}

// The copy bandwidth as this timer sees it: a device-to-device cudaMemcpy request and a
// synchronise, less the empty pair. Only the figure's "% of copy" column depends on it;
// grading takes the device's copy bandwidth from the reference's in-process benchmark.
double device_copy_gbps() {
  static const double gbps = [] {
    const detail::GpuTurn alone;
    const remote::BusyWaiting awake;
    const double empty_ms = empty_request_ms();
    return detail::copy_gbps([&](unsigned char* to, const unsigned char* from, std::size_t bytes) {
      PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
      const auto start = Clock::now();
      PPLAB_CUDA_CHECK(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice));
      PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
      return milliseconds_since(start) - empty_ms;
    });
  }();
  return gbps;
}

}  // namespace pplab
