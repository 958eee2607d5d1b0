// The checker starts the runner as a child with one socket (fd 3) for requests and one
// pipe for everything it prints. What it prints is relayed, capped, to the checker's
// stderr so a student sees the emulator's reports as before; the tail is kept to quote
// when the runner ends. Which program runs, and inside which sandbox, is the grader's
// choice: PPLAB_RUNNER_COMMAND, a JSON array, replaces the runner built beside the checker.
#include "client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace pplab::remote {
namespace {

constexpr std::size_t kRelayLimit = std::size_t(1) << 20;  // bytes of runner output shown
constexpr std::size_t kTailBytes = 6000;                     // quoted when it ends

// The runner's file name beside the checker, when the checker is not named after it.
std::string& runner_beside() {
  static std::string name;
  return name;
}

std::vector<std::string> runner_command() {
  if (const char* text = std::getenv("PPLAB_RUNNER_COMMAND"); text && *text) {
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (!parsed.is_array() || parsed.empty())
      throw std::runtime_error("PPLAB_RUNNER_COMMAND must be a JSON array of strings");
    return parsed.get<std::vector<std::string>>();
  }
  // Built beside the checker: labNN_name -> labNN_name_runner.
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) throw std::runtime_error("could not find the checker's own path to start its runner");
  const std::string path(self, std::size_t(length));
  if (!runner_beside().empty()) return {path.substr(0, path.rfind('/') + 1) + runner_beside()};
  return {path + "_runner"};
}

// The runner's environment: the checker's, less the harness's own variables (the seed,
// the result channel's descriptors, the runner command). The emulator's settings stay,
// except its thread order, which travels with each check.
std::vector<std::string> runner_environment() {
  std::vector<std::string> kept;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const bool harness = text.rfind("PPLAB_", 0) == 0;
    const bool emulator_setting = text.rfind("PPLAB_SIM_", 0) == 0 && text.rfind("PPLAB_SIM_SCHEDULE=", 0) != 0;
    if (!harness || emulator_setting) kept.push_back(text);
  }
  return kept;
}

class Runner {
 public:
  ~Runner() { stop(); }

  std::string request(Op op, const std::string& body) {
    if (pid_ <= 0) start();
    if (synchronizing && op != Op::synchronized) {
      Writer wrapped;
      wrapped.put<std::uint32_t>(std::uint32_t(op)).put_bytes(body.data(), body.size());
      Reader reply(request(Op::synchronized, wrapped.bytes()));
      std::string inner(reply.get_bytes());
      const auto synced = reply.get<std::int32_t>();
      if (synchronize_error == 0) synchronize_error = synced;
      return inner;
    }
    try {
      send_frame(socket_, op, body);
      if (busy_waiting) spin_until_readable(socket_, std::chrono::milliseconds(200));
      Op reply_op{};
      std::string reply;
      if (!receive_frame(socket_, reply_op, reply)) throw WireError("it closed the connection");
      if (reply_op != op) throw WireError("it answered a different request");
      relay_pending();
      return reply;
    } catch (const WireError& error) {
      ended(error.what());
    }
  }

  // A download read from the socket straight into `to`: the reply's body is `i32 error,
  // u64 size, bytes`, and only a reply of exactly `count` bytes is accepted.
  std::int32_t copy_to_host(std::uint64_t from, void* to, std::uint64_t count) {
    if (pid_ <= 0) start();
    Writer body;
    body.put<std::uint64_t>(from).put<std::uint64_t>(count);
    if (synchronizing) {  // the wrapped round trip carries its reply inside another's
      Reader reply(request(Op::copy_to_host, body.bytes()));
      const auto error = reply.get<std::int32_t>();
      const std::string_view bytes = reply.get_bytes();
      if (error == 0 && bytes.size() != count) ended("it sent back the wrong number of bytes");
      if (error == 0) std::memcpy(to, bytes.data(), count);
      return error;
    }
    try {
      send_frame(socket_, Op::copy_to_host, body.bytes());
      if (busy_waiting) spin_until_readable(socket_, std::chrono::milliseconds(200));
      Op reply_op{};
      std::uint64_t length = 0;
      if (!receive_header(socket_, reply_op, length)) throw WireError("it closed the connection");
      if (reply_op != Op::copy_to_host) throw WireError("it answered a different request");
      constexpr std::uint64_t kLead = sizeof(std::int32_t) + sizeof(std::uint64_t);
      if (length < kLead) throw WireError("a message ended before its contents");
      char lead[kLead];
      receive_body(socket_, lead, kLead);
      std::int32_t error = 0;
      std::uint64_t size = 0;
      std::memcpy(&error, lead, sizeof error);
      std::memcpy(&size, lead + sizeof error, sizeof size);
      if (size != length - kLead) throw WireError("a message ended before its contents");
      if (error == 0 && size != count) throw WireError("it sent back the wrong number of bytes");
      if (error == 0) {
        receive_body(socket_, static_cast<char*>(to), std::size_t(count));
      } else {
        std::string rest(std::size_t(size), '\0');
        receive_body(socket_, rest.data(), rest.size());
      }
      relay_pending();
      return error;
    } catch (const WireError& error) {
      ended(error.what());
    }
  }

  bool running() const { return pid_ > 0; }

  bool busy_waiting = false;  // BusyWaiting
  bool synchronizing = false;  // SynchronizedRequests
  int synchronize_error = 0;
  // The note the emulator prints under a fault, sent again to a new runner.
  std::string fault_note;
  int schedule_kind = 0;
  unsigned schedule_seed = 0;

 private:
  [[noreturn]] void ended(const std::string& how) {
    const int status = reap(std::chrono::seconds(2));
    finish_relay(std::chrono::seconds(1));
    // First line: how it ended, in the checker's words; then what it printed.
    std::string message =
        std::string(kRunnerEnded) + ": " + (status == -1 ? how : describe(status, wrapped_)) + "\n";
    std::string tail;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tail = tail_;
    }
    if (!tail.empty()) message += channel::kRunnerPrinted + tail;
    close_all();
    throw RunnerEnded(message);
  }

  // `wrapped`: the runner was started through another program (the sandbox's bubblewrap,
  // setpriv, prlimit), which passes a death by signal N on as exit status 128 + N.
  static std::string describe(int status, bool wrapped) {
    if (status == -1) return "it stopped answering";
    const bool wrapped_signal = wrapped && WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
                                WEXITSTATUS(status) - 128 < NSIG;
    if (WIFEXITED(status) && !wrapped_signal)
      return "it exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status) || wrapped_signal) {
      const int signal = wrapped_signal ? WEXITSTATUS(status) - 128 : WTERMSIG(status);
      if (signal == SIGABRT) return "crashed: aborted (abort() was called, or a failed assert() or std::terminate)";
      if (signal == SIGSEGV) return "crashed: segmentation fault (a bad host pointer, or device memory read on the host?)";
      return std::string("crashed: signal ") + strsignal(signal);
    }
    return "status " + std::to_string(status);
  }

  void start() {
    keep_freed_memory();
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
      throw std::runtime_error("could not make the runner's socket");
    int output[2];
    if (pipe2(output, O_CLOEXEC) != 0) throw std::runtime_error("could not make the runner's output pipe");
    const auto command = runner_command();
    wrapped_ = command.size() > 1;
    const auto environment = runner_environment();
    std::vector<char*> argv, envp;
    for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    for (const auto& entry : environment) envp.push_back(const_cast<char*>(entry.c_str()));
    envp.push_back(nullptr);

    const std::string cannot_run = "pplab: could not run the lab's runner " + command.front() + "\n";
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("could not start the runner");
    if (pid == 0) {
      // The runner never outlives the checker that judges it.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);
      dup2(sockets[1], 3);
      dup2(output[1], 1);
      dup2(output[1], 2);
      const int null_input = open("/dev/null", O_RDONLY);
      if (null_input >= 0) dup2(null_input, 0);
      execve(argv[0], argv.data(), envp.data());
      (void)!write(2, cannot_run.data(), cannot_run.size());
      _exit(127);
    }
    ::close(sockets[1]);
    ::close(output[1]);
    fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK);
    pid_ = pid;
    socket_ = sockets[0];
    output_ = output[0];
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tail_.clear();
      relayed_ = 0;
      at_line_start_ = true;
    }
    relay_done_ = false;
    relay_ = std::thread([this, fd = output_] { relay(fd); });
    // A new runner starts as the last one was told to run.
    Writer schedule;
    schedule.put<std::int32_t>(schedule_kind).put<std::uint32_t>(schedule_seed);
    request(Op::set_schedule, schedule.bytes());
    if (!fault_note.empty()) request(Op::set_fault_note, Writer().put_text(fault_note).bytes());
  }

  void relay(int fd) {
    for (;;) {
      pollfd ready{fd, POLLIN, 0};
      const int events = poll(&ready, 1, 100);
      if (events < 0 && errno == EINTR) continue;
      if (events == 0) {
        if (stop_relay_) break;
        continue;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (relay_once(fd) == 0) break;
    }
    relay_done_ = true;
  }

  // Relays what the runner printed before it answered, so its lines come ahead of the
  // checker's own next lines (compute-sanitizer's reports are matched to checks by order).
  void relay_pending() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (output_ < 0) return;
    while (relay_once(output_) > 0) {
    }
  }

  // One read of the runner's output (the pipe does not block): bytes read, 0 at its end,
  // -1 when nothing is waiting.
  ssize_t relay_once(int fd) {
    char buffer[4096];
    ssize_t n;
    do n = ::read(fd, buffer, sizeof buffer);
    while (n < 0 && errno == EINTR);
    if (n < 0) return -1;
    if (n == 0) return 0;
    const std::string quoted = quote(std::string_view(buffer, std::size_t(n)));
    const std::size_t room = kRelayLimit - std::min(kRelayLimit, relayed_);
    const std::size_t shown = std::min<std::size_t>(quoted.size(), room);
    if (shown > 0) (void)!::write(2, quoted.data(), shown);
    if (relayed_ < kRelayLimit && relayed_ + quoted.size() >= kRelayLimit) {
      const char* cut = "\npplab: the lab's process printed more than 1 MiB; the rest is not shown\n";
      (void)!::write(2, cut, std::strlen(cut));
    }
    relayed_ += quoted.size();
    note_warnings(std::string_view(buffer, std::size_t(n)));
    tail_.append(quoted);
    if (tail_.size() > kTailBytes) tail_.erase(0, tail_.size() - kTailBytes);
    return n;
  }

  // Keeps the emulator's warnings of uninitialised shared reads (the first line and the
  // detail lines under it), which a check then fails on (pplab/device_work.h).
  void note_warnings(std::string_view text) {
    static const std::string warning = "pplab-sim: warning: ", uninitialised = "uninitialised shared read";
    for (const char c : text) {
      if (c != '\n') {
        if (line_.size() < 1000) line_ += c;
        continue;
      }
      const std::size_t at = line_.find(warning);
      const bool first = at != std::string::npos && line_.compare(at + warning.size(), uninitialised.size(), uninitialised) == 0;
      const bool detail = at != std::string::npos && line_.compare(at + warning.size(), 2, "  ") == 0;
      if (first) capturing_ = true;
      else if (!detail) capturing_ = false;
      if (capturing_ && warnings_.size() < 4000) warnings_ += line_.substr(at + warning.size()) + "\n";
      line_.clear();
    }
  }

 public:
  std::string take_warnings() {
    relay_pending();  // what the runner printed before its last answer
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(warnings_, std::string());
  }

 private:
  // Every line the lab's process prints starts with kLabLinePrefix, so whoever reads the
  // checker's output can tell the harness's words from the lab's.
  std::string quote(std::string_view text) {
    std::string quoted;
    for (const char c : text) {
      if (at_line_start_) quoted += channel::kLabLinePrefix;
      quoted += c;
      at_line_start_ = c == '\n';
    }
    return quoted;
  }

  // Waits for the runner's exit status; kills it when it does not end in time. -1 when
  // it had to be killed (it was still running: a broken protocol, not an exit).
  int reap(std::chrono::milliseconds limit) {
    if (pid_ <= 0) return -1;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    for (;;) {
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (done < 0) {
        status = -1;
        break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        status = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    pid_ = -1;
    return status;
  }

  // The relay ends at the pipe's end of stream; a helper the runner left behind could
  // hold the pipe open, so the wait is bounded.
  void finish_relay(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (relay_.joinable() && !relay_done_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop_relay();
  }
  void stop_relay() {
    stop_relay_ = true;
    if (relay_.joinable()) relay_.join();
    stop_relay_ = false;
  }

  void close_all() {
    if (socket_ >= 0) ::close(socket_);
    socket_ = -1;
    stop_relay();
    if (output_ >= 0) ::close(output_);
    output_ = -1;
  }

  void stop() {
    if (socket_ >= 0) ::close(socket_);  // the runner's loop ends at end of stream
    socket_ = -1;
    if (pid_ > 0) reap(std::chrono::seconds(5));
    close_all();
  }

  pid_t pid_ = -1;
  int socket_ = -1;
  int output_ = -1;
  std::thread relay_;
  std::atomic<bool> relay_done_{false}, stop_relay_{false};
  std::mutex mutex_;
  std::string tail_;
  std::string line_, warnings_;  // note_warnings
  bool capturing_ = false;
  bool wrapped_ = false;  // describe()
  std::size_t relayed_ = 0;
  bool at_line_start_ = true;
};

Runner& the_runner() {
  static Runner runner;
  return runner;
}

}  // namespace

std::string request(Op op, const std::string& body) { return the_runner().request(op, body); }

std::int32_t copy_to_host(std::uint64_t from, void* to, std::uint64_t count) {
  return the_runner().copy_to_host(from, to, count);
}

bool request_if_running(Op op, const std::string& body, std::string& reply) {
  if (!the_runner().running()) return false;
  try {
    reply = the_runner().request(op, body);
    return true;
  } catch (const RunnerEnded&) {
    return false;
  }
}

const std::string& backend() {
  static const std::string name = Reader(request(Op::hello)).get_text();
  return name;
}

void remember_schedule(int kind, unsigned seed) {
  the_runner().schedule_kind = kind;
  the_runner().schedule_seed = seed;
}
void remember_fault_note(const std::string& note) { the_runner().fault_note = note; }

std::string take_uninitialised_reads() { return the_runner().take_warnings(); }

SynchronizedRequests::SynchronizedRequests() {
  if (the_runner().synchronizing) throw std::logic_error("SynchronizedRequests inside another");
  the_runner().synchronizing = true;
  the_runner().synchronize_error = 0;
}
SynchronizedRequests::~SynchronizedRequests() { the_runner().synchronizing = false; }
int SynchronizedRequests::error() const { return the_runner().synchronize_error; }

BusyWaiting::BusyWaiting() : was_(the_runner().busy_waiting) {
  if (backend() == "gpu") the_runner().busy_waiting = true;
}
BusyWaiting::~BusyWaiting() { the_runner().busy_waiting = was_; }

void use_runner_beside(const std::string& file_name) { runner_beside() = file_name; }

}  // namespace pplab::remote
