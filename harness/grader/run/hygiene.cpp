#include "hygiene.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "libraries.h"
#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

bool under(const fs::path& file, const fs::path& folder) {
  const std::string f = file.lexically_normal().string(), d = folder.lexically_normal().string();
  return f.size() > d.size() && f.compare(0, d.size(), d) == 0 && (d.back() == '/' || f[d.size()] == '/');
}

// Each object of the runner target that was compiled from the student's file (the
// runner's own table, runner_entries.cpp, is the harness's), with its recorded includes.
std::vector<std::pair<fs::path, std::vector<fs::path>>> student_objects(const Workbook& tree, const std::string& target,
                                                                         std::string& error) {
  std::vector<std::pair<fs::path, std::vector<fs::path>>> objects;
  // Every object of the tree is listed, each with its headers: megabytes on a GPU tree
  // (the CUDA headers), and the objects come in the order they were built.
  constexpr std::size_t kMostRecordBytes = std::size_t(256) << 20;
  const auto listed = run_process({"ninja", "-C", tree.build_dir.string(), "-t", "deps"}, {}, std::chrono::seconds(60),
                                  kMostRecordBytes);
  if (!listed.succeeded()) {
    error = "could not read the build's include records (ninja -t deps): " + listed.describe();
    return objects;
  }
  if (listed.output_cut) {
    error = "the build's include records (ninja -t deps) are over " + std::to_string(kMostRecordBytes >> 20) +
            " MiB: they could not all be read";
    return objects;
  }
  const std::string marker = "/" + target + ".dir/";
  std::istringstream lines(listed.output);
  std::string line;
  bool taking = false;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      const auto colon = line.find(": #deps");
      const std::string object = line.substr(0, colon);
      taking = colon != std::string::npos && object.find(marker) != std::string::npos &&
               object.find("runner_entries.cpp") == std::string::npos;
      if (taking) objects.push_back({fs::path(object).is_absolute() ? fs::path(object) : tree.build_dir / object, {}});
      continue;
    }
    if (taking) objects.back().second.push_back(fs::path(line.substr(line.find_first_not_of(' '))));
  }
  if (objects.empty()) error = "the build recorded no object of " + target + " (ninja -t deps)";
  return objects;
}

// A header the toolchain ships: outside the workbook, in a folder named include
// (/usr/include, GCC's own, the CUDA toolkit's targets/.../include).
bool toolchain_header(const fs::path& file, const fs::path& source) {
  if (under(file, source)) return false;
  for (const auto& part : file.parent_path())
    if (part == "include") return true;
  return false;
}

// The points' "libraries" (a lab's points.json, or the defaults) lets a lab use some of
// the libraries that would do its work for it (libraries.h).
bool allowed_library(const std::vector<std::string>& allowed, const char* name) {
  return std::find(allowed.begin(), allowed.end(), name) != allowed.end();
}

std::string refused_library(const char* library, const std::string& what) {
  return std::string("rejected: the lab's file uses ") + library + " (" + what +
         "), a library that does the lab's work; the lab asks for your own kernels (points.json's \"libraries\" "
         "lists what a lab may use)";
}

// The library a header belongs to, if it is one of known_libraries().
const char* header_library(const fs::path& file) {
  for (const auto& library : known_libraries()) {
    for (const auto& part : file.parent_path())
      for (const char* folder : library.header_folders)
        if (part == folder) return library.name;
    const std::string name = file.filename().string();
    for (const char* prefix : library.name_prefixes)
      if (name.rfind(prefix, 0) == 0) return library.name;
  }
  return nullptr;
}

std::string check_libraries(const std::vector<fs::path>& includes, const fs::path& object,
                            const std::vector<std::string>& allowed) {
  for (const auto& include : includes)
    if (const char* library = header_library(include); library && !allowed_library(allowed, library))
      return refused_library(library, "it includes " + include.string());
  const auto listed = run_process({"nm", "--undefined-only", object.string()}, {}, std::chrono::seconds(60));
  if (!listed.succeeded()) return "could not list the symbols of " + object.string() + " (nm): " + listed.describe();
  std::istringstream lines(listed.output);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string name = line.substr(std::min(line.size(), line.find_first_not_of(" U")));
    for (const auto& library : known_libraries())
      for (const char* prefix : library.name_prefixes)
        if (name.rfind(prefix, 0) == 0 && !allowed_library(allowed, library.name))
          return refused_library(library.name, "it calls " + name);
  }
  return {};
}

std::string check_includes(const Workbook& tree, const Lab& lab, const fs::path& staged,
                           const std::vector<fs::path>& includes, const std::vector<fs::path>& kit_inputs) {
  const fs::path source = tree.source_dir;
  std::vector<fs::path> allowed_folders = {staged, tree.build_dir / "pplab_sim_gen", source / "harness/include",
                                           source / "harness/sim/include"};
  allowed_folders.insert(allowed_folders.end(), kit_inputs.begin(), kit_inputs.end());
  const fs::path contract = source / "labs" / lab.folder / (lab.name + ".cuh");
  for (const auto& include : includes) {
    const fs::path file = (include.is_absolute() ? include : tree.build_dir / include).lexically_normal();
    bool allowed = file == contract.lexically_normal() || (toolchain_header(file, source) && !under(file, tree.build_dir));
    for (const auto& folder : allowed_folders) allowed = allowed || under(file, folder);
    if (!allowed)
      return "rejected: the lab's file includes " + file.string() +
             ", which a lab may not: only the toolchain's headers, harness/include (pplab/...) and the lab's "
             "contract " + lab.name + ".cuh";
  }
  return {};
}

std::string check_symbols(const Lab& lab, const fs::path& object) {
  const auto listed = run_process({"nm", "-C", "--defined-only", object.string()}, {}, std::chrono::seconds(60));
  if (!listed.succeeded()) return "could not list the symbols of " + object.string() + " (nm): " + listed.describe();
  const std::string home = "pplab::lab" + lab.number + "::";
  std::istringstream lines(listed.output);
  std::string line;
  while (std::getline(lines, line)) {
    // "<address> <type> <name>": only strong definitions (T, D, B, R) can replace
    // someone else's; weak ones (W, V, u) are the headers' inline code and templates.
    const auto first = line.find(' ');
    if (first == std::string::npos || first + 2 >= line.size()) continue;
    const char type = line[first + 1];
    const std::string name = line.substr(first + 3);
    if (type != 'T' && type != 'D' && type != 'B' && type != 'R') continue;
    if (name.rfind(home, 0) == 0) continue;
    if (name.rfind("_", 0) == 0) continue;  // the compiler's own (nvcc's registration, stubs)
    // nvcc gives an anonymous namespace a name of its own and its functions global
    // symbols; nothing outside the file can name them, so they replace nothing.
    if (name.rfind("(anonymous namespace)::", 0) == 0) continue;
    return "rejected: the lab's file defines " + name + " outside its namespace " + home.substr(0, home.size() - 2) +
           "; put helpers in that namespace or in an anonymous namespace";
  }
  return {};
}

// Code that runs before main, as relocations of .init_array sections. The compilers add
// one entry of their own: nvcc registers a file's kernels from a constructor, and GCC's
// -fsanitize=thread instrumentation (the emulator's checked shared memory) initialises
// from one at priority 99. Any other entry is the lab's.
std::string check_constructors(const Workbook& tree, const fs::path& object) {
  const auto listed = run_process({"readelf", "-rW", object.string()}, {}, std::chrono::seconds(60));
  if (!listed.succeeded()) return "could not read the relocations of " + object.string() + " (readelf): " + listed.describe();
  std::istringstream lines(listed.output);
  std::string line, section;
  int compilers = 0, others = 0;
  bool in_init = false;
  while (std::getline(lines, line)) {
    if (line.rfind("Relocation section", 0) == 0) {
      section = line.substr(line.find('\'') + 1);
      section = section.substr(0, section.find('\''));
      in_init = section.rfind(".rela.init_array", 0) == 0 || section.rfind(".rela.ctors", 0) == 0;
      continue;
    }
    if (!in_init || line.find("R_X86_64_64") == std::string::npos) continue;
    const bool compilers_own = tree.backend == "gpu" ? section == ".rela.init_array" : section == ".rela.init_array.00099";
    if (compilers_own) ++compilers;
    else ++others;
  }
  if (others > 0 || compilers > 1)
    return "rejected: the lab's file runs code before main (a static constructor, a global object with a "
           "constructor, or __attribute__((constructor))); a lab's code runs only when the checks call it";
  return {};
}

}  // namespace

std::string vet_student_objects(const Workbook& tree, const Lab& lab, const fs::path& staged_folder,
                                const std::vector<std::string>& allowed_libraries,
                                const std::vector<fs::path>& kit_inputs) {
  if (!lab.student_runner_program) return {};
  std::string error;
  const auto objects = student_objects(tree, lab.student_runner_program->target, error);
  if (!error.empty()) return error;
  for (const auto& [object, includes] : objects) {
    for (const std::string& problem :
         {check_includes(tree, lab, staged_folder, includes, kit_inputs), check_libraries(includes, object, allowed_libraries),
          check_symbols(lab, object), check_constructors(tree, object)})
      if (!problem.empty()) return problem;
  }
  return {};
}

}  // namespace pplab::cli
