// The grade command's progress lines: see terminal_progress.h.
#include "terminal_progress.h"

#include <cmath>
#include <cstdio>

namespace pplab::cli {
namespace {

// "42 s", "3 min 5 s".
std::string duration_text(double seconds) {
  const long whole = std::lround(seconds);
  if (whole < 60) return std::to_string(whole) + " s";
  return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
}

}  // namespace

void Progress::say(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tty_) std::fprintf(stderr, "\r\033[K%s", line.substr(0, 150).c_str());
  else std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void Progress::done(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", line.c_str());
}

void Progress::student_done(const std::string& line, std::size_t finished, std::size_t total, double elapsed_seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  const double left = finished ? elapsed_seconds / double(finished) * double(total - finished) : 0;
  const std::string count = "[" + std::to_string(finished) + "/" + std::to_string(total) + "]";
  const std::string pace = finished < total ? ", about " + duration_text(left) + " left" : "";
  std::fprintf(stderr, "%s%s %s (%s so far%s)\n", tty_ ? "\r\033[K" : "", count.c_str(), line.c_str(),
               duration_text(elapsed_seconds).c_str(), pace.c_str());
  if (tty_ && finished < total) {
    const std::size_t width = 30, filled = width * finished / total;
    std::fprintf(stderr, "[%s%s] %zu of %zu students%s", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), finished, total, pace.c_str());
  }
  std::fflush(stderr);
}

}  // namespace pplab::cli
