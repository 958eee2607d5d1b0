#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>

#include "pplab/gpu_turn.h"
#include "pplab/result_channel.h"

namespace pplab::cli {

std::string ProcessResult::describe() const {
  switch (ending) {
    case Ending::exited: return "exit status " + std::to_string(exit_code);
    case Ending::signalled:
      return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    case Ending::timed_out: return "timed out after " + std::to_string(int(seconds)) + " s";
    case Ending::failed_to_start: return "could not be started";
  }
  return "?";
}

std::string shell_word(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~!") == std::string::npos) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string random_key() {
  std::string key(pplab::channel::kKeyBytes, '\0');
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  if (!urandom.read(key.data(), std::streamsize(key.size())))
    throw std::runtime_error("cannot read /dev/urandom for a result-channel key");
  return key;
}

namespace {
// The fd numbers the child sees for the channel and the turns; high, so nothing else
// lands there.
constexpr int kChildKeyFd = 200, kChildResultFd = 201, kChildAskFd = 202, kChildAnswerFd = 203;

using Clock = std::chrono::steady_clock;

double elapsed_seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The parent's side of ChildTurns: reads what the child says on its ask pipe.
class TurnKeeper {
 public:
  explicit TurnKeeper(ChildTurns* turns) : turns_(turns) {}
  ~TurnKeeper() { end_turn(); }

  /// Handles the bytes the child wrote; returns how long the child waited, which the
  /// time limit does not count. A word other than ask or done ends the turns.
  Clock::duration heard(const char* words, std::size_t count, int answer_fd) {
    Clock::duration waited{};
    for (std::size_t i = 0; i < count; ++i) {
      if (words[i] == gpu_turn::kAsk && !held_) {
        const auto asked = Clock::now();
        turns_->take();
        held_ = true;
        held_since_ = Clock::now();
        waited += held_since_ - asked;
        turns_->waited_seconds += elapsed_seconds(asked, held_since_);
        ++turns_->turns;
        // A socket, sent without SIGPIPE: a child that died after asking must not take
        // the grader down with it (its end of the ask pipe then closes the turn).
        const char granted = gpu_turn::kGranted;
        while (send(answer_fd, &granted, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
        }
      } else if (words[i] == gpu_turn::kDone && held_) {
        end_turn();
      } else {
        end_turn();
        return waited;
      }
    }
    return waited;
  }

  void end_turn() {
    if (!held_) return;
    held_ = false;
    turns_->held_seconds += elapsed_seconds(held_since_, Clock::now());
    turns_->give_back();
  }

 private:
  ChildTurns* turns_;
  bool held_ = false;
  Clock::time_point held_since_;
};
}  // namespace

namespace {

// The process groups of the children running now, so that a grader stopped by a signal
// (Ctrl-C, a time limit's SIGTERM) takes its builds, checks and sandboxes with it. A
// signal handler reads the slots, so they are lock-free atomics, not a container.
constexpr std::size_t kMostChildren = 4096;
std::atomic<pid_t> running_children[kMostChildren];

std::size_t remember_child(pid_t child) {
  for (std::size_t i = 0; i < kMostChildren; ++i) {
    pid_t empty = 0;
    if (running_children[i].compare_exchange_strong(empty, child)) return i;
  }
  return kMostChildren;  // too many to remember: this one is not taken along
}

void forget_child(std::size_t slot) {
  if (slot < kMostChildren) running_children[slot].store(0);
}

extern "C" void stop_children_and_die(int signal_number) {
  for (auto& slot : running_children)
    if (const pid_t child = slot.load(); child > 0) kill(-child, SIGKILL);
  std::signal(signal_number, SIG_DFL);
  raise(signal_number);
}

}  // namespace

void stop_children_on_signals() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal_number, stop_children_and_die);
}

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& environment,
                          std::chrono::seconds limit, std::size_t max_output,
                          const std::string& working_directory, ResultChannel* channel, ChildTurns* turns) {
  ProcessResult result;
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
  int key_fds[2] = {-1, -1}, result_fds[2] = {-1, -1}, ask_fds[2] = {-1, -1}, answer_fds[2] = {-1, -1};
  if (turns && (pipe2(ask_fds, O_CLOEXEC) != 0 ||
                socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, answer_fds) != 0))
    return result;
  if (channel) {
    if (pipe2(key_fds, O_CLOEXEC) != 0 || pipe2(result_fds, O_CLOEXEC) != 0) return result;
    // The key fits in the pipe's buffer: write it, close our end, and the child finds
    // exactly the key followed by end-of-file.
    if (write(key_fds[1], channel->key.data(), channel->key.size()) != ssize_t(channel->key.size()))
      return result;
    close(key_fds[1]);
    key_fds[1] = -1;
  }
  // Everything the child needs is built before fork(): pplab grades from several
  // threads, and a forked child of a threaded program should not allocate.
  std::map<std::string, std::string> merged;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const auto eq = text.find('=');
    if (eq != std::string::npos) merged[text.substr(0, eq)] = text.substr(eq + 1);
  }
  merged.erase(pplab::channel::kKeyFdVariable);
  merged.erase(pplab::channel::kResultFdVariable);
  merged.erase(pplab::gpu_turn::kFdsVariable);
  if (turns) merged[pplab::gpu_turn::kFdsVariable] = std::to_string(kChildAskFd) + "," + std::to_string(kChildAnswerFd);
  if (channel) {
    merged[pplab::channel::kKeyFdVariable] = std::to_string(kChildKeyFd);
    merged[pplab::channel::kResultFdVariable] = std::to_string(kChildResultFd);
  }
  for (const auto& [name, value] : environment) merged[name] = value;
  std::vector<std::string> env_strings;
  for (const auto& [name, value] : merged) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& text : env_strings) envp.push_back(text.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) return result;
  if (child == 0) {
    // The child leads its own process group, so a timeout can kill everything it started.
    setpgid(0, 0);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    if (channel) {
      // dup2 clears FD_CLOEXEC on the copies, so only these two reach the program.
      dup2(key_fds[0], kChildKeyFd);
      dup2(result_fds[1], kChildResultFd);
    }
    if (turns) {
      dup2(ask_fds[1], kChildAskFd);
      dup2(answer_fds[0], kChildAnswerFd);
    }
    int null_in = open("/dev/null", O_RDONLY);
    if (null_in >= 0) dup2(null_in, STDIN_FILENO);
    if (null_in > STDERR_FILENO) close(null_in);
    if (!working_directory.empty() && chdir(working_directory.c_str()) != 0) _exit(127);
    execvpe(args[0], args.data(), envp.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(child, child);
  const std::size_t slot = remember_child(child);
  close(pipe_fds[1]);
  if (channel) {
    close(key_fds[0]);
    close(result_fds[1]);
  }
  if (turns) {
    close(ask_fds[1]);
    close(answer_fds[0]);
  }
  TurnKeeper keeper(turns);

  auto deadline = start + limit;
  bool timed_out = false;
  char buffer[65536];
  // Read the output and the result pipe until every writer of both has closed, and
  // answer the child's turns.
  pollfd fds[3] = {{pipe_fds[0], POLLIN, 0}, {channel ? result_fds[0] : -1, POLLIN, 0}, {turns ? ask_fds[0] : -1, POLLIN, 0}};
  std::string* sinks[2] = {&result.output, channel ? &channel->records : nullptr};
  for (;;) {
    if (fds[0].fd < 0 && fds[1].fd < 0) break;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    const int wait_ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
    const int ready = poll(fds, 3, std::min(wait_ms, 200));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t got = read(fds[2].fd, buffer, sizeof buffer);
      if (got <= 0) {  // the child is gone, or closed its end: no more turns
        keeper.end_turn();
        close(fds[2].fd);
        fds[2].fd = -1;
      } else {
        deadline += keeper.heard(buffer, std::size_t(got), answer_fds[1]);
      }
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got <= 0) {  // every writer closed: the child (and its children) are done with it
        close(fds[i].fd);
        fds[i].fd = -1;
        continue;
      }
      sinks[i]->append(buffer, std::size_t(got));
      if (sinks[i]->size() > max_output) {
        if (i == 0) {
          sinks[i]->erase(0, sinks[i]->size() - max_output);
          result.output_cut = true;
        }
        else sinks[i]->resize(max_output);  // records past the cap are dropped, never half-kept
      }
    }
  }
  for (auto& fd : fds)
    if (fd.fd >= 0) close(fd.fd);
  keeper.end_turn();
  if (turns) close(answer_fds[1]);

  // The output closed, but a child that closed its own stdout may still be running:
  // keep waiting for it only until the deadline.
  int status = 0;
  while (!timed_out && waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) timed_out = true;
    else usleep(2000);
  }
  if (timed_out) {
    kill(-child, SIGKILL);
    waitpid(child, &status, 0);
  }
  if (!timed_out) kill(-child, SIGKILL);  // leftovers the child started and abandoned
  forget_child(slot);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    result.ending = ProcessResult::Ending::timed_out;
    result.seconds = double(limit.count());
  } else if (WIFEXITED(status)) {
    result.ending = ProcessResult::Ending::exited;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.ending = ProcessResult::Ending::signalled;
    result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace pplab::cli
