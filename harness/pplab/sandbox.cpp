#include "sandbox.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

// What the lab's process may hold at once: memory on the emulator (a GPU process maps
// far more address space than it uses, so none there), files it writes to its /tmp,
// and no core dumps.
std::vector<std::string> limits(bool gpu) {
  std::vector<std::string> words = {"/usr/bin/prlimit", "--core=0", "--fsize=" + std::to_string(64 << 20),
                                    "--nofile=256"};
  if (!gpu) words.push_back("--as=" + std::to_string(16ull << 30));
  words.push_back("--");
  return words;
}

// The system's programs and libraries, read-only; the merged-/usr links as links.
void add_system(std::vector<std::string>& words) {
  words.insert(words.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/lib", "/lib64", "/bin", "/sbin", "/lib32", "/libx32"}) {
    std::error_code error;
    if (fs::is_symlink(top, error)) {
      words.insert(words.end(), {"--symlink", fs::read_symlink(top, error).string(), top});
    } else if (fs::is_directory(top, error)) {
      words.insert(words.end(), {"--ro-bind", top, top});
    }
  }
  for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"})
    words.insert(words.end(), {"--ro-bind-try", file, file});
}

void add_gpu(std::vector<std::string>& words) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/dev", error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("nvidia", 0) == 0) words.insert(words.end(), {"--dev-bind", entry.path().string(), entry.path().string()});
  }
  // The CUDA toolkit (CUPTI, compute-sanitizer's injection) is under /usr/local, already in view.
  words.insert(words.end(), {"--ro-bind-try", "/etc/nvidia", "/etc/nvidia"});
}

}  // namespace

std::vector<std::string> sandboxed(const Sandbox& sandbox, const fs::path& program,
                                   const std::vector<std::string>& tool) {
  std::vector<std::string> words = {sandbox.bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session",
                                    "--uid", "65534", "--gid", "65534", "--hostname", "runner",
                                    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--chdir", "/tmp",
                                    "--setenv", "HOME", "/tmp"};
  add_system(words);
  if (sandbox.gpu) add_gpu(words);
  // The program alone, at its own path, so the emulator's fault reports can read its
  // line tables (addr2line) and name the source line.
  const std::string path = fs::absolute(program).lexically_normal().string();
  words.insert(words.end(), {"--ro-bind", path, path, "--"});
  const auto limit_words = limits(sandbox.gpu);
  words.insert(words.end(), limit_words.begin(), limit_words.end());
  words.insert(words.end(), tool.begin(), tool.end());
  words.push_back(path);
  return words;
}

std::vector<std::string> sandboxed_build(const Sandbox& sandbox, const std::vector<std::string>& command,
                                         const std::vector<fs::path>& hidden, const std::vector<fs::path>& readable,
                                         const std::vector<fs::path>& writable) {
  if (sandbox.bwrap.empty()) return command;
  // The compilers' scratch files go to a folder of the build, not a fresh /tmp: the
  // workbook itself may live under /tmp.
  const fs::path scratch = writable.empty() ? fs::path("/tmp") : writable.front() / "tmp";
  std::error_code error;
  fs::create_directories(scratch, error);
  std::vector<std::string> words = {sandbox.bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session",
                                    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                    "--setenv", "TMPDIR", fs::absolute(scratch).string()};
  auto absolute = [](const fs::path& p) { return fs::absolute(p).lexically_normal().string(); };
  for (const auto& folder : hidden)
    if (fs::exists(folder)) words.insert(words.end(), {"--tmpfs", absolute(folder)});
  for (const auto& folder : readable) words.insert(words.end(), {"--ro-bind", absolute(folder), absolute(folder)});
  for (const auto& folder : writable) words.insert(words.end(), {"--bind", absolute(folder), absolute(folder)});
  words.push_back("--");
  words.insert(words.end(), command.begin(), command.end());
  return words;
}

std::string runner_command_variable(const Sandbox& sandbox, const fs::path& runner) {
  return nlohmann::json(sandboxed(sandbox, runner)).dump();
}

Sandbox find_sandbox(bool gpu) {
  Sandbox sandbox;
  sandbox.gpu = gpu;
  fs::path bwrap;
  if (const char* path = std::getenv("PATH")) {
    std::string folders = path;
    for (std::size_t start = 0; start <= folders.size();) {
      const std::size_t end = std::min(folders.find(':', start), folders.size());
      const fs::path candidate = fs::path(folders.substr(start, end - start)) / "bwrap";
      if (end > start && fs::exists(candidate)) {
        bwrap = candidate;
        break;
      }
      start = end + 1;
    }
  }
  if (bwrap.empty()) {
    sandbox.unavailable = "bubblewrap is not installed (Debian: apt-get install bubblewrap)";
    return sandbox;
  }
  sandbox.bwrap = bwrap;
  // A real trial: user namespaces may be switched off on this machine.
  const auto trial = run_process(sandboxed(sandbox, "/usr/bin/true"), {}, std::chrono::seconds(20));
  if (!trial.succeeded()) {
    sandbox.unavailable = "bubblewrap cannot make a sandbox here (" + trial.describe() + "): " +
                          trial.output.substr(0, 300);
    sandbox.bwrap.clear();
  }
  return sandbox;
}

}  // namespace pplab::cli
