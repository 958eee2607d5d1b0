// A lab's speed points (grade_speed, time_speed and score_speed): the student's and the
// reference's benchmarks time each case alone on the GPU, and the ratio of their
// medians, judged with its noise, decides the points.
#include "speed_points.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "grading_progress.h"
#include "lab_checks.h"
#include "process.h"
#include "sandbox.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

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

// The GPU is the benchmark's alone only while it times a case (pplab/gpu_turn.h): it
// asks for each turn through `turns`, and starts, computes its expected outputs and
// prepares its inputs beside other jobs.
std::vector<Timing> run_bench(const fs::path& binary, const fs::path& runner, const LabRules& rules, BenchRows rows,
                              bool students_code, const GradeSettings& settings, ChildTurns& turns,
                              std::string& problem) {
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
                               &channel, &turns);
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
ReferenceTimes::Lab time_reference(const Lab& lab, const LabRules& rules, const GradeSettings& settings,
                                   ChildTurns& turns) {
  ReferenceTimes::Lab taken;
  if (!lab.reference_timer.empty()) {
    taken.reference =
        run_bench(lab.reference_timer, {}, rules, BenchRows::lab, false, settings, turns, taken.reference_problem);
    taken.library =
        run_bench(lab.reference_bench, {}, rules, BenchRows::library, false, settings, turns, taken.library_problem);
  } else {
    taken.in_process = true;
    for (auto& t :
         run_bench(lab.reference_bench, {}, rules, BenchRows::both, false, settings, turns, taken.reference_problem))
      (t.impl == "reference" ? taken.reference : taken.library).push_back(t);
  }
  return taken;
}

// A benchmark's turns on the GPU, taken through the batch's gate (none: at once).
ChildTurns turns_at(GpuGate* gate) {
  ChildTurns turns;
  turns.take = [gate] {
    if (gate) gate->enter_exclusive();
  };
  turns.give_back = [gate] {
    if (gate) gate->leave_exclusive();
  };
  return turns;
}

}  // namespace

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
  // Each timed case runs alone on the GPU: no check of any submission beside it.
  if (settings.progress) settings.progress(grade.lab.folder + ": timing student and reference");
  SpeedMeasurement measured;
  const auto started = SteadyClock::now();
  ChildTurns reference_turns = turns_at(settings.gpu), student_turns = turns_at(settings.gpu);
  const auto measure = [&] { return time_reference(grade.lab, grade.rules, settings, reference_turns); };
  measured.reference = settings.reference_times ? settings.reference_times->get(grade.lab.folder, measure) : measure();
  measured.student = run_bench(grade.lab.student_bench, grade.lab.student_runner, grade.rules, BenchRows::lab, true,
                               settings, student_turns, measured.student_problem);
  if (settings.progress) {
    const auto turns_words = [](const ChildTurns& turns) {
      return tenths_of_seconds(turns.held_seconds) + " s with the GPU to itself (" + std::to_string(turns.turns) +
             " turns, " + tenths_of_seconds(turns.waited_seconds) + " s waiting for them)";
    };
    // The reference's part only where this lab's timing took it (a batch takes it once).
    settings.progress(grade.lab.folder + ": timed in " + seconds_since(started) + " s: the student's cases " +
                      turns_words(student_turns) +
                      (reference_turns.turns > 0 ? "; the reference's " + turns_words(reference_turns) : ""));
  }
  grade.measured = std::move(measured);
}

void time_references_ahead(const std::vector<Lab>& labs, const GradeSettings& settings,
                           const std::function<void(const std::string&)>& say) {
  if (settings.workbook.backend != "gpu" || !settings.reference_times) return;
  for (auto lab = labs.rbegin(); lab != labs.rend(); ++lab) {
    const LabRules rules = settings.points.rules_for(lab->folder);
    if (rules.speed_points <= 0 || lab->reference_bench.empty()) continue;
    const auto started = SteadyClock::now();
    ChildTurns turns = turns_at(settings.gpu);
    settings.reference_times->get(lab->folder, [&] { return time_reference(*lab, rules, settings, turns); });
    if (turns.turns > 0)  // 0: a student's timing had taken them already
      say(lab->folder + ": the reference timed in " + seconds_since(started) + " s, " +
          tenths_of_seconds(turns.held_seconds) + " s of it with the GPU to itself");
  }
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
                    "asked an input it had already answered, it took %.3f ms, against %.3f ms at the fastest for new "
                    "inputs: answers kept from earlier calls earn no speed points",
                    s->same_input_ms, s->new_input_ms);
      return lose_all(text);
    }
    // The sandboxed runner cannot time itself: a figure not taken by the checker's timer
    // did not come from the trusted benchmark.
    if (!settings.sandbox.bwrap.empty() && s->timed_by != "checker")
      return lose_all("the student's timing at n = " + std::to_string(n) + " was not taken by the checker's timer");
    // No time at all is no measurement: the timer took off more than the run's own
    // asking cost (a load that came and went). The lab's speed is then not graded,
    // rather than given or taken away on a figure that says nothing.
    if (s->median_ms <= 0 || r.median_ms <= 0) {
      grade.speed_graded = false;
      grade.speed_max = 0;
      grade.speed_note = "speed not graded: the " + std::string(s->median_ms <= 0 ? "student's" : "reference's") +
                         " timing at n = " + std::to_string(n) +
                         " came out at 0 ms, less than the timer could tell from its own requests";
      return;
    }
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

}  // namespace pplab::cli
