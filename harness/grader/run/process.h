/// \file
/// \brief Running a child process with a time limit, its output captured.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pplab::cli {

/// How a child process ended.
struct ProcessResult {
  enum class Ending { exited, signalled, timed_out, failed_to_start };
  Ending ending = Ending::failed_to_start;
  int exit_code = -1;   ///< when exited
  int signal = 0;       ///< when signalled
  std::string output;   ///< stdout and stderr, interleaved
  bool output_cut = false;  ///< the output passed max_output, and its beginning was dropped
  double seconds = 0;

  bool succeeded() const { return ending == Ending::exited && exit_code == 0; }
  /// "exit status 1", "killed by signal 11 (Segmentation fault)", "timed out after 60 s", ...
  std::string describe() const;
};

/// The trusted result channel of one run (pplab/result_channel.h): pplab writes `key`
/// into a pipe the child reads at startup, and collects what the child writes on a
/// second pipe into `records`.
struct ResultChannel {
  std::string key;      ///< kKeyBytes random bytes
  std::string records;  ///< everything the child wrote on the result pipe
};

/// Turns at something the child may use only alone (the GPU, for timing), asked for by
/// the child itself (pplab/gpu_turn.h) so that its other work runs beside other jobs.
/// `take` blocks until the child may go; `give_back` ends the turn, also when the child
/// ends or crashes holding it. The time limit does not count the waits.
struct ChildTurns {
  std::function<void()> take, give_back;
  int turns = 0;               ///< filled in: how many turns the child took
  double waited_seconds = 0;   ///< filled in: how long it waited for them, all told
  double held_seconds = 0;     ///< filled in: how long it held them, all told
};

/// A word of a shell command line, quoted where the shell would split or expand it, so
/// that a printed command works when pasted into a shell.
std::string shell_word(const std::string& word);

/// A fresh random key from /dev/urandom.
std::string random_key();

/// From now on, SIGINT, SIGTERM and SIGHUP kill the process group of every child
/// run_process() is waiting for, then end this process as the signal would: a stopped
/// batch leaves no build, check or sandbox running.
void stop_children_on_signals();

/// Runs `argv` with extra environment variables, waits at most `limit`, and kills the
/// child's whole process group when the limit passes. Output beyond `max_output`
/// bytes is cut (the end is kept).
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& environment,
                          std::chrono::seconds limit, std::size_t max_output = 1 << 20,
                          const std::string& working_directory = "",
                          ResultChannel* channel = nullptr, ChildTurns* turns = nullptr);

}  // namespace pplab::cli
