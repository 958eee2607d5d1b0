#include "grading.h"

#include "sanitizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "hygiene.h"
#include "parallel_for.h"
#include "process.h"
#include "sanitizer.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr std::pair<LabStatus, const char*> kStatusNames[] = {
    {LabStatus::graded, "graded"},           {LabStatus::not_submitted, "not submitted"},
    {LabStatus::compile_error, "compile error"}, {LabStatus::not_built, "not built"},
    {LabStatus::no_checks, "no checks"},     {LabStatus::not_graded, "not graded"}};
}  // namespace

std::string status_name(LabStatus status) {
  for (const auto& [value, name] : kStatusNames)
    if (value == status) return name;
  return "?";
}

LabStatus status_from_name(const std::string& name) {
  for (const auto& [value, text] : kStatusNames)
    if (text == name) return value;
  throw std::invalid_argument("unknown lab status '" + name + "'");
}

std::string LabGrade::judged_by(const std::string& backend) const {
  if (backend != "gpu") return "emulator";
  return std::string(judged_on_emulator ? "emulator + GPU" : "GPU") + (sanitized ? " + sanitizer" : "");
}

std::string GradeReport::correctness() const {
  if (backend != "gpu") return "emulator";
  // Labs judged on the GPU alone are named; the rest share one description.
  std::string judged, gpu_alone;
  for (const auto& lab : labs) {
    if (lab.checks.cases.empty()) continue;  // not built or not submitted: nothing was judged
    if (lab.judged_on_emulator) judged = lab.judged_by(backend);
    else gpu_alone += (gpu_alone.empty() ? "" : ", ") + lab.lab.folder;
  }
  if (gpu_alone.empty()) return judged.empty() ? "emulator + GPU" : judged;
  if (judged.empty()) return "GPU (the emulator checks were not built)";
  return judged + " (GPU alone for " + gpu_alone + ")";
}

double GradeReport::score() const {
  double total = 0;
  for (const auto& lab : labs) total += lab.score();
  return total;
}
double GradeReport::max() const {
  double total = 0;
  for (const auto& lab : labs) total += lab.max();
  return total;
}

// ---------------------------------------------------------------- grading

namespace {

using SteadyClock = std::chrono::steady_clock;

// Whole seconds, for the progress lines that show where a grading run's time goes.
std::string seconds_between(SteadyClock::time_point from, SteadyClock::time_point to) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(to - from).count());
}
std::string seconds_since(SteadyClock::time_point from) { return seconds_between(from, SteadyClock::now()); }

// "<lab>: <part> done in N s", once a part of a lab's grading that began at `started` ends.
void say_done(const GradeSettings& settings, const LabGrade& grade, const char* part, SteadyClock::time_point started) {
  if (settings.progress) settings.progress(grade.lab.folder + ": " + part + " done in " + seconds_since(started) + " s");
}

bool matches(const std::string& pattern, const std::string& name) {
  return pattern == "*" || name.rfind(pattern, 0) == 0;
}

// Puts every case in the first group that names it (listed prefixes before "*").
void assign_groups(LabGrade& grade) {
  grade.groups.clear();
  for (const auto& rule : grade.rules.groups) grade.groups.push_back({rule.name, 0, rule.points, {}, 0});
  std::vector<bool> taken(grade.case_names.size(), false);
  for (int pass = 0; pass < 2; ++pass) {  // explicit prefixes first, then catch-alls
    for (std::size_t g = 0; g < grade.rules.groups.size(); ++g) {
      for (const auto& pattern : grade.rules.groups[g].match) {
        if ((pattern == "*") != (pass == 1)) continue;
        for (std::size_t c = 0; c < grade.case_names.size(); ++c) {
          if (taken[c] || !matches(pattern, grade.case_names[c])) continue;
          taken[c] = true;
          grade.groups[g].cases.push_back(c);
        }
      }
    }
  }
  std::vector<std::string> unmatched;
  for (std::size_t c = 0; c < taken.size(); ++c)
    if (!taken[c]) unmatched.push_back(grade.case_names[c]);
  if (!unmatched.empty()) {
    GroupScore extra{"checks without points", 0, 0, {}, 0};
    for (std::size_t c = 0; c < taken.size(); ++c)
      if (!taken[c]) extra.cases.push_back(c);
    grade.groups.push_back(extra);
    grade.notes.push_back(std::to_string(unmatched.size()) +
                          " check(s) match no group of the points file and earn no points (they still "
                          "count for speed eligibility); first: '" + unmatched.front() + "'");
  }
  for (auto& group : grade.groups)
    if (group.cases.empty() && group.max > 0 && !grade.case_names.empty())
      grade.notes.push_back("points file: group '" + group.name +
                            "' matches no check of this lab; its points are not counted");
  // A group that matches nothing is not part of the max (the test was renamed, say).
  if (!grade.case_names.empty())
    for (auto& group : grade.groups)
      if (group.cases.empty()) group.max = 0;
}

// The student's verdict for case name `name`, if it ran.
const CaseResult* find_case(const LabGrade& grade, const std::string& name) {
  for (const auto& c : grade.checks.cases)
    if (c.name == name) return &c;
  return nullptr;
}

// The gate's checks that did not pass (empty when the gate is open).
std::vector<std::string> closed_gate(const LabGrade& grade) {
  std::vector<std::string> failed;
  for (const auto& pattern : grade.rules.gate) {
    for (std::size_t c = 0; c < grade.case_names.size(); ++c) {
      const std::string& name = grade.case_names[c];
      if (pattern == "first" ? c != 0 : !matches(pattern, name)) continue;
      const auto* result = find_case(grade, name);
      if (!result || !result->passed()) failed.push_back(name);
    }
  }
  return failed;
}

void score_correctness(LabGrade& grade) {
  grade.correctness = 0;
  grade.correctness_max = 0;
  const auto gate = grade.status == LabStatus::graded ? closed_gate(grade) : std::vector<std::string>{};
  for (auto& group : grade.groups) {
    grade.correctness_max += group.max;
    group.passed = 0;
    group.skipped = 0;
    std::vector<std::string> failures;
    for (std::size_t index : group.cases) {
      const auto* result = find_case(grade, grade.case_names[index]);
      if (result && result->passed()) ++group.passed;
      else if (result && result->skipped()) ++group.skipped;
      else if (group.max > 0 && grade.status == LabStatus::graded)
        failures.push_back(grade.case_names[index] + ": " +
                           (result ? verdict_name(result->verdict) + (result->reason.empty() ? "" : " — " + result->reason)
                                   : std::string("did not run")));
    }
    if (grade.status != LabStatus::graded) {
      group.points = 0;
      if (group.max > 0)
        grade.lost.push_back("-" + format_points(group.max) + " pts, " + group.name + ": " + status_name(grade.status));
      continue;
    }
    // A skipped check (a stretch step not written) neither earns nor costs: the group's
    // points are split over the checks that ran. A group with none that ran earns nothing.
    const std::size_t ran = group.cases.size() - std::size_t(group.skipped);
    const double share = ran == 0 ? 0 : group.max / double(ran);
    group.points = share * group.passed;
    if (ran == 0 && group.max > 0 && !group.cases.empty())
      grade.lost.push_back("-" + format_points(group.max) + " pts, " + group.name +
                           ": every check of this group was skipped (its steps are not written)");
    const bool sanitizer_finding = std::any_of(group.cases.begin(), group.cases.end(), [&](std::size_t index) {
      const auto* result = find_case(grade, grade.case_names[index]);
      return result && (result->verdict == CaseResult::Verdict::memory_error ||
                        result->verdict == CaseResult::Verdict::race_hazard);
    });
    if (sanitizer_finding && grade.rules.sanitizer_cost == "group" && group.points > 0) {
      grade.lost.push_back("-" + format_points(group.points) + " pts, " + group.name +
                           ": compute-sanitizer found a hazard or memory error in this group (the points file's "
                           "sanitizer_cost: the whole group)");
      group.points = 0;
    }
    if (!gate.empty()) {
      if (group.points > 0)
        grade.lost.push_back("-" + format_points(group.points) + " pts, " + group.name + ": " +
                             std::to_string(group.passed) + " check(s) passed, but no correctness points are "
                             "earned until '" + gate.front() + "' passes (the points file's gate)");
      group.points = 0;
    }
    grade.correctness += group.points;
    for (const auto& failure : failures)
      grade.lost.push_back("-" + format_points(share) + " pts, " + group.name + ": " + failure);
  }
}

std::vector<Timing> read_timings(const ChannelRecords& records) {
  std::vector<Timing> timings;
  for (const auto& record : records.records) {
    if (record.value("type", "") != "measurement") continue;
    if (auto timing = timing_from_json(record)) timings.push_back(*timing);
  }
  return timings;
}

std::string sizes_argument(const std::vector<int>& sizes) {
  std::string text;
  for (int s : sizes) text += (text.empty() ? "" : ",") + std::to_string(s);
  return text;
}

// Runs one benchmark binary under the channel; returns its authenticated timings.
// The reference's benchmark holds no student code and times in process. The student's
// is a trusted timer like a lab's checker: it runs here, and the lab's code runs in the
// lab's runner inside the sandbox, exactly as for the checks; the timer believes none of
// the runner's figures and verifies the output of the repeats it times.
// What a benchmark run times: the lab's own rows, the library's (CUB, Thrust, the copy;
// in-process benchmarks only), or both.
enum class BenchRows { lab, library, both };

std::vector<Timing> run_bench(const fs::path& binary, const fs::path& runner, const LabRules& rules, BenchRows rows,
                              bool students_code, const GradeSettings& settings, std::string& problem) {
  ResultChannel channel;
  channel.key = random_key();
  std::vector<std::string> argv = {binary.string(), "--sizes=" + sizes_argument(rules.bench_log2_sizes),
                                   "--repeats=" + std::to_string(rules.repeats),
                                   "--spread=" + format_points(rules.speed_spread_percent)};
  // Of the lab's own rows only those the grade compares: its other variants would hold
  // the GPU for figures no points depend on. The library's rows are all kept, to show.
  if (rows == BenchRows::lab) {
    for (const auto& variant : rules.speed_variants) argv.push_back("--variant=" + variant);
    argv.push_back("--no-compare");
  }
  if (rows == BenchRows::library) argv.push_back("--library-only");
  std::map<std::string, std::string> environment = {{"PPLAB_SEED", std::to_string(settings.seed)}};
  if (students_code && runner.empty() && !settings.sandbox.bwrap.empty()) {
    problem = "the build made no runner for the lab's code, so its benchmark cannot run in the sandbox";
    return {};
  }
  if (students_code && !runner.empty())
    environment["PPLAB_RUNNER_COMMAND"] = runner_command_variable(settings.sandbox, runner);
  const auto run = run_process(argv, environment, std::chrono::seconds(600), 1 << 20, settings.scratch.string(),
                               &channel);
  const auto records = parse_channel(channel.key, channel.records);
  if (!records.problems.empty()) {
    problem = "tampered: " + records.problems.front();
    return {};
  }
  auto timings = read_timings(records);
  if (!run.succeeded()) {
    std::string tail = run.output.size() > 600 ? run.output.substr(run.output.size() - 600) : run.output;
    problem = "the benchmark " + (run.ending == ProcessResult::Ending::timed_out ? std::string("timed out")
                                                                                  : "ended with " + run.describe()) +
              (tail.empty() ? "" : ": " + tail);
  }
  // Each (impl, variant, n) once: a second record means lab code called the timer itself.
  std::set<std::string> seen;
  for (const auto& t : timings)
    if (!seen.insert(t.impl + "|" + t.variant + "|" + std::to_string(t.n)).second) {
      problem = "tampered: the same measurement was reported twice (lab code calling the harness timer?)";
      return {};
    }
  return timings;
}

// The reference's timing, as the student's is taken: by the checker's timer through its
// runner, with the library rows beside it in process. A grading tree built before that
// timer existed times the reference in process, library rows and all.
ReferenceTimes::Lab time_reference(const Lab& lab, const LabRules& rules, const GradeSettings& settings) {
  ReferenceTimes::Lab taken;
  if (!lab.reference_timer.empty()) {
    taken.reference = run_bench(lab.reference_timer, {}, rules, BenchRows::lab, false, settings, taken.reference_problem);
    taken.library = run_bench(lab.reference_bench, {}, rules, BenchRows::library, false, settings, taken.library_problem);
  } else {
    taken.in_process = true;
    for (auto& t : run_bench(lab.reference_bench, {}, rules, BenchRows::both, false, settings, taken.reference_problem))
      (t.impl == "reference" ? taken.reference : taken.library).push_back(t);
  }
  return taken;
}

}  // namespace

void score_checks(LabGrade& grade) {
  assign_groups(grade);
  score_correctness(grade);
}

namespace {

// What stands before a lab's speed is measured, in the order it is told: nothing (an
// empty note) when the lab may be timed. `lost` says whether the lab's speed points are
// part of its max and lost (a failed check, say) or not graded at all (no GPU).
struct SpeedBlock {
  std::string note;
  bool lost = false;
};

SpeedBlock speed_block(const LabGrade& grade, const GradeSettings& settings) {
  const auto& rules = grade.rules;
  if (settings.workbook.backend != "gpu") return {"speed not graded: no GPU (checked on the CPU emulator)", false};
  if (rules.speed_points <= 0) return {"this lab has no speed points", false};
  if (grade.lab.reference_bench.empty())
    return {grade.lab.reference_checks.empty() && grade.lab.student_bench.empty()
                ? "speed not graded: this lab has no benchmark"
                : "speed not graded: the reference benchmark is not built (grade from a build with "
                  "PPLAB_SOURCES=labs;solutions)",
            false};
  if (grade.status != LabStatus::graded) return {status_name(grade.status), true};
  const int failed = grade.checks.failed();
  if (rules.speed_requires_all_checks && (failed > 0 || grade.checks.cases.empty()))
    return {"speed points need every check to pass (" + std::to_string(failed) + " failed)", true};
  if (grade.lab.student_bench.empty()) return {"the student benchmark was not built", true};
  return {};
}

}  // namespace

void grade_speed(LabGrade& grade, const GradeSettings& settings) {
  time_speed(grade, settings);
  score_speed(grade, settings);
}

void time_speed(LabGrade& grade, const GradeSettings& settings) {
  if (!speed_block(grade, settings).note.empty()) return;
  // Timing runs alone on the GPU: no checks of other submissions beside it.
  if (settings.progress) settings.progress(grade.lab.folder + ": timing student and reference");
  SpeedMeasurement measured;
  const auto asked = SteadyClock::now();
  const GpuGate::Hold alone(settings.gpu, GpuGate::Hold::alone);
  const auto granted = SteadyClock::now();
  const auto measure = [&] { return time_reference(grade.lab, grade.rules, settings); };
  measured.reference = settings.reference_times ? settings.reference_times->get(grade.lab.folder, measure) : measure();
  measured.student = run_bench(grade.lab.student_bench, grade.lab.student_runner, grade.rules, BenchRows::lab, true,
                               settings, measured.student_problem);
  if (settings.progress)
    settings.progress(grade.lab.folder + ": timed in " + seconds_since(granted) + " s, after waiting " +
                      seconds_between(asked, granted) + " s for the GPU to itself");
  grade.measured = std::move(measured);
}

void score_speed(LabGrade& grade, const GradeSettings& settings) {
  const auto& rules = grade.rules;
  auto lose_all = [&](const std::string& why) {
    grade.speed_note = why;
    grade.lost.push_back("-" + format_points(grade.speed_max) + " pts, speed: " + why);
  };
  const SpeedBlock block = speed_block(grade, settings);
  if (!block.note.empty() && !block.lost) {
    grade.speed_note = block.note;
    return;
  }
  grade.speed_graded = true;
  grade.speed_max = rules.speed_points;
  if (!block.note.empty()) return lose_all(block.note);
  if (!grade.measured) return lose_all("the lab was not timed");
  const ReferenceTiming& taken = grade.measured->reference;
  const std::vector<Timing>& student = grade.measured->student;
  const std::string& student_problem = grade.measured->student_problem;
  if (taken.in_process)
    grade.notes.push_back("the reference was timed in process, the student through the runner: rebuild the "
                          "grading tree so that both are timed the same way");
  for (const auto& t : taken.reference)
    if (t.impl == "reference") grade.reference_times.push_back(t);
  grade.other_times = taken.library;
  for (const auto* rows : {&taken.reference, &taken.library})
    for (const auto& t : *rows) grade.device_copy_gbps = std::max(grade.device_copy_gbps, t.copy_gbps);
  if (!taken.library_problem.empty())
    grade.notes.push_back("the library rows were not timed (" + taken.library_problem + ")");
  for (const auto& t : student)
    if (t.impl == "student") grade.student_times.push_back(t);
  if (!taken.reference_problem.empty()) {
    grade.speed_graded = false;
    grade.speed_max = 0;
    grade.speed_note = "speed not graded: the reference benchmark failed (" + taken.reference_problem + ")";
    return;
  }
  if (!student_problem.empty()) return lose_all(student_problem);

  // Compare at the graded size, every variant; the ratio is their geometric mean.
  const std::uint64_t n = std::uint64_t{1} << rules.speed_log2_size;
  double log_sum = 0, noise_variance = 0;
  int count = 0;
  const auto& compared = rules.speed_variants;
  for (const auto& r : grade.reference_times) {
    if (r.n != n) continue;
    if (!compared.empty() && std::find(compared.begin(), compared.end(), r.variant) == compared.end()) continue;
    const Timing* s = nullptr;
    for (const auto& t : grade.student_times)
      if (t.n == n && t.variant == r.variant) s = &t;
    if (!s) return lose_all("no timing of the student code at n = " + std::to_string(n) +
                            (r.variant.empty() ? "" : " (" + r.variant + ")"));
    if (!s->verified)
      return lose_all("the result was wrong after the timed runs at n = " + std::to_string(n) +
                      " (a result that depends on earlier calls, or work still running?)");
    if (s->from_memory) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "asked an input it had already answered, it took %.3f ms, against a median of %.3f ms for new "
                    "inputs: answers kept from earlier calls earn no speed points",
                    s->same_input_ms, s->median_ms);
      return lose_all(text);
    }
    // The sandboxed runner cannot time itself: a figure not taken by the checker's timer
    // did not come from the trusted benchmark.
    if (!settings.sandbox.bwrap.empty() && s->timed_by != "checker")
      return lose_all("the student's timing at n = " + std::to_string(n) + " was not taken by the checker's timer");
    if (s->untimed_ms > 0)
      grade.notes.push_back("work finished after the timed stream (" + format_points(s->untimed_ms) +
                            " ms late): it was counted by the wall clock; launch on the stream you are given");
    log_sum += std::log(std::max(s->median_ms, 1e-6) / std::max(r.median_ms, 1e-6));
    // Both medians' intervals, as fractions: the ratio's noise adds them in quadrature.
    noise_variance += std::pow(s->spread_percent / 100, 2) + std::pow(r.spread_percent / 100, 2);
    ++count;
    grade.student_ms += s->median_ms;
    grade.reference_ms += r.median_ms;
    grade.student_gbps = s->gbps;
    grade.student_percent_of_copy = s->percent_of_copy;
  }
  if (count == 0) {
    grade.speed_graded = false;
    grade.speed_max = 0;
    grade.speed_note = "speed not graded: the reference reported no timing at n = " + std::to_string(n);
    return;
  }
  grade.ratio = std::exp(log_sum / count);
  // The geometric mean's noise, of which at most the allowance counts for the student:
  // the ratio is judged at the fast end of its interval, so the reference graded as a
  // student is not marked down for the run-to-run spread of a sub-millisecond kernel,
  // and a noisy submission cannot buy more than the allowance.
  grade.ratio_noise = std::min(std::sqrt(noise_variance) / count, rules.speed_noise_allowance_percent / 100);
  const double judged = grade.ratio / (1 + grade.ratio_noise);
  const double fraction = judged <= rules.full_speed_ratio ? 1.0 : rules.full_speed_ratio / judged;
  grade.speed = grade.speed_max * fraction;
  char text[240];
  std::snprintf(text, sizeof text,
                "%.2fx the reference's time at n = 2^%d, +-%.1f%% noise (full points within %.2fx)", grade.ratio,
                rules.speed_log2_size, 100 * grade.ratio_noise, rules.full_speed_ratio);
  grade.speed_note = text;
  if (fraction < 1.0)
    grade.lost.push_back("-" + format_points(grade.speed_max - grade.speed) + " pts, speed: " + text);
}

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
  spread.guard = [&](const std::function<void()>& process) {
    const GpuGate::Hold shared(settings.gpu, GpuGate::Hold::shared);
    process();
  };
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
  options.on_case = [&](std::size_t i, std::size_t count, const std::string& name) {
    if (settings.progress)
      settings.progress(grade.lab.folder + " emulator " + std::to_string(i + 1) + "/" + std::to_string(count) + " " +
                        name);
  };
  if (!grade.lab.emulator_runner.empty()) {
    Sandbox emulator_sandbox = settings.sandbox;
    emulator_sandbox.gpu = false;
    options.environment["PPLAB_RUNNER_COMMAND"] = runner_command_variable(emulator_sandbox, grade.lab.emulator_runner);
  }
  // The emulator needs no GPU, but it keeps the CPUs busy, and the checker's timer
  // measures on the CPU's clock: it too stays out of a timing's way.
  const auto started = SteadyClock::now();
  const LabResult emulator = [&] {
    const GpuGate::Hold shared(settings.gpu, GpuGate::Hold::shared);
    return run_lab_checks(grade.lab.folder, grade.lab.emulator_checks, options);
  }();
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
    {
      const auto started = SteadyClock::now();
      const GpuGate::Hold shared(settings.workbook.backend == "gpu" ? settings.gpu : nullptr, GpuGate::Hold::shared);
      grade.checks = run_lab_checks(grade.lab.folder, grade.lab.student_checks, options);
      say_done(settings, grade, "checks", started);
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
  // Labs are graded side by side, each in a scratch folder of its own, each from its
  // checks through its timing and compute-sanitizer to its points; the GPU gate still
  // lets every timing run alone (a tool's processes hold it shared one at a time, so a
  // timing waits for those running, not for a whole tool).
  // The last labs first: the sorts' checks, emulator checks and tools take the longest
  // (50-120 s each for labs 09-11 on an H200, against 2-12 s for labs 01-08), so started
  // first they run beside the short labs instead of after them.
  std::vector<GradeSettings> own(labs.size(), settings);
  parallel_for(labs.size(), settings.lab_jobs, [&](std::size_t k) {
    const std::size_t i = labs.size() - 1 - k;
    LabGrade& grade = labs[i];
    try {
      own[i].scratch = settings.scratch / grade.lab.folder;
      fs::create_directories(own[i].scratch);
      CheckOptions options;
      check_and_time_lab(grade, options, own[i]);
      sanitize_and_score_lab(grade, options, own[i]);
    } catch (const std::exception& error) {
      // This lab alone is lost, with the reason; the others are graded.
      grade.status = LabStatus::not_graded;
      grade.status_detail = std::string("grading stopped early: ") + error.what();
      grade.rules = settings.points.rules_for(grade.lab.folder);
    }
  });
  report.labs.insert(report.labs.end(), labs.begin(), labs.end());
}

}  // namespace pplab::cli
