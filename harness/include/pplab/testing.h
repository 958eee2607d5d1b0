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

/// Reports a failed pplab::CheckResult through doctest without stopping the test case.
#define PPLAB_EXPECT(...)                                        \
  do {                                                           \
    const ::pplab::CheckResult pplab_result_ = (__VA_ARGS__);    \
    if (!pplab_result_.passed) FAIL_CHECK(pplab_result_.report); \
  } while (0)
