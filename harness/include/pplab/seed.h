/// \file
/// \brief The seed of a run's random inputs: its default and the one rule for writing it.
///
/// A seed comes from `--seed` (pplab grade, pplab test, a check binary), `PPLAB_SEED` or a
/// report's reproduce line; every one of them is read by parse_seed(), so a seed that one
/// tool accepts means the same to every other.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace pplab {

/// The seed when none is given.
inline constexpr std::uint64_t kDefaultSeed = 20261130;

/// `text` as a seed: a whole number from 0 to 2^64-1, in decimal or 0x hex. Anything else
/// (empty, a sign, spaces, trailing characters, out of range) throws
/// std::invalid_argument, whose message names `what` ("--seed", "PPLAB_SEED").
inline std::uint64_t parse_seed(const std::string& text, const std::string& what) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const bool well_formed =
      !digits.empty() && digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos;
  errno = 0;
  const unsigned long long value = well_formed ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!well_formed || errno == ERANGE)
    throw std::invalid_argument(what + " needs a whole number from 0 to 2^64-1 (decimal or 0x hex), got '" + text + "'");
  return value;
}

}  // namespace pplab
