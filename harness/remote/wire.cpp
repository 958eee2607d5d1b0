#include "wire.h"

#include <malloc.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace pplab::remote {
namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    // MSG_NOSIGNAL: a runner that died must not take the checker down with SIGPIPE.
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw WireError("the other process is gone");
    data += n;
    size -= std::size_t(n);
  }
}

// Reads exactly `size` bytes; returns how many arrived before the end of stream.
std::size_t read_all(int fd, char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += std::size_t(n);
  }
  return done;
}

}  // namespace

void send_frame(int fd, Op op, const std::string& body) {
  char header[12];
  const auto code = static_cast<std::uint32_t>(op);
  const std::uint64_t length = body.size();
  std::memcpy(header, &code, 4);
  std::memcpy(header + 4, &length, 8);
  write_all(fd, header, sizeof header);
  write_all(fd, body.data(), body.size());
}

bool receive_header(int fd, Op& op, std::uint64_t& length) {
  char header[12];
  const std::size_t got = read_all(fd, header, sizeof header);
  if (got == 0) return false;
  if (got < sizeof header) throw WireError("a message header was cut short");
  std::uint32_t code = 0;
  std::memcpy(&code, header, 4);
  std::memcpy(&length, header + 4, 8);
  if (length > kMaxBody) throw WireError("a message claimed " + std::to_string(length) + " bytes");
  op = static_cast<Op>(code);
  return true;
}

void receive_body(int fd, char* data, std::size_t size) {
  if (read_all(fd, data, size) < size) throw WireError("a message was cut short");
}

bool receive_frame(int fd, Op& op, std::string& body) {
  std::uint64_t length = 0;
  if (!receive_header(fd, op, length)) return false;
  body.resize(std::size_t(length));
  receive_body(fd, body.data(), body.size());
  return true;
}

void spin_until_readable(int fd, std::chrono::microseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  pollfd ready{fd, POLLIN, 0};
  while (::poll(&ready, 1, 0) == 0 && std::chrono::steady_clock::now() < deadline) {
  }
}

void keep_freed_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

}  // namespace pplab::remote
