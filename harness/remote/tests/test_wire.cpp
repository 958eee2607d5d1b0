// The checker-runner protocol (wire.h) at the trust boundary: the runner holds student
// code, so every frame and body it sends is untrusted. These hold the framing and the
// reader to what a hostile or dying peer can send: a body that claims more than it has,
// a header cut short, a length past the limit, a peer gone mid-body.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "wire.h"

using pplab::remote::kMaxBody;
using pplab::remote::Op;
using pplab::remote::Reader;
using pplab::remote::receive_frame;
using pplab::remote::send_frame;
using pplab::remote::WireError;
using pplab::remote::Writer;

namespace {

// Two connected ends, as the checker and runner have; closed when it goes.
struct Pipe {
  int checker = -1, runner = -1;
  Pipe() {
    int ends[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0);
    checker = ends[0];
    runner = ends[1];
  }
  ~Pipe() {
    if (checker >= 0) ::close(checker);
    if (runner >= 0) ::close(runner);
  }
  void close_runner() {
    ::close(runner);
    runner = -1;
  }
  // Raw bytes from the runner's end, as a hostile runner may write them.
  void runner_writes(const void* data, std::size_t size) const {
    REQUIRE(::write(runner, data, size) == ssize_t(size));
  }
};

std::string header(std::uint32_t op, std::uint64_t length) {
  std::string bytes(12, '\0');
  std::memcpy(bytes.data(), &op, 4);
  std::memcpy(bytes.data() + 4, &length, 8);
  return bytes;
}

}  // namespace

TEST_CASE("values written are read back in order, and the reader says when it is at the end") {
  Writer writer;
  writer.put<std::int32_t>(-7).put<std::uint64_t>(1ull << 40).put_text("saxpy.cu").put<double>(2.5);
  Reader reader(std::string_view(writer.bytes()));
  CHECK(reader.get<std::int32_t>() == -7);
  CHECK(reader.get<std::uint64_t>() == 1ull << 40);
  CHECK(reader.get_text() == "saxpy.cu");
  CHECK_FALSE(reader.at_end());
  CHECK(reader.get<double>() == 2.5);
  CHECK(reader.at_end());
}

TEST_CASE("a body read past its end is refused, never read beyond") {
  Writer writer;
  writer.put<std::uint32_t>(5);
  Reader reader(std::string_view(writer.bytes()));
  CHECK_THROWS_AS(reader.get<std::uint64_t>(), WireError);
}

TEST_CASE("a byte string that claims more bytes than the body holds is refused") {
  for (std::uint64_t claimed : {std::uint64_t(9), std::uint64_t(1) << 40, ~std::uint64_t(0)}) {
    CAPTURE(claimed);
    Writer writer;
    writer.put<std::uint64_t>(claimed).put<std::uint64_t>(0);  // 8 bytes follow, not `claimed`
    Reader reader(std::string_view(writer.bytes()));
    CHECK_THROWS_AS(reader.get_bytes(), WireError);
  }
}

TEST_CASE("a frame crosses the socket whole, and a clean close between frames is the end") {
  Pipe pipe;
  Writer body;
  body.put<std::uint64_t>(42).put_text("hello");
  send_frame(pipe.runner, Op::traffic, body.bytes());
  send_frame(pipe.runner, Op::hello, "");
  pipe.close_runner();
  Op op{};
  std::string got;
  REQUIRE(receive_frame(pipe.checker, op, got));
  CHECK(op == Op::traffic);
  CHECK(got == body.bytes());
  REQUIRE(receive_frame(pipe.checker, op, got));
  CHECK(op == Op::hello);
  CHECK(got.empty());
  CHECK_FALSE(receive_frame(pipe.checker, op, got));
}

TEST_CASE("a header cut short is refused") {
  Pipe pipe;
  const std::string whole = header(static_cast<std::uint32_t>(Op::hello), 0);
  pipe.runner_writes(whole.data(), 7);
  pipe.close_runner();
  Op op{};
  std::string got;
  CHECK_THROWS_WITH_AS(receive_frame(pipe.checker, op, got), "a message header was cut short", WireError);
}

TEST_CASE("a frame that claims more than the largest body is refused before anything is allocated") {
  Pipe pipe;
  const std::string claim = header(static_cast<std::uint32_t>(Op::copy_to_host), kMaxBody + 1);
  pipe.runner_writes(claim.data(), claim.size());
  Op op{};
  std::string got;
  CHECK_THROWS_AS(receive_frame(pipe.checker, op, got), WireError);
  CHECK(got.empty());
}

TEST_CASE("a peer that goes away in the middle of a body is refused, not waited for") {
  Pipe pipe;
  const std::string claim = header(static_cast<std::uint32_t>(Op::copy_to_host), 100);
  pipe.runner_writes(claim.data(), claim.size());
  pipe.runner_writes("only ten b", 10);
  pipe.close_runner();
  Op op{};
  std::string got;
  CHECK_THROWS_WITH_AS(receive_frame(pipe.checker, op, got), "a message was cut short", WireError);
}

TEST_CASE("sending to a peer that is gone is an error, not a SIGPIPE that ends the checker") {
  Pipe pipe;
  pipe.close_runner();
  CHECK_THROWS_WITH_AS(send_frame(pipe.checker, Op::hello, std::string(1 << 20, 'x')), "the other process is gone",
                       WireError);
}
