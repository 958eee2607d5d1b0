/// \file
/// \brief The libraries that would do a lab's work for it (CUB, Thrust, cuBLAS, ...):
/// what a points file's "libraries" may name, and how the hygiene check recognises each.
#pragma once
#include <string>
#include <vector>

namespace pplab::cli {

/// One library: by the folder or file name of its headers (CUB, Thrust and CUTLASS are
/// headers only) and by the names of the functions a linked one exports.
struct Library {
  const char* name;
  std::vector<const char*> header_folders;  ///< a path component: .../include/cub/...
  std::vector<const char*> name_prefixes;   ///< a header's file name or a symbol's name
};

/// Every library the checks know.
const std::vector<Library>& known_libraries();

/// Whether `name` is one of them ("cub", "thrust", ...), and all their names.
bool known_library(const std::string& name);
std::string known_library_names();

}  // namespace pplab::cli
