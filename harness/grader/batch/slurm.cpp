// Grading a class on a Slurm cluster: OUT/slurm/grade.sbatch is
// an array job, one task per student, each running this pplab with --students <student>
// into OUT/slurm/tasks/<student>/; the merge reads each task's batch.json back.
// See docs/instructor_guide.md, "Grading a class on a Slurm cluster".
#include "slurm.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "batch.h"
#include "files.h"
#include "process.h"
#include "reports.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return json::parse(in);
}

// Runs a Slurm client command; a missing command is a clear error, not a failed run.
ProcessResult slurm(const std::vector<std::string>& argv) {
  auto run = run_process(argv, {}, std::chrono::seconds(120));
  if (run.ending == ProcessResult::Ending::failed_to_start ||
      (run.ending == ProcessResult::Ending::exited && run.exit_code == 127))
    throw std::runtime_error("`" + argv[0] + "` could not be run: --slurm needs the Slurm client commands "
                             "(sbatch, squeue, scontrol) on PATH, on a machine that can submit jobs");
  return run;
}

bool terminal_state(const std::string& state) {
  static const std::set<std::string> ended = {"COMPLETED", "FAILED",    "TIMEOUT",   "CANCELLED",     "NODE_FAIL",
                                              "PREEMPTED", "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY", "SPECIAL_EXIT",
                                              "REVOKED"};
  return ended.count(state.substr(0, state.find(' '))) > 0;
}

fs::path task_dir(const fs::path& out, const std::string& student) { return out / "slurm" / "tasks" / student; }

// The task's results, when they are there and belong to this batch (same seed and labs).
bool has_results(const fs::path& out, const std::string& student, const json& state) {
  try {
    const json record = read_json(task_dir(out, student) / "batch.json");
    return record.at("seed") == state.at("seed") && record.at("labs") == state.at("labs") &&
           !record.at("students").empty() && record.at("students")[0].at("student") == student;
  } catch (const std::exception&) {
    return false;
  }
}

// squeue's view of one array job: task index -> state; `pending_rest` when tasks not yet
// split off the array are still pending.
struct JobView {
  bool ok = false;
  std::map<int, std::string> states;
  bool pending_rest = false;
};

JobView look_at_job(const std::string& job) {
  JobView view;
  const auto run = slurm({"squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%K %T"});
  if (!run.succeeded()) return view;
  view.ok = true;
  std::istringstream lines(run.output);
  std::string index, state;
  while (lines >> index >> state) {
    if (!index.empty() && std::all_of(index.begin(), index.end(), ::isdigit)) view.states[std::stoi(index)] = state;
    else if (!terminal_state(state)) view.pending_rest = true;
  }
  return view;
}

bool job_active(const std::string& job) {
  const JobView view = look_at_job(job);
  if (view.pending_rest) return true;
  for (const auto& [index, state] : view.states)
    if (!terminal_state(state)) return true;
  return false;
}

// Why a task left no results, in a line for the gradebook.
std::string missing_reason(const fs::path& out, const std::string& job, int index) {
  const std::string task = job + "_" + std::to_string(index);
  const std::string log = (out / "slurm" / "logs" / (task + ".log")).string();
  std::map<std::string, std::string> fields;
  try {
    const auto run = slurm({"scontrol", "-o", "show", "job", task});
    if (run.succeeded()) {
      std::istringstream words(run.output);
      std::string word;
      while (words >> word)
        if (auto eq = word.find('='); eq != std::string::npos) fields.emplace(word.substr(0, eq), word.substr(eq + 1));
    }
  } catch (const std::exception&) {
  }
  const std::string state = fields.count("JobState") ? fields["JobState"] : "";
  if (state.empty())
    return "Slurm task " + task + " left no results (Slurm no longer knows how it ended); log: " + log;
  if (!terminal_state(state))
    return "Slurm task " + task + " is still " + state + ": run `pplab grade --collect " + out.string() + "` again later";
  std::string reason = "Slurm task " + task + " ended " + state;
  if (state == "TIMEOUT" && fields.count("TimeLimit")) reason += " (time limit " + fields["TimeLimit"] + ")";
  if (fields.count("ExitCode") && fields["ExitCode"] != "0:0") reason += ", exit code " + fields["ExitCode"];
  if (fields.count("Reason") && fields["Reason"] != "None") reason += ", reason " + fields["Reason"];
  return reason + ", without results; log: " + log;
}

void save_state(const fs::path& out, const json& state) {
  write_text_file(out / "slurm" / "state.json", state.dump(2) + "\n");
}

int collect(const fs::path& out, const json& state, const PointsFile& points, const std::vector<Lab>& labs) {
  BatchInfo batch;
  batch.out = out;
  batch.dir = state.at("dir").get<std::string>();
  batch.labs = state.at("labs").get<std::vector<std::string>>();
  batch.seed = state.at("seed").get<std::uint64_t>();
  batch.seed_given = state.at("seed_given").get<bool>();
  batch.backend = state.at("backend").get<std::string>();
  std::vector<GradeReport> reports;
  std::vector<std::size_t> missing;
  std::map<std::string, double> lab_max;  // for rows of tasks that left nothing
  for (const auto& name : state.at("students")) {
    const std::string student = name.get<std::string>();
    if (has_results(out, student, state)) {
      reports.push_back(report_from_record(read_json(task_dir(out, student) / "batch.json").at("students")[0]));
      for (const auto& lab : reports.back().labs) lab_max.emplace(lab.lab.folder, lab.max());
      std::error_code error;
      fs::remove_all(out / student, error);
      fs::copy(task_dir(out, student) / student, out / student, fs::copy_options::recursive, error);
      if (error) std::fprintf(stderr, "pplab grade: copying %s's reports: %s\n", student.c_str(), error.message().c_str());
      continue;
    }
    GradeReport report;
    report.student = student;
    missing.push_back(reports.size());
    const auto& task = state.at("tasks").contains(student) ? state.at("tasks").at(student) : json();
    report.notes.push_back(task.is_null() ? std::string("never submitted to Slurm")
                                          : missing_reason(out, task.at("job").get<std::string>(), task.at("index").get<int>()));
    reports.push_back(report);
  }
  for (std::size_t i : missing) {
    GradeReport& report = reports[i];
    report.backend = batch.backend;
    report.device = "Slurm task";
    report.seed = batch.seed;
    report.seed_given = batch.seed_given;
    report.points_file = points.source();
    for (const auto& folder : batch.labs) {
      LabGrade lab;
      const auto known = std::find_if(labs.begin(), labs.end(), [&](const Lab& l) { return l.folder == folder; });
      if (known != labs.end()) lab.lab = *known;
      lab.lab.folder = folder;
      lab.status = LabStatus::not_graded;
      lab.status_detail = report.notes.front();
      lab.rules = points.rules_for(folder);
      lab.correctness_max = lab_max.count(folder) ? lab_max[folder] : 0;
      report.labs.push_back(lab);
    }
    GradeReport copy = report;
    for (const auto& problem : write_reports(copy, out / report.student))
      std::fprintf(stderr, "pplab grade: %s: %s\n", report.student.c_str(), problem.c_str());
    std::fprintf(stderr, "%s: not graded: %s\n", report.student.c_str(), report.notes.front().c_str());
  }
  return finish_batch(reports, batch);
}

void wait_for(const fs::path& out, const std::string& job, const std::vector<std::string>& students,
              const json& state) {
  const bool tty = isatty(STDERR_FILENO);
  std::string last;
  int failures = 0;
  for (;;) {
    const JobView view = look_at_job(job);
    if (!view.ok) {
      if (++failures >= 10) {
        std::fprintf(stderr, "%spplab grade: squeue keeps failing; stopped waiting for job %s\n", tty ? "\n" : "",
                     job.c_str());
        return;
      }
      std::this_thread::sleep_for(std::chrono::seconds(3));
      continue;
    }
    failures = 0;
    int queued = 0, running = 0, done = 0, failed = 0;
    for (std::size_t i = 0; i < students.size(); ++i) {
      const auto found = view.states.find(int(i));
      const std::string taskstate = found == view.states.end() ? "" : found->second;
      if (taskstate.empty() && view.pending_rest) ++queued;
      else if (taskstate == "PENDING" || taskstate == "REQUEUED") ++queued;
      else if (!taskstate.empty() && !terminal_state(taskstate)) ++running;
      else if (has_results(out, students[i], state)) ++done;
      else ++failed;
    }
    const std::string line = "slurm job " + job + ": " + std::to_string(queued) + " queued, " +
                             std::to_string(running) + " running, " + std::to_string(done) + " done, " +
                             std::to_string(failed) + " failed";
    if (line != last) {
      std::fprintf(stderr, tty ? "\r\033[K%s" : "%s\n", line.c_str());
      std::fflush(stderr);
      last = line;
    }
    if (queued == 0 && running == 0) break;
    std::this_thread::sleep_for(std::chrono::seconds(3));
  }
  if (tty) std::fprintf(stderr, "\n");
}

}  // namespace

int run_slurm_batch(SlurmRequest request) {
  const fs::path out = request.batch.out;
  const fs::path slurm_dir = out / "slurm";
  fs::create_directories(slurm_dir / "logs");
  json state = json::object();
  const fs::path state_path = slurm_dir / "state.json";
  if (fs::exists(state_path)) {
    const json old = read_json(state_path);
    if (old.contains("job") && job_active(old.at("job").get<std::string>()))
      throw std::runtime_error("Slurm job " + old.at("job").get<std::string>() + " of " + out.string() +
                               " is still queued or running: wait for it and run `pplab grade --collect " +
                               out.string() + "`, or cancel it with `scancel " + old.at("job").get<std::string>() + "`");
    // The same batch again: keep its hidden seed, so a resubmit grades like the first run.
    if (!request.batch.seed_given && !old.at("seed_given").get<bool>() && old.at("dir") == request.batch.dir.string())
      request.batch.seed = old.at("seed").get<std::uint64_t>();
    if (old.contains("tasks")) state["tasks"] = old.at("tasks");
  }
  state["dir"] = request.batch.dir.string();
  state["labs"] = request.batch.labs;
  state["seed"] = request.batch.seed;
  state["seed_given"] = request.batch.seed_given;
  state["backend"] = request.batch.backend;
  state["students"] = request.students;
  if (!state.contains("tasks")) state["tasks"] = json::object();

  std::vector<std::string> todo;
  for (const auto& student : request.students)
    if (!has_results(out, student, state)) todo.push_back(student);
  if (todo.empty()) {
    std::fprintf(stderr, "every student of %s already has results in %s; merging\n", request.batch.dir.string().c_str(),
                 (slurm_dir / "tasks").string().c_str());
    save_state(out, state);
    return collect(out, state, request.points, request.labs);
  }

  // Every task grades with the batch's options, read from one file (and with its seed:
  // given, or the batch's hidden one).
  const fs::path request_path = slurm_dir / "request.json";
  write_request(task_request(request.grading, request.batch.seed, request.batch.seed_given), request_path);

  // The job script: readable, and runnable by hand with sbatch --array=0-(N-1).
  std::ostringstream script;
  script << "#!/bin/bash\n"
         << "# pplab grade on Slurm: one array task per student, each graded exactly as\n"
         << "# `pplab grade --submissions` grades one folder, with the options in request.json.\n"
         << "# Written by pplab grade --slurm; submitted as\n"
         << "#   sbatch --parsable --array=0-" << todo.size() - 1
         << (request.queue.max_parallel > 0 ? "%" + std::to_string(request.queue.max_parallel) : "") << " " << quote((slurm_dir / "grade.sbatch").string()) << "\n"
         << "# Results: " << (slurm_dir / "tasks").string() << "/<student>/; merge with pplab grade --collect "
         << out.string() << "\n"
         << "#SBATCH --job-name=pplab-grade\n"
         << "#SBATCH --output=" << (slurm_dir / "logs").string() << "/%A_%a.log\n"
         << "#SBATCH --chdir=" << slurm_dir.string() << "\n";
  if (!request.queue.partition.empty()) script << "#SBATCH --partition=" << request.queue.partition << "\n";
  if (!request.queue.gres.empty()) script << "#SBATCH --gres=" << request.queue.gres << "\n";
  if (!request.queue.time.empty()) script << "#SBATCH --time=" << request.queue.time << "\n";
  if (request.grading.jobs > 0) script << "#SBATCH --cpus-per-task=" << request.grading.jobs << "\n";
  script << "set -euo pipefail\n\nstudents=(";
  for (const auto& student : todo) script << "\n  " << quote(student);
  script << "\n)\nstudent=${students[$SLURM_ARRAY_TASK_ID]}\n"
         << "echo \"pplab grade: $student on $(hostname), task $SLURM_ARRAY_JOB_ID\"_\"$SLURM_ARRAY_TASK_ID\"\n"
         << "exec " << quote(request.pplab.string()) << " grade --task " << quote(request_path.string()) << " \\\n"
         << "  --out " << quote((slurm_dir / "tasks").string()) << "/\"$student\" --students \"$student\"\n";
  const fs::path script_path = slurm_dir / "grade.sbatch";
  write_text_file(script_path, script.str());
  fs::permissions(script_path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  std::error_code ignored;
  for (const auto& student : todo) fs::remove_all(task_dir(out, student), ignored);

  std::string array = "--array=0-" + std::to_string(todo.size() - 1);
  if (request.queue.max_parallel > 0) array += "%" + std::to_string(request.queue.max_parallel);
  const auto run = slurm({"sbatch", "--parsable", array, script_path.string()});
  if (!run.succeeded())
    throw std::runtime_error("sbatch failed (" + run.describe() + "): " + trimmed(run.output) + "\njob script: " +
                             script_path.string());
  std::string job = trimmed(run.output);
  if (auto newline = job.rfind('\n'); newline != std::string::npos) job = job.substr(newline + 1);  // after warnings
  job = job.substr(0, job.find(';'));
  if (job.empty() || !std::all_of(job.begin(), job.end(), ::isdigit))
    throw std::runtime_error("sbatch printed no job id: " + trimmed(run.output));
  state["job"] = job;
  for (std::size_t i = 0; i < todo.size(); ++i) state["tasks"][todo[i]] = {{"job", job}, {"index", int(i)}};
  save_state(out, state);
  std::fprintf(stderr, "submitted Slurm job %s: %zu task(s) of %zu student(s)%s, %s backend, seed %llu%s; script %s\n",
               job.c_str(), todo.size(), request.students.size(),
               todo.size() < request.students.size() ? " (the others already have results)" : "",
               request.batch.backend.c_str(), static_cast<unsigned long long>(request.batch.seed),
               request.batch.seed_given ? "" : " (hidden)", script_path.string().c_str());
  if (request.queue.no_wait) {
    std::printf("%s\n", job.c_str());
    std::fprintf(stderr, "when it ends: pplab grade --collect %s\n", out.string().c_str());
    return 0;
  }
  wait_for(out, job, todo, state);
  return collect(out, state, request.points, request.labs);
}

int collect_slurm_batch(const fs::path& out, const PointsFile& points, const std::vector<Lab>& labs) {
  const fs::path state_path = out / "slurm" / "state.json";
  if (!fs::exists(state_path))
    throw std::invalid_argument("--collect: no Slurm batch in " + out.string() + " (no slurm/state.json; submit with "
                                "pplab grade --submissions DIR --out " + out.string() + " --slurm)");
  const json state = read_json(state_path);
  if (state.contains("job") && job_active(state.at("job").get<std::string>()))
    std::fprintf(stderr, "Slurm job %s is still queued or running: merging what has finished\n",
                 state.at("job").get<std::string>().c_str());
  return collect(out, state, points, labs);
}

}  // namespace pplab::cli
