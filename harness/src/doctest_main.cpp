// The main of every lab's check binary. It only parses options: listing the tests
// (doctest_discover_tests does so at build time) must never touch a GPU.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "pplab/inputs.h"

int main(int argc, char** argv) {
  // Take --seed=<n> for ourselves; pass everything else to doctest.
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--seed=", 7) == 0) {
      char* end = nullptr;
      unsigned long long seed = std::strtoull(argv[i] + 7, &end, 0);
      if (end == argv[i] + 7 || *end != '\0') {
        std::cerr << "error: --seed needs a whole number, got '" << (argv[i] + 7) << "'\n";
        return 2;
      }
      pplab::set_run_seed(seed);
      continue;
    }
    doctest_args.push_back(argv[i]);
  }
  doctest::Context context(static_cast<int>(doctest_args.size()), doctest_args.data());
  try {
    return context.run();
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
}
