#include "build_plan.h"

#include <cstdio>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "files.h"
#include "process.h"
#include "submission_build.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// The targets a configured Ninja tree can build ("name: rule" lines of `ninja -t targets all`).
std::set<std::string> ninja_targets(const fs::path& build_dir) {
  const auto listed = run_process({"ninja", "-C", build_dir.string(), "-t", "targets", "all"}, {},
                                  std::chrono::seconds(120), std::size_t(64) << 20);
  std::set<std::string> targets;
  std::istringstream lines(listed.output);
  std::string line;
  while (std::getline(lines, line)) {
    const auto colon = line.find(": ");
    if (colon != std::string::npos) targets.insert(line.substr(0, colon));
  }
  return targets;
}

}  // namespace

int plan_submissions(const Workbook& workbook, const std::string& backend, const std::vector<fs::path>& students,
                     const std::vector<Lab>& labs, const fs::path& out) {
  // The grading kit the students of `backend` are built against: this build's, or for the
  // emulator the sim oracle's of a GPU build.
  Workbook kit = workbook;
  if (backend != workbook.backend) {
    if (backend != "sim" || workbook.sim_oracle_dir.empty())
      throw std::invalid_argument("--backend " + backend + ": this is a " + workbook.backend +
                                  " build, with no grading kit for " + backend + "; plan from a " + backend + " build");
    kit = load_manifest(workbook.sim_oracle_dir);
  }
  const auto kit_targets = ninja_targets(kit.build_dir);
  json plan = {{"backend", backend}, {"kit", (kit.build_dir / "pplab-kit").string()}, {"students", json::object()}};
  bool complete = true;
  for (const auto& folder : students) {
    const std::string student = folder.filename().string();
    const fs::path work = out / "work" / student;
    const auto staged = stage_submission(folder, workbook.labs, work / "submission");
    json entry = {{"notes", staged.notes}, {"labs", json::object()}};
    StudentTree tree;
    const std::string error = configure_submission(kit, staged, labs, work / "build", tree);
    if (!error.empty()) {
      entry["configure_error"] = error;
      complete = false;
    } else {
      const auto buildable = ninja_targets(work / "build");
      // A GPU batch also builds each student's files for the emulator (the sim oracle),
      // against the oracle's kit.
      if (backend == "gpu") {
        const bool exists = !kit.sim_oracle_target.empty() && kit_targets.count(kit.sim_oracle_target) > 0;
        entry["sim_oracle"] = {{"target", kit.sim_oracle_target}, {"exists", exists}};
        complete = complete && exists;
      } else {
        entry["sim_oracle"] = nullptr;
      }
      for (const auto& lab : labs) {
        if (!staged.files.count(lab.folder)) continue;
        json targets = json::array();
        const auto add = [&](const std::optional<Program>& program, const char* built_in, bool exists) {
          if (!program) return;
          complete = complete && exists;
          targets.push_back({{"target", program->target}, {"file", program->file.string()}, {"built_in", built_in},
                             {"exists", exists}});
        };
        const auto judged = find_lab(kit, lab.folder);
        const auto runner = tree.runners.count(lab.folder) ? std::optional<Program>(tree.runners.at(lab.folder)) : std::nullopt;
        if (!judged || !judged->student_checks_program || !runner) complete = false;
        if (judged) add(judged->student_checks_program, "kit", kit_targets.count(judged->student_checks_program->target) > 0);
        add(runner, "student", runner && buildable.count(runner->target) > 0);
        if (judged && judged->student_bench_program)
          add(judged->student_bench_program, "kit", kit_targets.count(judged->student_bench_program->target) > 0);
        const bool benchmarked = judged && judged->student_bench_program.has_value();
        if (backend == "gpu" && !benchmarked) complete = false;  // speed could never be graded
        entry["labs"][lab.folder] = {{"targets", targets}, {"benchmark", benchmarked}};
      }
    }
    plan["students"][student] = entry;
  }
  write_text_file(out / "plan.json", plan.dump(2) + "\n");
  std::printf("plan: %s (%s)\n", (out / "plan.json").string().c_str(),
              complete ? "every planned target exists" : "some planned targets are missing");
  return complete ? 0 : 1;
}

}  // namespace pplab::cli
