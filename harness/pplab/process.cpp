#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

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

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& environment,
                          std::chrono::seconds limit, std::size_t max_output,
                          const std::string& working_directory) {
  ProcessResult result;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return result;
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) return result;
  if (child == 0) {
    // The child leads its own process group, so a timeout can kill everything it started.
    setpgid(0, 0);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    int null_in = open("/dev/null", O_RDONLY);
    if (null_in >= 0) dup2(null_in, STDIN_FILENO);
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    if (!working_directory.empty() && chdir(working_directory.c_str()) != 0) _exit(127);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(child, child);
  close(pipe_fds[1]);

  const auto deadline = start + limit;
  bool timed_out = false;
  char buffer[65536];
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    const int wait_ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
    pollfd fd{pipe_fds[0], POLLIN, 0};
    const int ready = poll(&fd, 1, std::min(wait_ms, 200));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;  // every writer closed: the child (and its children) are done
    result.output.append(buffer, std::size_t(got));
    if (result.output.size() > max_output)
      result.output.erase(0, result.output.size() - max_output);
  }
  close(pipe_fds[0]);

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
