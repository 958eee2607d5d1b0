/// \file
/// \brief What a lab's test file includes: doctest plus the harness checks.
///
/// `PPLAB_EXPECT(result)` fails the current test case with the check's report and
/// carries on, so one run shows every failing size.
#pragma once
#include <doctest/doctest.h>

#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "pplab/schedules.h"
#include "pplab/sort_checks.h"

namespace pplab::detail {
/// The command that reruns the current test case alone, for the "reproduce:" line.
inline std::string rerun_command() {
  const auto* options = doctest::getContextOptions();
  std::string command = options->binary_name.c_str();
  if (options->currentTest) command += std::string(" --test-case=\"") + options->currentTest->m_name + "\"";
  return command;
}
}  // namespace pplab::detail

/// Reports a failed pplab::CheckResult through doctest without stopping the test case,
/// and tells for_each_schedule that this schedule failed (the others are then skipped,
/// so one mistake gives one report).
#define PPLAB_EXPECT(...)                                                                   \
  do {                                                                                      \
    const ::pplab::CheckResult pplab_result_ = (__VA_ARGS__);                               \
    if (!pplab_result_.passed) {                                                            \
      ::pplab::note_check_failed();                                                         \
      FAIL_CHECK(pplab_result_.report << "    " << ::pplab::detail::rerun_command() << "\n"); \
    }                                                                                       \
  } while (0)
