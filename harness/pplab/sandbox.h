/// \file
/// \brief The sandbox a student's code runs in when a class is graded: bubblewrap.
///
/// A lab's runner (harness/remote) is started by its checker inside
/// `bwrap ... -- prlimit ... -- <runner>`: its own user, PID, network, IPC, UTS and cgroup
/// namespaces, uid and gid 65534, killed with the checker (--die-with-parent), a
/// read-only /usr and the runner binary, a private /tmp, and the GPU's device nodes only
/// on the GPU backend. Nothing of the workbook's sources, solutions, build folders, the
/// class folder or the grader's output is in its view. The checker passes it on through
/// PPLAB_RUNNER_COMMAND.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace pplab::cli {

struct Sandbox {
  std::filesystem::path bwrap;   ///< empty: no sandbox
  std::string unavailable;       ///< why there is none
  bool gpu = false;              ///< bind the GPU's device nodes and the CUDA toolkit
};

/// Finds bubblewrap and proves it can make a sandbox here (it needs user namespaces).
Sandbox find_sandbox(bool gpu);

/// The command that runs `program` inside the sandbox, under `tool` (a command that
/// takes the program last, e.g. compute-sanitizer) when given.
std::vector<std::string> sandboxed(const Sandbox& sandbox, const std::filesystem::path& program,
                                   const std::vector<std::string>& tool = {});

/// A build of a student's tree inside the sandbox: the whole file system read-only, less
/// the folders in `hidden` (emptied), with `readable` shown again read-only and `writable`
/// read-write on top; no network, TMPDIR inside the first writable folder, ended with
/// the grader.
std::vector<std::string> sandboxed_build(const Sandbox& sandbox, const std::vector<std::string>& command,
                                         const std::vector<std::filesystem::path>& hidden,
                                         const std::vector<std::filesystem::path>& readable,
                                         const std::vector<std::filesystem::path>& writable);

/// PPLAB_RUNNER_COMMAND's value for a checker whose runner is `runner`.
std::string runner_command_variable(const Sandbox& sandbox, const std::filesystem::path& runner);

}  // namespace pplab::cli
