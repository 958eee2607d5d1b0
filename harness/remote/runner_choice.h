/// \file
/// \brief Which runner program the checker's side starts (the rest is client.h): kept
/// apart so that a benchmark's timer can name its runner without the grader's protocol.
#pragma once
#include <string>

namespace pplab::remote {

/// The runner to start, by file name in the checker's own folder, when the checker is
/// not named after it (a benchmark's timer shares the lab checks' runner). Call before
/// the first request; PPLAB_RUNNER_COMMAND still takes precedence.
void use_runner_beside(const std::string& file_name);

}  // namespace pplab::remote
