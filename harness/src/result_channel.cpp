// The check/benchmark side of the trusted result channel (see pplab/result_channel.h).
#include "pplab/result_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>

namespace pplab::channel {
namespace {

// Kept out of reach of other translation units by name; see the instructor guide for
// what this does not protect against.
unsigned char g_key[kKeyBytes];
int g_result_fd = -1;
bool g_active = false;
bool g_tampered = false;
unsigned long long g_sequence = 0;
std::mutex g_mutex;

int fd_from_env(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  return (end && *end == '\0' && fd >= 0 && fd < 65536) ? int(fd) : -1;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += std::size_t(n);
  }
}

// Runs before C++ static initialisers of default priority, so before lab code's own.
__attribute__((constructor(101))) void open_channel() {
  const int key_fd = fd_from_env(kKeyFdVariable);
  const int result_fd = fd_from_env(kResultFdVariable);
  if (key_fd < 0 || result_fd < 0) return;
  g_result_fd = result_fd;
  fcntl(result_fd, F_SETFD, FD_CLOEXEC);  // helpers the process starts do not inherit it
  // pplab wrote the key and closed its end before starting us: it is all there or gone.
  std::size_t got = 0;
  for (;;) {
    pollfd p{key_fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) break;
    const ssize_t n = ::read(key_fd, g_key + got, kKeyBytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += std::size_t(n);
    if (got == kKeyBytes) break;
  }
  ::close(key_fd);
  if (got == kKeyBytes) {
    g_active = true;
  } else {
    g_tampered = true;
    write_all(result_fd, "TAMPERED the key pipe was empty when the harness started: code that ran "
                         "before it read the key\n");
  }
}

}  // namespace

bool active() { return g_active; }
bool tampered() { return g_tampered; }

void send(const std::string& json) {
  if (!g_active) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  const std::string body = std::to_string(++g_sequence) + " " + json;
  write_all(g_result_fd, mac_hex(g_key, body) + " " + body + "\n");
}

}  // namespace pplab::channel
