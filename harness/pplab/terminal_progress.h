/// \file
/// \brief The grade command's progress on stderr: one rewritten line on a terminal, plain
/// lines in a log; for a class, a line per finished student with the time left.
#pragma once
#include <cstddef>
#include <mutex>
#include <string>

#include <unistd.h>

namespace pplab::cli {

/// Progress on stderr: one rewritten line on a terminal, plain lines in a log.
class Progress {
 public:
  /// A line that the next one replaces on a terminal.
  void say(const std::string& line);
  /// A line that stays.
  void done(const std::string& line);
  /// A class: one line per finished student, with the count and the time left at the pace
  /// so far; on a terminal a bar below it.
  void student_done(const std::string& line, std::size_t finished, std::size_t total, double elapsed_seconds);

 private:
  std::mutex mutex_;
  bool tty_ = isatty(STDERR_FILENO);
};

}  // namespace pplab::cli
