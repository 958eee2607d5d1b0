/// \file
/// \brief The sandbox a student's code runs in when a class is graded: bubblewrap.
///
/// A lab's runner (harness/remote) is started by its checker inside
/// `bwrap ... -- prlimit ... -- <runner>`: its own user, PID, network, IPC, UTS and cgroup
/// namespaces, uid and gid 65534, killed with the checker (--die-with-parent), a
/// read-only /usr and the runner binary, a private /tmp of 256 MiB, and the GPU's device
/// nodes only on the GPU backend. Its limits: processes and threads, open files, file
/// size, memory on the emulator, no core dumps. A root grader runs each sandbox as a
/// user of its own outside (`setpriv`), since Linux counts no process limit for root. Nothing of the workbook's sources, solutions, build folders, the
/// class folder or the grader's output is in its view. The checker passes it on through
/// PPLAB_RUNNER_COMMAND.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace pplab::cli {

/// The most CPU seconds one compiler process of a student's build may take: the heaviest
/// check file of the workbook takes under 100, a `constexpr` loop forever.
constexpr int kCompileCpuSeconds = 240;

struct Sandbox {
  std::filesystem::path bwrap;   ///< empty: no sandbox
  std::string unavailable;       ///< why there is none
  bool gpu = false;              ///< bind the GPU's device nodes and the CUDA toolkit
  bool sized_tmp = false;        ///< this bubblewrap caps the runner's /tmp (--size, 0.8 on)
  int compile_seconds = kCompileCpuSeconds;  ///< CPU seconds of one compiler process (--compile-limit)
  /// Where the workbook's build found its packages outside /usr (Boost under /opt, a
  /// cluster's module tree): read-only in every sandbox, for the builds' headers and the
  /// runners' shared libraries (package_folders).
  std::vector<std::filesystem::path> package_folders;
};

/// The install prefixes outside /usr that grading kits' settings name (`<build>/pplab-kit`:
/// each CMAKE_PREFIX_PATH entry, and the prefix of Boost_DIR, a `<prefix>/lib/.../cmake/
/// Boost-x.y.z` folder), those that exist, each once.
std::vector<std::filesystem::path> package_folders(const std::vector<std::filesystem::path>& kits);

/// Finds bubblewrap and proves it can make a sandbox here (it needs user namespaces).
Sandbox find_sandbox(bool gpu);

/// The command that runs `program` inside the sandbox, under `tool` (a command that
/// takes the program last, e.g. compute-sanitizer) when given.
std::vector<std::string> sandboxed(const Sandbox& sandbox, const std::filesystem::path& program,
                                   const std::vector<std::string>& tool = {});

/// `prlimit` words that bound each process of a build, with or without a sandbox: CPU
/// seconds (the compiler dies of SIGXCPU), 8 GiB of data (`#include "/dev/zero"`), files
/// of 1 GiB, no core dumps.
std::vector<std::string> build_limits(int cpu_seconds);

/// What a student's build sees, bound in this order: `readable` (the workbook's source),
/// then `hidden` emptied on top (what the lab's build does not need: solutions/, .git,
/// the known-wrong cases, other students, the grader's output), then `shown_again`
/// read-only (the staged submission) and `writable` read-write (the build folder; its
/// tmp/ is the compilers' TMPDIR).
struct BuildView {
  std::vector<std::filesystem::path> readable, hidden, shown_again, writable;
};

/// A build of a student's tree inside the sandbox, under build_limits(): the system's
/// programs and libraries (/usr, the merged-/usr links, the loader's files) and `view`,
/// nothing else; no network, ended with the grader. Without a sandbox, the limits alone.
std::vector<std::string> sandboxed_build(const Sandbox& sandbox, std::vector<std::string> command,
                                         const BuildView& view);

/// The toolchain a configured build names outside /usr (CMakeCache.txt: cmake, ninja, the
/// C++ and CUDA compilers; for a student's tree, those of the workbook's build its kit
/// came from), as the folder above each program's bin/.
std::vector<std::filesystem::path> toolchain_folders(const std::filesystem::path& build_dir);

/// PPLAB_RUNNER_COMMAND's value for a checker whose runner is `runner`: in the sandbox,
/// or the runner alone without one (a class's checkers are shared, and their own folder
/// holds the workbook's runner, not the student's).
std::string runner_command_variable(const Sandbox& sandbox, const std::filesystem::path& runner);

}  // namespace pplab::cli
