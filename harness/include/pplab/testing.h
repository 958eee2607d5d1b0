/// \file
/// \brief What a lab's test file includes: doctest plus the harness checks.
///
/// `PPLAB_EXPECT(result)` fails the current test case with the check's report and
/// carries on, so one run shows every failing size.
#pragma once
#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>

#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"
#include "pplab/device_work.h"
#include "pplab/inputs.h"
#include "pplab/schedules.h"
#include "pplab/skip_check.h"
#include "pplab/sort_checks.h"
#include "pplab/todo_regions.h"

// The lab's kernel file (cmake/PplabLab.cmake): a fault's step: line lists its TODO regions.
#ifndef PPLAB_KERNEL_FILE
#define PPLAB_KERNEL_FILE nullptr
#endif

namespace pplab::detail {
/// The "reproduce:" line: one shell command, pasted as printed, that reruns the current
/// test case alone with the same seed and (on the emulator) the same thread order.
inline std::string reproduce_line() {
  const auto* options = doctest::getContextOptions();
  std::string line = "  reproduce: PPLAB_SEED=" + std::to_string(run_seed());
  const std::string schedule = current_schedule_name();
  if (schedule != "gpu") line += " PPLAB_SIM_SCHEDULE=" + schedule;
  line += std::string(" ") + options->binary_name.c_str();
  if (options->currentTest) line += std::string(" --test-case=\"") + options->currentTest->m_name + "\"";
  return line + "\n";
}
}  // namespace pplab::detail

/// Reports a failed pplab::CheckResult through doctest without stopping the test case,
/// and tells for_each_schedule that this schedule failed (the others are then skipped,
/// so one mistake gives one report).
#define PPLAB_EXPECT(...) PPLAB_EXPECT_AT(__FILE__, __LINE__, __VA_ARGS__)

/// PPLAB_EXPECT reported at `file`:`line`: a harness helper names its caller's line in
/// the lab's test file, not its own.
#define PPLAB_EXPECT_AT(file, line, ...)                                                    \
  do {                                                                                      \
    const ::pplab::CheckResult pplab_result_ = (__VA_ARGS__);                               \
    if (!pplab_result_.passed) {                                                            \
      ::pplab::note_check_failed();                                                         \
      DOCTEST_ADD_FAIL_CHECK_AT(file, line, pplab_result_.report << ::pplab::detail::reproduce_line()); \
    }                                                                                       \
  } while (0)

namespace pplab::detail {
/// Waits for the call's kernels, then judges its device traffic (PPLAB_ON_DEVICE).
/// The kernel file whose TODO regions a report names: the one the grader judges
/// (PPLAB_KERNEL_FILE in the environment: a class shares one checker), else the build's.
inline const char* judged_kernel_file() {
  const char* judged = std::getenv("PPLAB_KERNEL_FILE");
  return judged && *judged ? judged : PPLAB_KERNEL_FILE;
}

inline void finish_device_call(const char* entry, std::size_t n, const char* file, int line,
                               const DeviceTraffic& before) {
  cuda_check_launch(entry, file, line);
  set_fault_context("");
  // A read of shared memory no thread wrote fails the check even when the answer came
  // out right: what it read was whatever the memory held (on the emulator, its poison).
  if (const std::string reads = take_uninitialised_reads(); !reads.empty()) {
    std::string report = "check failed: " + std::string(kUninitialisedRead) + " (" + entry + ", n = " +
                         std::to_string(n) + "): the answer may be right only by luck\n";
    // Each warning's first two lines (the kernel and thread, the line that read): the
    // whole warning is in the lab's output above.
    std::istringstream lines(reads);
    for (std::string text; std::getline(lines, text);)
      if (text.rfind(kUninitialisedRead, 0) == 0 || text.rfind("  reads ", 0) == 0) report += "  " + text + "\n";
    report += name_fault_step(reads, fault_step_line(judged_kernel_file()));
    PPLAB_EXPECT_AT(file, line, CheckResult{false, report});
  }
  CheckResult on_device = check_ran_on_device(entry, n, before, device_traffic());
  if (!on_device.passed) {
    // Where the report names the line of the lab's file that copied to the host (the
    // emulator knows each copy's line), its one TODO region is the step. Otherwise (a
    // GPU, or a call that launched nothing and copied nothing) every TODO of the file,
    // since which one kept the work on the host is not known from the traffic alone.
    const char* path = judged_kernel_file();
    const std::string unnamed = fault_step_line(path);
    // A copy in given code is not a bad value a step handed it: the work left the device.
    const std::string named =
        name_fault_step(on_device.report, unnamed, "the lab's work belongs in the kernels of its TODO steps");
    if (named != unnamed) {
      on_device.report += named;
    } else {
      const std::string kernel_file = path ? path : "";
      const std::string regions = kernel_file.empty() ? std::string() : todo_regions(kernel_file);
      on_device.report += "  step: the TODO steps " + std::string(entry) + " runs, on the device" +
                          (regions.empty() ? std::string()
                                           : " (" + kernel_file.substr(kernel_file.find_last_of('/') + 1) + ": " +
                                                 regions + ")") +
                          "\n";
    }
  }
  PPLAB_EXPECT_AT(file, line, on_device);
}

template <class Call>
decltype(auto) on_device(const char* entry, std::size_t n, const char* file, int line, Call&& call) {
  // Should the call fault on the emulator, its report ends with what was running and how
  // to run it again.
  set_fault_context("  while: " + std::string(entry) + ", n = " + std::to_string(n) + "\n" +
                    fault_step_line(judged_kernel_file()) + reproduce_line());
  const DeviceTraffic before = device_traffic();
  if constexpr (std::is_void_v<decltype(call())>) {
    call();
    finish_device_call(entry, n, file, line, before);
  } else {
    auto value = call();
    finish_device_call(entry, n, file, line, before);
    return value;
  }
}
}  // namespace pplab::detail

/// Calls a lab's entry point on an input of `n` elements and returns what it returns;
/// then, like PPLAB_CHECK_LAUNCH, waits for its kernels and throws on a CUDA error, and
/// fails the check "the work ran on the host" when, for n > 0, the call launched no
/// kernel or copied more than a small result to the host (pplab/device_work.h):
///   PPLAB_ON_DEVICE("reduce", n, pplab::lab03::reduce(d_in.data(), d_out.data(), n, op));
#define PPLAB_ON_DEVICE(entry, n, ...) \
  ::pplab::detail::on_device((entry), (n), __FILE__, __LINE__, [&]() -> decltype(auto) { return (__VA_ARGS__); })
