// One replacement in a file being rewritten: the bytes [begin, end) become `text`.
#pragma once
#include <cstddef>
#include <string>

namespace pplab_sim_rewrite {
struct Edit {
  std::size_t begin, end;
  std::string text;
};
}  // namespace pplab_sim_rewrite
