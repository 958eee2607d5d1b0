// pplab release [--out FILE]: the student tarball. The workbook's git-tracked files (or,
// outside git, the source tree without build folders), minus solutions/ and the
// instructor-only grading data; unpacked alone it configures with the sim preset.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "files.h"
#include "process.h"
#include "workbook.h"

namespace pplab::cli {
namespace fs = std::filesystem;
namespace {

struct ReleaseOptions {
  std::string out;
  std::string name = "parallel-primitives-lab";
};

// Paths (relative, '/'-separated) that never go to students.
bool instructor_only(const std::string& path) {
  static const char* prefixes[] = {
      "solutions/",               // the reference solutions
      "harness/tests/faults/",    // the known-wrong cases' generator holds solution lines
      "harness/grading/hidden/",  // hidden grading data (extra inputs, notes)
      "harness/grading/gradescope/",  // the autograder bundle
      "build/", ".cache/", ".git/"};
  for (const char* prefix : prefixes)
    if (path.rfind(prefix, 0) == 0) return true;
  // harness/labs/NN_name/wrong/: a lab's known-wrong solutions, near-solutions every one.
  static const std::string labs = "harness/labs/";
  if (path.rfind(labs, 0) == 0) {
    const auto lab_end = path.find('/', labs.size());
    if (lab_end != std::string::npos && path.compare(lab_end, 7, "/wrong/") == 0) return true;
  }
  return path == ".git";
}

std::vector<std::string> workbook_files(const fs::path& source, std::string& how) {
  std::vector<std::string> files;
  const auto listed = run_process({"git", "-C", source.string(), "ls-files", "--cached"}, {}, std::chrono::seconds(60));
  if (listed.succeeded() && fs::exists(source / ".git")) {
    how = "git-tracked files";
    std::istringstream lines(listed.output);
    std::string line;
    while (std::getline(lines, line))
      if (!line.empty() && fs::is_regular_file(source / line)) files.push_back(line);
    return files;
  }
  how = "the source tree without build/";
  for (auto it = fs::recursive_directory_iterator(source); it != fs::recursive_directory_iterator(); ++it) {
    const std::string rel = fs::relative(it->path(), source).generic_string();
    if (it->is_directory() && (rel == "build" || rel == ".git" || rel == ".cache" || instructor_only(rel + "/"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(rel);
  }
  return files;
}

int run_release(const ReleaseOptions& options) {
  const Workbook workbook = discover_workbook();
  const fs::path out = options.out.empty() ? workbook.build_dir / (options.name + ".tar.gz")
                                           : fs::absolute(options.out);
  std::string how;
  std::vector<std::string> files;
  std::size_t dropped = 0;
  for (const auto& file : workbook_files(workbook.source_dir, how)) {
    if (instructor_only(file)) ++dropped;
    else files.push_back(file);
  }
  if (files.empty()) throw std::runtime_error("no files found in " + workbook.source_dir.string());
  fs::create_directories(out.parent_path());
  const fs::path list = out.string() + ".files";
  std::string text;
  for (const auto& file : files) text += file + "\n";
  write_text_file(list, text);
  const auto packed = run_process({"tar", "--create", "--gzip", "--file", out.string(), "--directory",
                                   workbook.source_dir.string(), "--transform", "s,^," + options.name + "/,",
                                   "--owner=0", "--group=0", "--numeric-owner", "--sort=name", "--files-from",
                                   list.string()},
                                  {}, std::chrono::seconds(600));
  fs::remove(list);
  if (!packed.succeeded()) {
    std::cerr << "pplab release: tar failed (" << packed.describe() << "):\n" << packed.output;
    return 1;
  }
  std::printf("%s: %zu files from %s (%zu instructor-only files left out: solutions/, known-wrong "
              "solutions, hidden grading data)\n",
              out.string().c_str(), files.size(), how.c_str(), dropped);
  return 0;
}

}  // namespace

void add_release_command(CLI::App& app) {
  auto [command, options] = add_command<ReleaseOptions>(
      app, "release", "Write the student tarball: the workbook without solutions/", run_release);
  command->add_option("--out", options->out, "Tarball to write (default: <build>/parallel-primitives-lab.tar.gz)");
  command->add_option("--name", options->name, "Top folder inside the tarball")->capture_default_str();
}

}  // namespace pplab::cli
