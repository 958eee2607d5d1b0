// The grade command's options checked once: see grade_run.h.
#include "grade_run.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "pplab/seed.h"

#include "process.h"
#include "sandbox.h"
#include "sanitizer.h"

namespace pplab::cli {
namespace fs = std::filesystem;
namespace {

// A seed nobody knows before the batch runs: students cannot prepare for its inputs.
std::uint64_t hidden_seed() {
  const std::string bytes = random_key();
  std::uint64_t seed = 0;
  for (int i = 0; i < 6; ++i) seed = (seed << 8) | static_cast<unsigned char>(bytes[std::size_t(i)]);
  return seed;  // 48 bits: exact in JSON readers that use doubles
}

}  // namespace

std::vector<Lab> chosen_labs(const Workbook& workbook, const std::string& list) {
  if (list.empty()) return workbook.labs;
  std::vector<Lab> labs;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) continue;
    const auto lab = find_lab(workbook, item);
    if (!lab) {
      std::string known;
      for (const Lab& l : workbook.labs) known += " " + l.folder;
      throw std::invalid_argument("--labs: no lab named '" + item + "'; the labs are:" + known);
    }
    if (std::none_of(labs.begin(), labs.end(), [&](const Lab& l) { return l.folder == lab->folder; }))
      labs.push_back(*lab);
  }
  if (labs.empty()) throw std::invalid_argument("--labs: give at least one lab, e.g. --labs 01,02");
  return labs;
}

PointsFile points_from(const GradeOptions& options, const Workbook& workbook) {
  if (!options.points.empty()) return load_points(options.points);
  return load_lab_points(workbook.source_dir, workbook.labs);
}

GradeRun settings_from(const GradeOptions& options) {
  const Workbook workbook = discover_workbook();
  GradeSettings settings;
  settings.workbook = workbook;
  settings.points = points_from(options, workbook);
  if (options.slurm && options.submissions.empty())
    throw std::invalid_argument("--slurm grades a class: give --submissions DIR and --out OUT");
  if (options.queue.max_parallel < 0) throw std::invalid_argument("--max-parallel must be at least 1");
  if (!options.hidden_seed.empty()) {
    settings.seed = parse_seed(options.hidden_seed, "--hidden-seed");
  } else if (!options.seed.empty()) {
    settings.seed = parse_seed(options.seed, "--seed");
    settings.seed_given = true;
  } else {
    settings.seed = hidden_seed();
  }
  if (options.case_limit < 1) throw std::invalid_argument("--case-limit must be at least 1 second");
  settings.case_limit = std::chrono::seconds(options.case_limit);
  if (options.compile_limit < 1) throw std::invalid_argument("--compile-limit must be at least 1 second");
  const int cores = std::max(1u, std::thread::hardware_concurrency());
  const int jobs = options.jobs > 0 ? options.jobs : cores;
  if (options.jobs < 0) throw std::invalid_argument("--jobs must be at least 1");
  const auto labs = chosen_labs(workbook, options.labs);
  if (workbook.backend == "gpu") {
    if (options.no_sanitizer) settings.sanitizer_note = "turned off (--no-sanitizer)";
    else if ((settings.sanitizer = find_sanitizer()).empty())
      settings.sanitizer_note = "compute-sanitizer was not found on this machine (it comes with the CUDA toolkit)";
  }
  // Students' code runs only in a sandbox when a class is graded; grading your own tree
  // uses one when it can.
  if (options.unsafe_no_sandbox) {
    settings.sandbox.unavailable = "turned off (--unsafe-no-sandbox)";
  } else {
    settings.sandbox = find_sandbox(workbook.backend == "gpu");
    if (settings.sandbox.bwrap.empty() && !options.submissions.empty())
      throw std::invalid_argument("cannot grade --submissions without a sandbox for the students' code: " +
                                  settings.sandbox.unavailable +
                                  ". Install bubblewrap, or pass --unsafe-no-sandbox to run their code unconfined");
  }
  settings.sandbox.compile_seconds = options.compile_limit;   // a limit, with or without the sandbox
  std::vector<fs::path> kits = {workbook.build_dir / "pplab-kit"};
  if (!workbook.sim_oracle_dir.empty()) kits.push_back(workbook.sim_oracle_dir / "pplab-kit");
  settings.sandbox.package_folders = package_folders(kits);
  return GradeRun{workbook, settings, labs, cores, jobs};
}

void share_jobs(int jobs, GradeSettings& settings) {
  settings.lab_jobs = std::max(1, int(std::sqrt(double(jobs))));
  settings.case_jobs = std::max(1, jobs / settings.lab_jobs);
}


}  // namespace pplab::cli
