#include "build_plan.h"

#include <cstdio>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "process.h"
#include "reports.h"
#include "submissions.h"

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
  json plan = {{"backend", backend}, {"students", json::object()}};
  bool complete = true;
  for (const auto& folder : students) {
    const std::string student = folder.filename().string();
    const fs::path work = out / "work" / student;
    const auto staged = stage_submission(folder, workbook.labs, work / "submission");
    json entry = {{"notes", staged.notes}, {"labs", json::object()}};
    Workbook tree;
    const std::string error = configure_submission(workbook, backend, staged, labs, work / "build", tree);
    if (!error.empty()) {
      entry["configure_error"] = error;
      complete = false;
    } else {
      const auto buildable = ninja_targets(work / "build");
      // A GPU tree also builds the checks for the emulator (the sim oracle).
      if (!tree.sim_oracle_target.empty())
        entry["sim_oracle"] = {{"target", tree.sim_oracle_target}, {"exists", buildable.count(tree.sim_oracle_target) > 0}};
      else
        entry["sim_oracle"] = nullptr;
      if (backend == "gpu" && (tree.sim_oracle_target.empty() || !buildable.count(tree.sim_oracle_target)))
        complete = false;
      for (const auto& lab : labs) {
        if (!staged.files.count(lab.folder)) continue;
        json targets = json::array();
        const auto planned = find_lab(tree, lab.folder);
        const auto programs = planned ? submission_targets(*planned) : std::vector<Program>{};
        for (const auto& program : programs) {
          const bool exists = buildable.count(program.target) > 0;
          complete = complete && exists;
          targets.push_back({{"target", program.target}, {"file", program.file.string()}, {"exists", exists}});
        }
        const bool benchmarked = planned && planned->student_bench_program.has_value();
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
