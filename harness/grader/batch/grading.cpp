#include "grading.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>

#include "gpu_gate.h"
#include "grading_progress.h"
#include "lab_checks.h"
#include "parallel_for.h"
#include "sandbox.h"
#include "sanitizer.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

// compute-sanitizer over the GPU checks: a check that passed but in which memcheck or
// racecheck reported something gets that finding as its verdict.
void sanitize_gpu_checks(LabGrade& grade, const CheckOptions& options, const GradeSettings& settings) {
  if (grade.checks.cases.empty()) return;
  if (settings.sanitizer.empty()) {
    grade.notes.push_back("the GPU checks did not run under compute-sanitizer: " + settings.sanitizer_note);
    return;
  }
  if (settings.progress) settings.progress(grade.lab.folder + ": compute-sanitizer memcheck and racecheck");
  // The tool wraps the runner, which holds the lab's code, inside the sandbox.
  const auto runner_under = [&](const std::string& tool) {
    const std::vector<std::string> words = {settings.sanitizer.string(), "--tool", tool, "--print-limit", "20"};
    if (settings.sandbox.bwrap.empty()) {
      auto command = words;
      command.push_back(grade.lab.student_runner.string());
      return command;
    }
    return sandboxed(settings.sandbox, grade.lab.student_runner, words);
  };
  const auto started = SteadyClock::now();
  // racecheck runs one process per check, case_jobs at a time; each process holds the
  // GPU shared, so a timing that asks for the GPU waits for the processes running (the
  // gate lets no new one start), not for the whole tool.
  SanitizerSpread spread{grade.checks.cases.size(), settings.case_jobs, {}};
  spread.guard = while_holding(settings.gpu, GpuGate::Hold::shared);
  const SanitizerResult found =
      run_sanitizer(settings.sanitizer, grade.lab.student_checks, {"memcheck", "racecheck"}, options.environment,
                    grade.lab.sanitizer_large_n, std::min(settings.case_limit, std::chrono::seconds(300)),
                    options.working_directory,
                    grade.lab.student_runner.empty()
                        ? nullptr
                        : std::function<std::vector<std::string>(const std::string&)>(runner_under),
                    spread);
  say_done(settings, grade, "compute-sanitizer", started);
  grade.sanitized = true;
  for (const auto& problem : found.problems) grade.notes.push_back(problem);
  for (const auto& finding : found.findings) {
    const auto it = std::find_if(grade.checks.cases.begin(), grade.checks.cases.end(),
                                 [&](const CaseResult& c) { return c.name == finding.check; });
    const std::string text = "compute-sanitizer " + finding.tool + ": " + finding.first_lines;
    if (it == grade.checks.cases.end() || !it->passed()) {
      grade.notes.push_back(text + " (in '" + finding.check + "')");
      continue;
    }
    it->verdict = finding.tool == "racecheck" ? CaseResult::Verdict::race_hazard : CaseResult::Verdict::memory_error;
    it->reason = text.substr(0, text.find('\n'));
    it->detail = text;
  }
}

// A GPU build's checks are judged on the emulator as well (the sim oracle), so a race or
// an out-of-bounds access that happens to give the right answer on the GPU still fails.
void judge_on_emulator_too(LabGrade& grade, const CheckOptions& gpu_options, const GradeSettings& settings) {
  if (grade.lab.emulator_checks.empty()) {
    grade.notes.push_back("correctness judged on the GPU alone: " +
                          (grade.emulator_problem.empty() ? std::string("this build has no emulator checks (configure "
                                                                        "it with -DPPLAB_SIM_ORACLE=ON)")
                                                          : grade.emulator_problem));
    return;
  }
  CheckOptions options = gpu_options;
  options.shared_processes = false;  // an emulator check starts in milliseconds
  options.on_case = [&](std::size_t i, std::size_t count, const std::string& name) {
    if (settings.progress)
      settings.progress(grade.lab.folder + " emulator " + std::to_string(i + 1) + "/" + std::to_string(count) + " " +
                        name);
  };
  options.on_case_done = [&](const CaseResult& done) {
    if (settings.progress)
      settings.progress(grade.lab.folder + " emulator " + done.name + ": " + verdict_name(done.verdict) + " in " +
                        tenths_of_seconds(done.seconds) + " s");
  };
  if (!grade.lab.emulator_runner.empty()) {
    Sandbox emulator_sandbox = settings.sandbox;
    emulator_sandbox.gpu = false;
    options.environment["PPLAB_RUNNER_COMMAND"] = runner_command_variable(emulator_sandbox, grade.lab.emulator_runner);
  }
  // The emulator needs no GPU, but it keeps the CPUs busy, and the checker's timer
  // measures on the CPU's clock: its processes too stay out of a timed case's way, as
  // the gate's CPU sharers (they carry on while a timing waits for the GPU's).
  options.around_each_case = while_holding(settings.gpu, GpuGate::Hold::shared_cpu);
  const auto started = SteadyClock::now();
  const LabResult emulator = run_lab_checks(grade.lab.folder, grade.lab.emulator_checks, options);
  say_done(settings, grade, "emulator checks", started);
  grade.checks = merge_judgements(grade.checks, emulator);
  grade.judged_on_emulator = true;
}

// The first half of grading one lab of one submission: its checks (on a GPU the
// emulator's judgement too) and, where they pass, its timing. `options` keeps how its
// checks were run, for compute-sanitizer in the second half.
void check_and_time_lab(LabGrade& grade, CheckOptions& options, const GradeSettings& settings) {
  grade.rules = settings.points.rules_for(grade.lab.folder);
  // Case names from the clean reference binary when built (the same test file as the
  // student's), so every submission is graded against the same list of checks.
  std::string listing_error;
  if (!grade.lab.reference_checks.empty())
    grade.case_names = list_test_cases(grade.lab.reference_checks, listing_error);
  if (grade.status == LabStatus::graded && !grade.lab.student_checks.empty()) {
    options.environment["PPLAB_SEED"] = std::to_string(settings.seed);
    // The checker names the TODO steps of the file it judges (pplab/testing.h): the
    // student's, not the workbook's skeleton its shared build was compiled beside.
    if (!grade.lab.student_file.empty()) options.environment["PPLAB_KERNEL_FILE"] = grade.lab.student_file.string();
    if (settings.sim_threads > 0) options.environment["PPLAB_SIM_THREADS"] = std::to_string(settings.sim_threads);
    if (settings.case_limit.count() <= 60)
      options.environment["PPLAB_SIM_TIMEOUT"] = std::to_string(std::max<long>(1, settings.case_limit.count() * 3 / 4));
    options.case_limit = settings.case_limit;
    options.jobs = settings.case_jobs;
    // On a GPU a check's processes take seconds to start (3 s a check on an H100, most of
    // them milliseconds of work): the passing checks share their processes.
    options.shared_processes = settings.workbook.backend == "gpu";
    options.working_directory = settings.scratch;
    options.cases = grade.case_names;
    options.kernel_file = grade.lab.student_file;  // the step: of a crash names its TODO regions
    // The lab's code runs in the sandbox; the checks that judge it do not need one.
    if (!settings.sandbox.bwrap.empty()) {
      if (grade.lab.student_runner.empty()) {
        grade.status = LabStatus::not_built;
        grade.status_detail = "the build made no runner for the lab's code, so it cannot run in the sandbox";
        return;
      }
      options.environment["PPLAB_RUNNER_COMMAND"] = runner_command_variable(settings.sandbox, grade.lab.student_runner);
    } else {
      grade.notes.push_back("the student's code ran outside a sandbox: " + settings.sandbox.unavailable);
      if (!grade.lab.student_runner.empty())
        options.environment["PPLAB_RUNNER_COMMAND"] = runner_command_variable(settings.sandbox, grade.lab.student_runner);
    }
    options.on_case = [&](std::size_t i, std::size_t count, const std::string& name) {
      if (settings.progress)
        settings.progress(grade.lab.folder + " " + std::to_string(i + 1) + "/" + std::to_string(count) + " " + name);
    };
    options.on_case_done = [&](const CaseResult& done) {
      if (settings.progress)
        settings.progress(grade.lab.folder + " " + done.name + ": " + verdict_name(done.verdict) + " in " +
                          tenths_of_seconds(done.seconds) + " s");
    };
    // Each check's process holds the GPU shared while it runs: a timed case waits for the
    // processes running, and none starts while it waits.
    options.around_each_case =
        while_holding(settings.workbook.backend == "gpu" ? settings.gpu : nullptr, GpuGate::Hold::shared);
    {
      const auto started = SteadyClock::now();
      grade.checks = run_lab_checks(grade.lab.folder, grade.lab.student_checks, options);
      // How many processes the checks took: fewer than checks where passing ones shared.
      const std::string part = "checks (" + std::to_string(grade.checks.cases.size()) + " in " +
                               std::to_string(grade.checks.processes) + " processes)";
      say_done(settings, grade, part.c_str(), started);
    }
    if (settings.workbook.backend == "gpu") judge_on_emulator_too(grade, options, settings);
    if (!grade.checks.error.empty()) {
      grade.status = LabStatus::no_checks;
      grade.status_detail = grade.checks.error;
    } else if (grade.case_names.empty()) {
      for (const auto& c : grade.checks.cases) grade.case_names.push_back(c.name);
    }
    // Lab code may register test cases of its own; they are never run.
    for (const auto& name : grade.checks.extra)
      grade.notes.push_back("the student's binary lists a check the clean test file does not have: '" + name +
                            "' (not run)");
  } else if (grade.status == LabStatus::graded) {
    grade.status = LabStatus::not_built;
    if (grade.status_detail.empty()) grade.status_detail = "no student binary in " + settings.workbook.bin_dir.string();
  }
  if (grade.case_names.empty() && !listing_error.empty()) grade.notes.push_back(listing_error);
  time_speed(grade, settings);
}

// The second half: on a GPU, compute-sanitizer over the checks that ran, then the points.
void sanitize_and_score_lab(LabGrade& grade, const CheckOptions& options, const GradeSettings& settings) {
  if (settings.workbook.backend == "gpu" && grade.status == LabStatus::graded) sanitize_gpu_checks(grade, options, settings);
  score_checks(grade);
  score_speed(grade, settings);
}

}  // namespace

void grade_labs(GradeReport& report, std::vector<LabGrade>& labs, const GradeSettings& settings) {
  // Labs are graded side by side, each in a scratch folder of its own, in two rounds:
  // every lab's checks and timing, then every lab's compute-sanitizer run and points. A
  // tool's process holds the GPU shared for up to 20 s (racecheck on a sort's check, on
  // an H100), and a timing waits for the ones running: in one round they would hold up
  // the timings of the other labs.
  // The last labs first: the sorts' checks, emulator checks and tools take the longest
  // (50-120 s each for labs 09-11 on an H200, against 2-12 s for labs 01-08), so started
  // first they run beside the short labs instead of after them.
  std::vector<GradeSettings> own(labs.size(), settings);
  std::vector<CheckOptions> options(labs.size());
  std::vector<char> stopped(labs.size(), 0);
  const auto each_lab = [&](const std::function<void(std::size_t)>& part) {
    parallel_for(labs.size(), settings.lab_jobs, [&](std::size_t k) {
      const std::size_t i = labs.size() - 1 - k;
      if (stopped[i]) return;
      try {
        part(i);
      } catch (const std::exception& error) {
        // This lab alone is lost, with the reason; the others are graded.
        stopped[i] = 1;
        labs[i].status = LabStatus::not_graded;
        labs[i].status_detail = std::string("grading stopped early: ") + error.what();
        labs[i].rules = settings.points.rules_for(labs[i].lab.folder);
      }
    });
  };
  each_lab([&](std::size_t i) {
    own[i].scratch = settings.scratch / labs[i].lab.folder;
    fs::create_directories(own[i].scratch);
    check_and_time_lab(labs[i], options[i], own[i]);
  });
  each_lab([&](std::size_t i) { sanitize_and_score_lab(labs[i], options[i], own[i]); });
  report.labs.insert(report.labs.end(), labs.begin(), labs.end());
}

}  // namespace pplab::cli
