// The benchmark's side of the GPU turns (pplab/gpu_turn.h).
#include "gpu_turn.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "pplab/gpu_turn.h"

namespace pplab::detail {
namespace {

int g_ask_fd = -1, g_answer_fd = -1;
int g_depth = 0;  // turns held inside one another: only the outermost talks to pplab

// Read before any lab code can run, and closed to every program this one starts: the
// runner, which holds the lab's code, must not be able to take or give back a turn.
__attribute__((constructor(101))) void open_turn_pipes() {
  const char* text = std::getenv(pplab::gpu_turn::kFdsVariable);
  if (!text || !*text) return;
  int ask = -1, answer = -1;
  if (std::sscanf(text, "%d,%d", &ask, &answer) != 2 || ask < 0 || answer < 0) return;
  // Gone from the environment too: the runner need not even know there are turns.
  unsetenv(pplab::gpu_turn::kFdsVariable);
  if (fcntl(ask, F_SETFD, FD_CLOEXEC) != 0 || fcntl(answer, F_SETFD, FD_CLOEXEC) != 0) return;
  g_ask_fd = ask;
  g_answer_fd = answer;
}

void say(char word) {
  for (;;) {
    const ssize_t n = ::write(g_ask_fd, &word, 1);
    if (n == 1) return;
    if (n < 0 && errno == EINTR) continue;
    throw std::runtime_error("the grader stopped answering for GPU turns");
  }
}

}  // namespace

GpuTurn::GpuTurn() {
  if (g_ask_fd < 0 || g_depth++ > 0) return;
  try {
    say(pplab::gpu_turn::kAsk);
  } catch (...) {
    --g_depth;  // no turn is held: the destructor does not run
    throw;
  }
  char answer = 0;
  for (;;) {
    const ssize_t n = ::read(g_answer_fd, &answer, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n == 1 && answer == pplab::gpu_turn::kGranted) return;
    --g_depth;
    throw std::runtime_error("the grader did not grant the GPU for timing");
  }
}

GpuTurn::~GpuTurn() {
  if (g_ask_fd < 0 || --g_depth > 0) return;
  const char done = pplab::gpu_turn::kDone;
  while (::write(g_ask_fd, &done, 1) < 0 && errno == EINTR) {
  }
}

}  // namespace pplab::detail
