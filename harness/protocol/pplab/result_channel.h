/// \file
/// \brief The trusted result channel between `pplab grade` (or `pplab test`) and a lab's
/// check or benchmark binary.
///
/// Student code runs inside the check binary, so nothing the binary prints or its exit
/// status can be trusted on its own. When pplab starts a binary it passes two pipes:
///
/// - `PPLAB_KEY_FD`: the read end of a pipe holding a fresh random key (16 bytes) and
///   nothing else. The harness reads it in a constructor that runs before ordinary
///   static initialisers, so before any lab code. If the pipe is already empty, some
///   other code read it first: the harness reports tampering.
/// - `PPLAB_RESULT_FD`: the write end of a pipe that only pplab reads. The harness
///   writes one record per line: `<mac> <seq> <json>`, where `<mac>` is SipHash-2-4 of
///   `<seq> <json>` under the key. pplab accepts only records whose MAC checks, in
///   sequence order.
///
/// The doctest main writes one `case` record per test case (assertions, failures, the
/// first failure message, an exception if one escaped) and an `end` record after the
/// whole run; a process that exits before the `end` record (exit(0) from lab code,
/// abort, a crash) therefore gets no pass, whatever it printed. Benchmark binaries write
/// one `measurement` record per timing.
///
/// Without the two variables (a student running a binary by hand, CTest, doctest
/// discovery at build time) the channel is off and everything behaves as before.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace pplab::channel {

/// How a check's exception begins when the lab's process (the runner, harness/remote)
/// ended under it: pplab then judges the end (a fault, a crash, an early exit) from the
/// checker's words that follow, not from anything the lab's process printed.
inline constexpr const char* kRunnerEnded = "the lab's code ended its process";

/// What follows that first line: the end of what the lab's process printed (already
/// relayed live, line by line, so a console shows it once: harness/src/doctest_main.cpp).
inline constexpr const char* kRunnerPrinted = "it printed, at the end:\n";

/// How each line the lab's process printed begins in a checker's output: the lab's words,
/// relayed, never the harness's. Reports leave them out (pplab::cli::checker_lines).
inline constexpr const char* kLabLinePrefix = "lab> ";

/// Bytes of the per-process key.
inline constexpr std::size_t kKeyBytes = 16;

/// Environment variable names shared by both sides.
inline constexpr const char* kKeyFdVariable = "PPLAB_KEY_FD";
inline constexpr const char* kResultFdVariable = "PPLAB_RESULT_FD";

/// SipHash-2-4 (Aumasson & Bernstein): a keyed hash made for authenticating short
/// messages, 64-bit tag. Header-only so that pplab and the harness share one copy.
inline std::uint64_t siphash24(const unsigned char key[kKeyBytes], std::string_view message) {
  auto rotl = [](std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  auto load64 = [](const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  };
  const std::uint64_t k0 = load64(key), k1 = load64(key + 8);
  std::uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
  std::uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
  auto round = [&] {
    v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
    v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
  };
  const auto* data = reinterpret_cast<const unsigned char*>(message.data());
  const std::size_t size = message.size();
  const std::size_t whole = size - size % 8;
  for (std::size_t i = 0; i < whole; i += 8) {
    const std::uint64_t m = load64(data + i);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  std::uint64_t last = std::uint64_t(size & 0xff) << 56;
  for (std::size_t i = 0; i < size % 8; ++i) last |= std::uint64_t(data[whole + i]) << (8 * i);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

/// The tag as 16 lowercase hex digits.
inline std::string mac_hex(const unsigned char key[kKeyBytes], std::string_view message) {
  static const char* digits = "0123456789abcdef";
  std::uint64_t tag = siphash24(key, message);
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, tag >>= 4) hex[std::size_t(i)] = digits[tag & 0xf];
  return hex;
}

/// True when pplab opened a channel for this process and the key was read intact.
bool active();
/// True when the channel was offered but its key was gone or short at startup.
bool tampered();
/// Sends one record (a JSON object text, no newline) if the channel is active.
void send(const std::string& json);

}  // namespace pplab::channel
