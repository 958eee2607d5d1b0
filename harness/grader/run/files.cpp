#include "files.h"

#include <unistd.h>

#include <fstream>
#include <stdexcept>

namespace pplab::cli {
namespace fs = std::filesystem;

void write_text_file(const fs::path& path, const std::string& text) {
  // Write beside the target, then rename: a reader never sees half a file, and a
  // file lab code may have planted at the path is replaced, not appended to.
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
}

}  // namespace pplab::cli
