// The one rule for writing a seed (pplab/seed.h), which --seed, PPLAB_SEED and the
// reproduce lines all go through.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "pplab/seed.h"

TEST_CASE("a seed is a whole number in decimal or 0x hex, up to 2^64-1") {
  CHECK(pplab::parse_seed("0", "--seed") == 0);
  CHECK(pplab::parse_seed("20261130", "--seed") == 20261130);
  CHECK(pplab::parse_seed("0x10", "--seed") == 16);
  CHECK(pplab::parse_seed("010", "--seed") == 10);  // decimal, not octal
  CHECK(pplab::parse_seed("18446744073709551615", "--seed") == 18446744073709551615ull);
}

TEST_CASE("anything else is refused with the setting's name") {
  for (const char* bad : {"", "-1", "+1", " 5", "5 ", "5x", "0x", "1e3", "18446744073709551616", "0xfffffffffffffffff"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(pplab::parse_seed(bad, "PPLAB_SEED"),
                         doctest::Contains("PPLAB_SEED needs a whole number"), std::invalid_argument);
  }
}
