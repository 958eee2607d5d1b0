#include "libraries.h"

namespace pplab::cli {

const std::vector<Library>& known_libraries() {
  static const std::vector<Library> libraries = {
      {"cub", {"cub"}, {}},
      {"thrust", {"thrust"}, {}},
      {"cutlass", {"cutlass", "cute"}, {}},
      {"cublas", {}, {"cublas"}},
      {"cufft", {}, {"cufft"}},
      {"curand", {}, {"curand"}},
      {"cusparse", {}, {"cusparse"}},
      {"cusolver", {}, {"cusolver"}},
      {"cudnn", {}, {"cudnn"}},
      {"nccl", {}, {"nccl"}},
      {"npp", {}, {"npp"}},
  };
  return libraries;
}

bool known_library(const std::string& name) {
  for (const auto& library : known_libraries())
    if (name == library.name) return true;
  return false;
}

std::string known_library_names() {
  std::string names;
  for (const auto& library : known_libraries()) names += (names.empty() ? "" : ", ") + std::string(library.name);
  return names;
}

}  // namespace pplab::cli
