// The build sandbox's view of the toolchain: a compiler installed outside /usr (a
// cluster's /opt/gcc) is named only in the cache of the workbook's build, since a
// student's tree takes it from the kit's settings as a plain variable; the sandbox must
// still show it, or every student's compile fails with "g++: not found".
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "process.h"
#include "sandbox.h"

namespace fs = std::filesystem;
using namespace pplab::cli;

namespace {

struct Scratch {
  fs::path root;
  Scratch() {
    std::string name = (fs::temp_directory_path() / "pplab-sandbox-test-XXXXXX").string();
    REQUIRE(mkdtemp(name.data()) != nullptr);
    root = name;
  }
  ~Scratch() {
    std::error_code error;
    fs::remove_all(root, error);
  }
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// A workbook's build whose C++ compiler is <root>/opt-gcc/bin/g++ (a link to the
// system's), and a student's tree configured from its kit, as `pplab grade` makes them.
struct Trees {
  Scratch scratch;
  fs::path compiler_root = scratch.root / "opt-gcc";
  fs::path compiler = compiler_root / "bin" / "g++";
  fs::path workbook_build = scratch.root / "workbook-build";
  fs::path student_build = scratch.root / "student" / "build";
  Trees() {
    fs::create_directories(compiler.parent_path());
    fs::create_symlink("/usr/bin/g++", compiler);
    write(workbook_build / "CMakeCache.txt", "CMAKE_CXX_COMPILER:FILEPATH=" + compiler.string() + "\n");
    fs::create_directories(workbook_build / "pplab-kit");
    write(student_build / "CMakeCache.txt", "CMAKE_COMMAND:INTERNAL=/usr/bin/cmake\nPPLAB_KIT:PATH=" +
                                                (workbook_build / "pplab-kit").string() + "\n");
  }
};

}  // namespace

TEST_CASE("sandbox: a student's tree shows the compiler of the build its kit came from") {
  Trees trees;
  const auto folders = toolchain_folders(trees.student_build);
  CHECK(std::find(folders.begin(), folders.end(), trees.compiler_root) != folders.end());
}

TEST_CASE("sandbox: a tree with no cache names no toolchain") {
  Scratch scratch;
  CHECK(toolchain_folders(scratch.root / "not-configured").empty());
}

TEST_CASE("sandbox: the build sandbox runs a compiler installed outside /usr") {
  const Sandbox sandbox = find_sandbox(false);
  if (sandbox.bwrap.empty()) {
    MESSAGE("no sandbox on this machine: " << sandbox.unavailable);
    return;
  }
  Trees trees;
  BuildView view;
  view.readable = toolchain_folders(trees.student_build);
  view.writable = {trees.student_build};
  const auto ran = run_process(sandboxed_build(sandbox, {trees.compiler.string(), "--version"}, view), {},
                               std::chrono::seconds(60));
  INFO(ran.output);
  CHECK(ran.succeeded());
}
