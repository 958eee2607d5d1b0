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

// Packages found outside /usr (Boost under /opt, as on a machine whose system Boost lacks
// Boost.Context): the build reads their headers and the runner loads their libraries, so
// every sandbox shows them. Found in the grading kit's settings; /usr is shown already.
TEST_CASE("sandbox: the kit's package prefixes outside /usr are named, /usr's are not") {
  Scratch scratch;
  const fs::path listed = scratch.root / "deps";
  const fs::path boost = scratch.root / "boost-prefix";
  fs::create_directories(listed);
  fs::create_directories(boost / "lib" / "x86_64-linux-gnu" / "cmake" / "Boost-1.74.0");
  write(scratch.root / "kit" / "settings.cmake",
        "set(PPLAB_BACKEND \"sim\")\n"
        "set(CMAKE_PREFIX_PATH \"" + listed.string() + ";/usr;" + (scratch.root / "missing").string() + "\")\n"
        "set(Boost_DIR \"" + (boost / "lib" / "x86_64-linux-gnu" / "cmake" / "Boost-1.74.0").string() + "\")\n");
  const auto folders = package_folders({scratch.root / "kit", scratch.root / "kit"});  // named twice, listed once
  REQUIRE(folders.size() == 2);
  CHECK(folders[0] == fs::canonical(listed));
  CHECK(folders[1] == fs::canonical(boost));
  CHECK(package_folders({scratch.root / "no-kit"}).empty());

  Sandbox sandbox;
  sandbox.bwrap = "/usr/bin/bwrap";
  sandbox.package_folders = folders;
  const auto words = sandboxed(sandbox, "/usr/bin/true");
  const auto shown = [&](const fs::path& folder) {
    for (std::size_t i = 0; i + 2 < words.size(); ++i)
      if (words[i] == "--ro-bind-try" && words[i + 1] == folder.string() && words[i + 2] == folder.string()) return true;
    return false;
  };
  CHECK(shown(folders[0]));
  CHECK(shown(folders[1]));
}

TEST_CASE("sandbox: a runner sees the package folders, and no other folder outside /usr") {
  Sandbox sandbox = find_sandbox(false);
  if (sandbox.bwrap.empty()) {
    MESSAGE("no sandbox on this machine: " << sandbox.unavailable);
    return;
  }
  Scratch scratch;
  fs::permissions(scratch.root, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
  const fs::path library = scratch.root / "opt-boost" / "lib" / "libpplab-test.so";
  write(library, "a library a runner loads");
  fs::permissions(library.parent_path().parent_path(), fs::perms::owner_all | fs::perms::others_read |
                                                          fs::perms::others_exec);
  fs::permissions(library.parent_path(), fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  // `test -f <library> -a -x /usr/bin/true`: run in the sandbox, the program last.
  const std::vector<std::string> sees_library = {"/usr/bin/test", "-f", library.string(), "-a", "-x"};
  const auto unseen = run_process(sandboxed(sandbox, "/usr/bin/true", sees_library), {}, std::chrono::seconds(60));
  CHECK_FALSE(unseen.succeeded());
  sandbox.package_folders = {scratch.root / "opt-boost"};
  const auto seen = run_process(sandboxed(sandbox, "/usr/bin/true", sees_library), {}, std::chrono::seconds(60));
  INFO(seen.output);
  CHECK(seen.succeeded());
}
