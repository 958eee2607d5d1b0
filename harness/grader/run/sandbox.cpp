#include "sandbox.h"

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

// The most processes and threads one lab's sandbox may hold: the emulator's worker
// threads (one a core), the CUDA driver's, and room for a lab's own, far below a fork bomb.
long process_limit() { return 256 + 2 * long(std::max(1u, std::thread::hardware_concurrency())); }

// What the lab's process may hold at once: processes (see process_limit), memory on the
// emulator (a GPU process maps far more address space than it uses, so none there),
// files it writes, open files, and no core dumps. Its /tmp is capped apart (kTmpBytes).
std::vector<std::string> limits(bool gpu) {
  std::vector<std::string> words = {"/usr/bin/prlimit", "--core=0", "--fsize=" + std::to_string(64 << 20),
                                    "--nofile=256", "--nproc=" + std::to_string(process_limit())};
  if (!gpu) words.push_back("--as=" + std::to_string(16ull << 30));
  words.push_back("--");
  return words;
}

// The runner's /tmp is memory: no more than this.
constexpr unsigned long long kTmpBytes = 256ull << 20;

// Linux counts the process limit per user outside the sandbox, and never for root. So
// when the grader is root, each sandbox's processes run as a user of their own outside
// it (setpriv), one uid per sandbox at a time, none a real account's; an ordinary
// grader's sandboxes each have a user namespace of their own, where the count starts at 0.
constexpr unsigned kFirstSandboxUid = 2'000'000'000u;  // bubblewrap reads uids as signed ints
constexpr unsigned kSandboxUids = 4096;

unsigned next_sandbox_uid() {
  static std::atomic<unsigned> next{0};
  return kFirstSandboxUid + (next++ % kSandboxUids);
}

// Whether a user with no rights of its own can read `program` and reach it.
bool readable_by_anyone(const fs::path& program) {
  struct stat info {};
  if (stat(program.c_str(), &info) != 0 || (info.st_mode & S_IROTH) == 0) return false;
  for (fs::path folder = program.parent_path(); !folder.empty(); folder = folder.parent_path()) {
    if (stat(folder.c_str(), &info) != 0 || (info.st_mode & S_IXOTH) == 0) return false;
    if (folder == folder.root_path()) break;
  }
  return true;
}

// `program` where the sandbox's own user can read it: itself, or a copy in a folder of
// /tmp open to all (a grader's home is often closed), removed when pplab ends.
std::string reachable_copy(const fs::path& program) {
  if (readable_by_anyone(program)) return program.string();
  static std::mutex mutex;
  static struct Copies {
    fs::path folder;
    ~Copies() {
      std::error_code error;
      if (!folder.empty()) fs::remove_all(folder, error);
    }
  } copies;
  static std::atomic<unsigned> count{0};
  std::lock_guard lock(mutex);
  if (copies.folder.empty()) {
    std::string name = "/tmp/pplab-runners-XXXXXX";
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot make a folder in /tmp for the sandbox's programs");
    copies.folder = name;
    chmod(name.c_str(), 0755);
  }
  const fs::path copy = copies.folder / (std::to_string(count++) + "-" + program.filename().string());
  fs::copy_file(program, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  return copy.string();
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

void add_packages(std::vector<std::string>& words, const Sandbox& sandbox) {
  for (const auto& folder : sandbox.package_folders)
    words.insert(words.end(), {"--ro-bind-try", folder.string(), folder.string()});
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
  std::vector<std::string> words;
  std::string path = fs::absolute(program).lexically_normal().string();
  if (geteuid() == 0) {
    const std::string uid = std::to_string(next_sandbox_uid());
    words = {"/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--"};
    path = reachable_copy(path);
  }
  words.insert(words.end(), {sandbox.bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session",
                             "--uid", "65534", "--gid", "65534", "--hostname", "runner",
                             "--proc", "/proc", "--dev", "/dev"});
  if (sandbox.sized_tmp) words.insert(words.end(), {"--size", std::to_string(kTmpBytes)});
  words.insert(words.end(), {"--tmpfs", "/tmp", "--chdir", "/tmp", "--setenv", "HOME", "/tmp"});
  add_system(words);
  add_packages(words, sandbox);
  if (sandbox.gpu) add_gpu(words);
  // The program alone, at its own path, so the emulator's fault reports can read its
  // line tables (addr2line) and name the source line.
  words.insert(words.end(), {"--ro-bind", path, path, "--"});
  const auto limit_words = limits(sandbox.gpu);
  words.insert(words.end(), limit_words.begin(), limit_words.end());
  words.insert(words.end(), tool.begin(), tool.end());
  words.push_back(path);
  return words;
}

std::vector<std::string> build_limits(int cpu_seconds) {
  return {"/usr/bin/prlimit", "--core=0", "--cpu=" + std::to_string(cpu_seconds),
          "--data=" + std::to_string(8ull << 30), "--fsize=" + std::to_string(1ull << 30), "--"};
}

std::vector<std::string> sandboxed_build(const Sandbox& sandbox, std::vector<std::string> command,
                                         const BuildView& view) {
  const auto limit_words = build_limits(sandbox.compile_seconds);
  command.insert(command.begin(), limit_words.begin(), limit_words.end());
  if (sandbox.bwrap.empty()) return command;
  // The compilers' scratch files go to a folder of the build, not the sandbox's /tmp:
  // the workbook itself may live under /tmp.
  const fs::path scratch = view.writable.empty() ? fs::path("/tmp") : view.writable.front() / "tmp";
  std::error_code error;
  fs::create_directories(scratch, error);
  std::vector<std::string> words = {sandbox.bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session",
                                    "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                                    "--setenv", "TMPDIR", fs::absolute(scratch).string()};
  add_system(words);
  add_packages(words, sandbox);
  auto absolute = [](const fs::path& p) { return fs::absolute(p).lexically_normal().string(); };
  for (const auto& folder : view.readable)
    if (fs::exists(folder)) words.insert(words.end(), {"--ro-bind", absolute(folder), absolute(folder)});
  for (const auto& folder : view.hidden)
    if (fs::is_directory(folder)) words.insert(words.end(), {"--tmpfs", absolute(folder)});
    else if (fs::exists(folder)) words.insert(words.end(), {"--ro-bind", "/dev/null", absolute(folder)});
  for (const auto& folder : view.shown_again) words.insert(words.end(), {"--ro-bind", absolute(folder), absolute(folder)});
  for (const auto& folder : view.writable) words.insert(words.end(), {"--bind", absolute(folder), absolute(folder)});
  words.push_back("--");
  words.insert(words.end(), command.begin(), command.end());
  return words;
}

namespace {

// The programs a configured build's CMakeCache.txt names (cmake, ninja, the compilers
// it found itself), and the kit it links with (PPLAB_KIT).
struct CachedToolchain {
  std::vector<fs::path> programs;
  fs::path kit;
};

CachedToolchain read_cached_toolchain(const fs::path& build_dir) {
  CachedToolchain found;
  std::ifstream cache(build_dir / "CMakeCache.txt");
  std::string line;
  while (std::getline(cache, line)) {
    const auto equals = line.find('=');
    if (equals == std::string::npos || equals + 1 == line.size()) continue;
    const std::string value = line.substr(equals + 1);
    if (line.rfind("PPLAB_KIT:", 0) == 0) found.kit = value;
    for (const char* key : {"CMAKE_COMMAND:", "CMAKE_CXX_COMPILER:", "CMAKE_CUDA_COMPILER:", "CMAKE_CUDA_HOST_COMPILER:",
                            "CMAKE_MAKE_PROGRAM:"})
      if (line.rfind(key, 0) == 0) found.programs.emplace_back(value);
  }
  return found;
}

}  // namespace

std::vector<fs::path> toolchain_folders(const fs::path& build_dir) {
  // A student's tree takes its compilers from the kit's settings.cmake as plain variables,
  // which its own cache never records: they are in the cache of the workbook's build
  // that wrote the kit (<build>/pplab-kit).
  CachedToolchain toolchain = read_cached_toolchain(build_dir);
  if (!toolchain.kit.empty()) {
    const auto kit_build = read_cached_toolchain(toolchain.kit.parent_path());
    toolchain.programs.insert(toolchain.programs.end(), kit_build.programs.begin(), kit_build.programs.end());
  }
  std::vector<fs::path> folders;
  for (const fs::path& listed : toolchain.programs) {
    // The program as the build calls it and where its links lead (/opt/gcc/bin/g++ may
    // be a link to /usr/bin/g++-12): the build needs the first, the compiler the second.
    const fs::path named = listed.lexically_normal();
    std::error_code error;
    const fs::path program = fs::canonical(named, error);
    if (error) continue;
    for (const fs::path& path : {named, program}) {
      if (path.string().rfind("/usr/", 0) == 0 || !path.is_absolute()) continue;
      // <root>/bin/<program>: the whole toolkit (nvcc's include/ and nvvm/ beside bin/).
      const fs::path root = path.parent_path().parent_path();
      if (std::find(folders.begin(), folders.end(), root) == folders.end()) folders.push_back(root);
    }
  }
  return folders;
}

namespace {

// The install prefixes one kit's settings.cmake names, as written there: it holds one
// `set(NAME "value")` per line (cmake/PplabKit.cmake).
std::vector<fs::path> prefixes_named_in(const fs::path& kit) {
  std::vector<fs::path> named;
  std::ifstream settings(kit / "settings.cmake");
  std::string line;
  const auto value_of = [&](const std::string& name) -> std::optional<std::string> {
    const std::string head = "set(" + name + " \"";
    if (line.rfind(head, 0) != 0 || line.size() < head.size() + 2) return std::nullopt;
    return line.substr(head.size(), line.size() - head.size() - 2);
  };
  while (std::getline(settings, line)) {
    if (const auto list = value_of("CMAKE_PREFIX_PATH")) {
      std::stringstream entries(*list);
      for (std::string entry; std::getline(entries, entry, ';');)
        if (!entry.empty()) named.emplace_back(entry);
    } else if (const auto config = value_of("Boost_DIR")) {
      // <prefix>/lib[/<arch>]/cmake/Boost-x.y.z: the prefix holds include/ and lib/.
      fs::path folder = *config;
      while (folder.filename() != "lib" && folder.filename() != "lib64" && folder != folder.parent_path())
        folder = folder.parent_path();
      if (folder.filename() == "lib" || folder.filename() == "lib64") named.push_back(folder.parent_path());
    }
  }
  return named;
}

}  // namespace

std::vector<fs::path> package_folders(const std::vector<fs::path>& kits) {
  std::vector<fs::path> prefixes;
  for (const fs::path& kit : kits)
    for (fs::path folder : prefixes_named_in(kit)) {
      std::error_code error;
      folder = fs::canonical(folder, error);
      // A folder that is gone, or /usr's, which every sandbox shows already.
      if (error || folder.string().rfind("/usr/", 0) == 0 || folder == "/usr" || folder == "/") continue;
      if (std::find(prefixes.begin(), prefixes.end(), folder) == prefixes.end()) prefixes.push_back(folder);
    }
  return prefixes;
}

std::string runner_command_variable(const Sandbox& sandbox, const fs::path& runner) {
  if (sandbox.bwrap.empty()) return nlohmann::json(std::vector<std::string>{fs::absolute(runner).string()}).dump();
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
  // A real trial: user namespaces may be switched off on this machine (for a root
  // grader, for users without privileges too: the sandbox's users are such).
  // Bubblewrap before 0.8 cannot cap its /tmp; the sandbox holds without the cap.
  sandbox.sized_tmp = true;
  auto trial = run_process(sandboxed(sandbox, "/usr/bin/true"), {}, std::chrono::seconds(20));
  if (!trial.succeeded()) {
    sandbox.sized_tmp = false;
    trial = run_process(sandboxed(sandbox, "/usr/bin/true"), {}, std::chrono::seconds(20));
  }
  if (!trial.succeeded()) {
    sandbox.unavailable = "bubblewrap cannot make a sandbox here (" + trial.describe() + "): " +
                          trial.output.substr(0, 300);
    sandbox.bwrap.clear();
  }
  return sandbox;
}

}  // namespace pplab::cli
