// The grader's speed decision (pplab grade_speed) on lab 01, with the emulator's
// benchmarks standing in for a GPU's: the decision reads only what the timers report, so
// the emulator can prove it. The student's benchmark is the checker's trusted timer; its
// runner is an honest file or an attack, started in the sandbox when bubblewrap works
// here, as in a class. The reference is timed in process. Speed is not what is tested
// (the emulator's figures are not a GPU's): the points file's full-speed ratio is wide.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <stdexcept>
#include <string>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "grading.h"
#include "process.h"
#include "sandbox.h"

namespace {

using namespace pplab::cli;

LabGrade lab01_with_runner(const std::string& runner) {
  LabGrade grade;
  grade.lab.folder = "01_saxpy";
  grade.lab.reference_bench = PPLAB_REFERENCE_BENCH;
  grade.lab.student_bench = PPLAB_STUDENT_BENCH;
  grade.lab.student_runner = runner;
  grade.rules.speed_points = 2;
  grade.rules.full_speed_ratio = 1000;  // the emulator's timings say nothing of speed
  grade.rules.speed_requires_all_checks = false;
  // 2^14: on the emulator a run there costs clearly more than the timer's own asking, so
  // no repeat comes out at 0 ms on a loaded machine (2^10 could).
  grade.rules.bench_log2_sizes = {14};
  grade.rules.speed_log2_size = 14;
  grade.rules.repeats = 20;
  return grade;
}

GradeSettings settings_here() {
  GradeSettings settings;
  settings.workbook.backend = "gpu";  // the decision is the GPU's; the timers stand in
  settings.seed = 7;
  settings.scratch = std::filesystem::temp_directory_path();
  settings.sandbox = find_sandbox(false);
  return settings;
}

// The honest lab 01 whose checks came to one check with `verdict`, speed needing them all.
LabGrade lab01_with_one_check(CaseResult::Verdict verdict) {
  LabGrade grade = lab01_with_runner(PPLAB_HONEST_RUNNER);
  grade.rules.speed_requires_all_checks = true;
  CaseResult worked_example;
  worked_example.name = "saxpy reproduces the lecture worked example";
  worked_example.verdict = verdict;
  grade.checks.cases = {worked_example};
  return grade;
}

std::string lost_lines(const LabGrade& grade) {
  std::string text;
  for (const auto& line : grade.lost) text += line + "\n";
  return text;
}

}  // namespace

TEST_CASE("an honest lab timed by the checker through its runner earns its speed points") {
  LabGrade grade = lab01_with_runner(PPLAB_HONEST_RUNNER);
  grade_speed(grade, settings_here());
  INFO(grade.speed_note);
  INFO(lost_lines(grade));
  CHECK(grade.speed_graded);
  REQUIRE(grade.student_times.size() == 1);
  CHECK(grade.student_times[0].timed_by == "checker");
  CHECK(grade.student_times[0].verified);
  CHECK(grade.student_times[0].verified_repeats > 0);
  REQUIRE(grade.reference_times.size() == 1);
  CHECK(grade.reference_times[0].timed_by == "in-process");
  CHECK(grade.speed == doctest::Approx(2));
}

TEST_CASE("a lab that answers wrong on timed repeats earns no speed points") {
  LabGrade grade = lab01_with_runner(PPLAB_WRONG_ON_REPEATS_RUNNER);
  grade_speed(grade, settings_here());
  INFO(grade.speed_note);
  CHECK(grade.speed_graded);
  CHECK(grade.speed == 0);
  REQUIRE(grade.student_times.size() == 1);
  CHECK_FALSE(grade.student_times[0].verified);
  CHECK(lost_lines(grade).find("the result was wrong after the timed runs") != std::string::npos);
}

TEST_CASE("a lab that answers a repeated input from memory earns no speed points") {
  // Lab 01 behind answers kept by the input's hash, its honest calls 20 ms long (memo.cuh):
  // no timed repeat's input was seen before, so every check is right; the input the timer
  // asks again comes back at once.
  LabGrade grade = lab01_with_runner(PPLAB_MEMO_RUNNER);
  grade_speed(grade, settings_here());
  INFO(grade.speed_note);
  INFO(lost_lines(grade));
  CHECK(grade.speed_graded);
  REQUIRE(grade.student_times.size() == 1);
  CHECK(grade.student_times[0].verified);
  CHECK(grade.student_times[0].from_memory);
  CHECK(grade.student_times[0].same_input_ms < grade.student_times[0].new_input_ms / 2);
  CHECK(grade.speed == 0);
  CHECK(lost_lines(grade).find("answers kept from earlier calls earn no speed points") != std::string::npos);
}

TEST_CASE("a lab that prints its own timing gets the checker's figure, not its own") {
  LabGrade grade = lab01_with_runner(PPLAB_FORGE_RUNNER);
  grade_speed(grade, settings_here());
  INFO(grade.speed_note);
  REQUIRE(grade.student_times.size() == 1);
  const auto& timing = grade.student_times[0];
  CHECK(timing.timed_by == "checker");
  // 20 repeats, and more (up to four times as many) while the median is still noisier
  // than the points file's speed_spread_percent.
  CHECK(timing.repeats >= 20);
  CHECK(timing.repeats <= 80);
  // The forged record says 0.000001 ms for every figure. The checker's own figures are
  // wall times less the empty request's median, floored at zero: on a loaded machine
  // every repeat, even the slowest, can come out at zero, but never at the forgery.
  CHECK(timing.median_ms != 0.000001);
  CHECK(timing.max_ms != 0.000001);
  CHECK(timing.min_ms <= timing.median_ms);
  CHECK(timing.median_ms <= timing.max_ms);
}

TEST_CASE("a batch times each lab's reference once and compares every submission with it") {
  GradeSettings settings = settings_here();
  ReferenceTimes reference_times;
  settings.reference_times = &reference_times;
  LabGrade first = lab01_with_runner(PPLAB_HONEST_RUNNER);
  LabGrade second = lab01_with_runner(PPLAB_HONEST_RUNNER);
  grade_speed(first, settings);
  grade_speed(second, settings);
  REQUIRE(first.reference_times.size() == 1);
  REQUIRE(second.reference_times.size() == 1);
  // The same measurement, not a second one that happens to agree: its spread too.
  CHECK(second.reference_times[0].median_ms == first.reference_times[0].median_ms);
  CHECK(second.reference_times[0].min_ms == first.reference_times[0].min_ms);
  CHECK(second.reference_times[0].max_ms == first.reference_times[0].max_ms);
  // Each student's own code is still timed, every time.
  REQUIRE(first.student_times.size() == 1);
  REQUIRE(second.student_times.size() == 1);
  CHECK(second.speed == doctest::Approx(2));

  int measured = 0;
  const auto count = [&] {
    ++measured;
    return ReferenceTimes::Lab{};
  };
  reference_times.get("02_dot_product", count);
  reference_times.get("02_dot_product", count);
  reference_times.get("03_reduce", count);
  CHECK(measured == 2);
}

TEST_CASE("a lab whose grading throws while it shares the GPU does not keep a timing waiting") {
  GpuGate gate;
  try {
    const GpuGate::Hold shared(&gate, GpuGate::Hold::shared);
    throw std::runtime_error("a check program could not be started");
  } catch (const std::runtime_error&) {
  }
  // With the gate left held, this would wait for ever: give it a few seconds.
  auto timing = std::async(std::launch::async, [&] { const GpuGate::Hold alone(&gate, GpuGate::Hold::alone); });
  const bool ran = timing.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  CHECK(ran);
  if (!ran) gate.leave_shared();  // let the waiting timing end, so the test fails rather than hangs
}

TEST_CASE("a benchmark has the GPU alone only for its timed cases, and its runner cannot end or take a turn") {
  // The student's timer, run as the grader runs it, its turns counted; the runner is the
  // honest lab 01 that writes the turn protocol's words on every descriptor near the
  // timer's and looks for the variable naming them, at every call.
  int taken = 0, given_back = 0;
  ChildTurns turns;
  turns.take = [&] { ++taken; };
  turns.give_back = [&] { ++given_back; };
  const auto run = run_process({PPLAB_STUDENT_BENCH, "--sizes=10,12", "--repeats=5"},
                               {{"PPLAB_RUNNER_COMMAND", runner_command_variable({}, PPLAB_TAKE_TURN_RUNNER)}},
                               std::chrono::seconds(120), 1 << 20, "", nullptr, &turns);
  INFO(run.output);
  REQUIRE(run.succeeded());
  // One turn per timed case (two sizes), each given back; the copy bandwidth is measured
  // inside the first.
  CHECK(turns.turns == 2);
  CHECK(taken == 2);
  CHECK(given_back == 2);
  CHECK(turns.held_seconds > 0);
  CHECK(turns.held_seconds < run.seconds);  // starting and the expected outputs ran outside
  CHECK(run.output.find("lab> turn pipes out of reach") != std::string::npos);
  CHECK(run.output.find("reached a turn pipe") == std::string::npos);
  CHECK(run.output.find("saw the turn variable") == std::string::npos);
}

TEST_CASE("a benchmark that dies holding its turn gives the GPU back") {
  int given_back = 0;
  ChildTurns turns;
  turns.take = [] {};
  turns.give_back = [&] { ++given_back; };
  // Asks, is granted, and is killed before it says it is done (bash: dash redirects only
  // descriptors 0 to 9).
  const auto run = run_process({"bash", "-c", "printf a >&202; head -c 1 <&203 >/dev/null; kill -9 $$"}, {},
                               std::chrono::seconds(30), 1 << 20, "", nullptr, &turns);
  CHECK(run.ending == ProcessResult::Ending::signalled);
  CHECK(turns.turns == 1);
  CHECK(given_back == 1);
}

TEST_CASE("a benchmark that dies waiting for its turn does not take the grader with it") {
  // Asks and ends at once; the turn comes later, and its answer goes to nobody.
  int given_back = 0;
  ChildTurns turns;
  turns.take = [] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); };
  turns.give_back = [&] { ++given_back; };
  const auto run = run_process({"bash", "-c", "printf a >&202; exit 3"}, {}, std::chrono::seconds(30), 1 << 20, "",
                               nullptr, &turns);
  CHECK(run.ending == ProcessResult::Ending::exited);
  CHECK(run.exit_code == 3);
  CHECK(turns.turns == 1);
  CHECK(given_back == 1);
}

TEST_CASE("a timing waits for the checks running, and its wait does not count against its time limit") {
  // A check holds the GPU shared for a second and a half as the lab's timing starts: the
  // timer starts, asks for its first turn and waits for it, and says so.
  GradeSettings settings = settings_here();
  GpuGate gate;
  settings.gpu = &gate;
  std::vector<std::string> said;
  std::mutex said_mutex;
  settings.progress = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(said_mutex);
    said.push_back(line);
  };
  LabGrade grade = lab01_with_runner(PPLAB_HONEST_RUNNER);
  std::promise<void> holding;
  auto check = std::async(std::launch::async, [&] {
    const GpuGate::Hold shared(&gate, GpuGate::Hold::shared);
    holding.set_value();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  });
  holding.get_future().wait();
  time_speed(grade, settings);
  check.wait();
  REQUIRE(grade.measured.has_value());
  CHECK(grade.measured->student_problem.empty());
  REQUIRE(grade.measured->student.size() == 1);
  std::string timed_line;
  for (const auto& line : said)
    if (line.find("01_saxpy: timed in ") == 0) timed_line = line;
  INFO(timed_line);
  // The student's turns, and the reference's (its case, the library's): the first of
  // them waited for the check.
  CHECK(timed_line.find(": the student's cases ") != std::string::npos);
  CHECK(timed_line.find("; the reference's ") != std::string::npos);
  double waited = 0;
  for (auto at = timed_line.find(" turns, "); at != std::string::npos; at = timed_line.find(" turns, ", at + 1))
    waited += std::stod(timed_line.substr(at + 8));
  CHECK(waited >= 1.0);
}

TEST_CASE("while a timing waits for the GPU's sharers, the emulator's checks carry on; then it waits for them") {
  using namespace std::chrono_literals;
  GpuGate gate;
  std::promise<void> gpu_held, release_gpu, cpu_held, release_cpu;
  auto gpu_check = std::async(std::launch::async, [&] {
    const GpuGate::Hold shared(&gate, GpuGate::Hold::shared);
    gpu_held.set_value();
    release_gpu.get_future().wait();
  });
  gpu_held.get_future().wait();
  std::atomic<bool> timed{false};
  auto timing = std::async(std::launch::async, [&] {
    const GpuGate::Hold alone(&gate, GpuGate::Hold::alone);
    timed = true;
  });
  std::this_thread::sleep_for(200ms);  // the timing is waiting for the GPU check now
  // An emulator check starts beside the waiting timing; a GPU check does not.
  auto emulator_check = std::async(std::launch::async, [&] {
    const GpuGate::Hold shared(&gate, GpuGate::Hold::shared_cpu);
    cpu_held.set_value();
    release_cpu.get_future().wait();
  });
  CHECK(cpu_held.get_future().wait_for(5s) == std::future_status::ready);
  std::atomic<bool> second_gpu_check_ran{false};
  auto second_gpu_check = std::async(std::launch::async, [&] {
    const GpuGate::Hold shared(&gate, GpuGate::Hold::shared);
    second_gpu_check_ran = timed.load();  // true: it started only once the timing had the GPU
  });
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(timed);
  release_gpu.set_value();
  gpu_check.wait();
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(timed);  // the emulator check still runs
  release_cpu.set_value();
  emulator_check.wait();
  CHECK(timing.wait_for(5s) == std::future_status::ready);
  CHECK(timed);
  CHECK(second_gpu_check.wait_for(5s) == std::future_status::ready);
  CHECK(second_gpu_check_ran);
}

TEST_CASE("a class times each reference ahead, and its students' timings use those figures") {
  GradeSettings settings = settings_here();
  ReferenceTimes reference_times;
  settings.reference_times = &reference_times;
  GpuGate gate;
  settings.gpu = &gate;
  LabGrade grade = lab01_with_runner(PPLAB_HONEST_RUNNER);
  // The course's rules for lab 01 as lab01_with_runner's: speed points, timed at 2^14.
  settings.points.data = {{"defaults",
                           {{"speed_points", 2}, {"bench_log2_sizes", {14}}, {"speed_log2_size", 14},
                            {"repeats", 20}, {"full_speed_ratio", 1000}, {"speed_requires_all_checks", false},
                            {"correctness_points", 10}, {"speed_spread_percent", 2},
                            {"speed_noise_allowance_percent", 5}, {"sanitizer_cost", "group"},
                            {"visibility", "visible"}, {"gate", nlohmann::json::array()}}}};
  std::vector<std::string> said;
  time_references_ahead({grade.lab}, settings, [&](const std::string& line) { said.push_back(line); });
  REQUIRE(said.size() == 1);
  CHECK(said[0].find("01_saxpy: the reference timed in ") == 0);
  // The student's timing takes one turn, its own case at its one size: the reference's
  // figures are the batch's already.
  std::string timed_line;
  settings.progress = [&](const std::string& line) {
    if (line.find("01_saxpy: timed in ") == 0) timed_line = line;
  };
  time_speed(grade, settings);
  INFO(timed_line);
  CHECK(timed_line.find("the student's cases ") != std::string::npos);
  CHECK(timed_line.find("(1 turns, ") != std::string::npos);
  CHECK(timed_line.find("the reference's") == std::string::npos);
  REQUIRE(grade.measured.has_value());
  CHECK_FALSE(grade.measured->reference.reference.empty());
  // Asked again, the references are not timed again, and nothing is said.
  said.clear();
  time_references_ahead({grade.lab}, settings, [&](const std::string& line) { said.push_back(line); });
  CHECK(said.empty());
}

TEST_CASE("a lab timed before compute-sanitizer finds a hazard in it loses its speed points") {
  // The grader times a lab once its checks pass and runs the tools afterwards; their
  // finding turns a passed check into a failed one, and the speed decision comes last.
  LabGrade grade = lab01_with_one_check(CaseResult::Verdict::passed);
  time_speed(grade, settings_here());
  REQUIRE(grade.measured.has_value());
  LabGrade clean = grade;
  score_speed(clean, settings_here());
  CHECK(clean.speed == doctest::Approx(2));

  grade.checks.cases[0].verdict = CaseResult::Verdict::race_hazard;
  score_speed(grade, settings_here());
  CHECK(grade.speed_graded);
  CHECK(grade.speed == 0);
  CHECK(grade.speed_max == doctest::Approx(2));
  CHECK(lost_lines(grade).find("speed points need every check to pass (1 failed)") != std::string::npos);
}

TEST_CASE("a lab whose checks fail is not timed at all") {
  LabGrade grade = lab01_with_one_check(CaseResult::Verdict::wrong_answer);
  time_speed(grade, settings_here());
  CHECK_FALSE(grade.measured.has_value());
  score_speed(grade, settings_here());
  CHECK(grade.speed == 0);
  CHECK(grade.speed_max == doctest::Approx(2));
}

namespace {

// A lab 01 timed already: the reference and the student at the graded size with these
// medians and spreads (speed_points 5, full points within 1.2x: harness/grading/defaults.json).
LabGrade timed(double reference_ms, double reference_spread, double student_ms, double student_spread) {
  LabGrade grade = lab01_with_runner(PPLAB_HONEST_RUNNER);
  grade.rules.speed_points = 5;
  grade.rules.full_speed_ratio = 1.2;
  const auto row = [](const std::string& impl, double ms, double spread) {
    Timing t;
    t.lab = "01_saxpy";
    t.impl = impl;
    t.n = 1 << 14;
    t.median_ms = ms;
    t.spread_percent = spread;
    t.verified = true;
    t.timed_by = "checker";
    return t;
  };
  SpeedMeasurement measured;
  measured.reference.reference = {row("reference", reference_ms, reference_spread)};
  measured.student = {row("student", student_ms, student_spread)};
  grade.measured = measured;
  return grade;
}

}  // namespace

TEST_CASE("a time within its measured noise of the full-speed ratio earns full speed points") {
  GradeSettings settings = settings_here();
  settings.sandbox = {};  // the rows say they were taken by the checker
  // 1.25x with 3% spread on each side: 4.2% of noise, judged 1.199x.
  LabGrade noisy = timed(1.0, 3, 1.25, 3);
  score_speed(noisy, settings);
  CHECK(noisy.speed == doctest::Approx(5));
  CHECK(noisy.ratio_noise == doctest::Approx(0.0424).epsilon(0.01));
  CHECK(noisy.speed_note.find("+-4.2% noise") != std::string::npos);
  // The same medians measured without noise: 1.25x earns 5 * 1.2 / 1.25.
  LabGrade exact = timed(1.0, 0, 1.25, 0);
  score_speed(exact, settings);
  CHECK(exact.speed == doctest::Approx(4.8));
  // With no allowance the noise counts for nothing.
  LabGrade strict = timed(1.0, 3, 1.25, 3);
  strict.rules.speed_noise_allowance_percent = 0;
  score_speed(strict, settings);
  CHECK(strict.speed == doctest::Approx(4.8));
}

TEST_CASE("a timing of 0 ms is no measurement: the lab's speed is not graded, not given") {
  GradeSettings settings = settings_here();
  settings.sandbox = {};
  LabGrade zero = timed(1.0, 1, 0.0, 0);
  score_speed(zero, settings);
  CHECK_FALSE(zero.speed_graded);
  CHECK(zero.speed == 0);
  CHECK(zero.speed_max == 0);
  CHECK(zero.speed_note.find("the student's timing at n = 16384 came out at 0 ms") != std::string::npos);
  LabGrade reference_zero = timed(0.0, 0, 1.0, 1);
  score_speed(reference_zero, settings);
  CHECK_FALSE(reference_zero.speed_graded);
  CHECK(reference_zero.speed_note.find("the reference's timing") != std::string::npos);
}

TEST_CASE("a fast time whose repeated input came back from memory earns nothing") {
  GradeSettings settings = settings_here();
  settings.sandbox = {};
  LabGrade grade = timed(1.0, 1, 0.9, 1);
  grade.measured->student[0].from_memory = true;
  grade.measured->student[0].same_input_ms = 0.05;
  grade.measured->student[0].new_input_ms = 0.85;
  score_speed(grade, settings);
  CHECK(grade.speed == 0);
  CHECK(grade.speed_note.find("it took 0.050 ms, against 0.850 ms at the fastest for new inputs") != std::string::npos);
  // The same times, the repeated input as slow as the rest: full points.
  LabGrade honest = timed(1.0, 1, 0.9, 1);
  honest.measured->student[0].same_input_ms = 0.9;
  score_speed(honest, settings);
  CHECK(honest.speed == doctest::Approx(5));
}

TEST_CASE("a noisy submission gains no more than the noise allowance") {
  GradeSettings settings = settings_here();
  settings.sandbox = {};
  // 40% spread claimed; 5% counts: 2.1x is judged 2.0x, 5 * 1.2 / 2.0 = 3.
  LabGrade grade = timed(1.0, 1, 2.1, 40);
  score_speed(grade, settings);
  CHECK(grade.ratio_noise == doctest::Approx(0.05));
  CHECK(grade.speed == doctest::Approx(3.0));
}
