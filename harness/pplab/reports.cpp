#include "reports.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "svg_chart.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

void write_text_file(const fs::path& path, const std::string& text) {
  // Write beside the target, then rename: a reader never sees half a file, and a
  // file lab code may have planted at the path is replaced, not appended to.
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
}

namespace {

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') continue;  // not allowed in XML 1.0
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += char(c);
    }
  }
  return out;
}

std::string md_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string tail(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  return "...\n" + text.substr(text.size() - bytes);
}

std::string seed_text(const GradeReport& report) {
  return std::to_string(report.seed) + (report.seed_given ? " (given with --seed)" : " (hidden, drawn for this run)");
}

std::string title(const GradeReport& report) {
  return report.student.empty() ? "pplab grade report" : "pplab grade report: " + report.student;
}

std::string speed_banner(const GradeReport& report) {
  if (report.backend == "gpu") return "";
  return "Speed was NOT graded: no GPU was used (correctness was checked on the CPU emulator). "
         "Grade on a machine with a GPU for speed points.";
}

// Lines for the speed columns of a lab.
struct SpeedCells {
  std::string time, gbps, percent, ratio, points;
};
SpeedCells speed_cells(const LabGrade& lab) {
  SpeedCells cells{"—", "—", "—", "—", "not graded"};
  if (lab.student_ms > 0) {
    cells.time = fixed(lab.student_ms, 4) + " ms";
    cells.gbps = fixed(lab.student_gbps, 1);
    cells.percent = fixed(lab.student_percent_of_copy, 1) + "%";
  }
  if (lab.ratio > 0) cells.ratio = fixed(lab.ratio, 2) + "x";
  if (lab.speed_graded) cells.points = format_points(lab.speed) + " / " + format_points(lab.speed_max);
  return cells;
}

std::string case_line(const CaseResult& c) {
  return "[" + verdict_name(c.verdict) + "] " + c.name + (c.reason.empty() ? "" : " — " + c.reason);
}

// ---------------------------------------------------------------- plot

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The numbers behind the plot, for anyone who wants to draw it differently. The ceiling
// is one value at every n, so its n is left empty.
std::string plot_csv(const Chart& chart) {
  std::string out = "series,n,gbps\n";
  for (const auto& series : chart.series)
    for (const auto& [n, gbps] : series.points)
      out += csv_field(series.label) + "," + fixed(n, 0) + "," + fixed(gbps, 3) + "\n";
  if (chart.ceiling) out += csv_field(chart.ceiling->first) + ",," + fixed(chart.ceiling->second, 3) + "\n";
  return out;
}

void make_plot(LabGrade& lab, const fs::path& dir, std::vector<std::string>& problems) {
  if (lab.student_times.empty() && lab.reference_times.empty()) return;
  Chart chart;
  chart.title = lab.lab.folder + ": effective bandwidth against input size";
  chart.x_label = "n (items)";
  chart.y_label = "GB/s";
  // One colour per variant: the student's line solid, the reference's dashed beside it.
  std::map<std::string, int> variant_colour;
  for (const auto* timings : {&lab.student_times, &lab.reference_times})
    for (const auto& t : *timings) variant_colour.emplace(t.variant, int(variant_colour.size()));
  auto add_series = [&](const std::vector<Timing>& timings, const std::string& impl, const std::string& label,
                        bool dashed) {
    std::map<std::string, std::vector<const Timing*>> by_variant;
    for (const auto& t : timings)
      if (t.impl == impl) by_variant[t.variant].push_back(&t);
    for (auto& [variant, points] : by_variant) {
      ChartSeries series{label + (variant.empty() ? "" : " (" + variant + ")"), {}, dashed, variant_colour[variant]};
      for (const auto* t : points) series.points.emplace_back(double(t->n), t->gbps);
      chart.series.push_back(std::move(series));
    }
  };
  add_series(lab.student_times, "student", "student", false);
  add_series(lab.reference_times, "reference", "reference", true);
  // The benchmarks time the copy of the same bytes once per size, in size order; its
  // item count differs from the lab's (2n floats for a dot product), so plot it at the
  // lab's n.
  {
    ChartSeries copy{"device copy of the same bytes", {}, true, kGrey};
    std::size_t index = 0;
    for (const auto& t : lab.other_times) {
      if (t.impl != "copy" || index >= lab.rules.bench_log2_sizes.size()) continue;
      copy.points.emplace_back(double(std::uint64_t{1} << lab.rules.bench_log2_sizes[index++]), t.gbps);
    }
    if (!copy.points.empty()) chart.series.push_back(std::move(copy));
  }
  if (lab.device_copy_gbps > 0) chart.ceiling = {{"copy ceiling (1 GiB cudaMemcpy)", lab.device_copy_gbps}};
  try {
    const fs::path plots = dir / "plots";
    write_text_file(plots / (lab.lab.folder + ".csv"), plot_csv(chart));
    write_text_file(plots / (lab.lab.folder + ".svg"), render_svg(chart));
    lab.plot = "plots/" + lab.lab.folder + ".svg";
  } catch (const std::exception& error) {
    problems.push_back(lab.lab.folder + ": plot: " + error.what());
  }
}

// ---------------------------------------------------------------- markdown

std::string markdown(const GradeReport& report) {
  std::ostringstream md;
  md << "# " << title(report) << "\n\n";
  md << "**Score: " << format_points(report.score()) << " / " << format_points(report.max()) << "**\n\n";
  if (auto banner = speed_banner(report); !banner.empty()) md << "> " << banner << "\n\n";
  md << "- backend: " << report.backend << " (" << report.device << ")\n"
     << "- correctness: " << report.correctness() << "\n"
     << "- seed: " << seed_text(report) << "; regrade with `pplab grade --seed " << report.seed << "`\n"
     << "- points file: " << report.points_file << "\n"
     << "- started: " << report.started << ", took " << fixed(report.seconds, 1) << " s\n\n";
  if (!report.notes.empty()) {
    md << "## Submission\n\n";
    for (const auto& note : report.notes) md << "- " << note << "\n";
    md << "\n";
  }
  md << "## Summary\n\n| lab | status | checks passed | correctness | time | GB/s | % of copy | vs reference "
        "| speed | total |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& lab : report.labs) {
    const auto cells = speed_cells(lab);
    md << "| " << lab.lab.folder << " | " << status_name(lab.status) << " | " << lab.checks.passed() << " / "
       << (lab.case_names.empty() ? lab.checks.cases.size() : lab.case_names.size()) << " | "
       << format_points(lab.correctness) << " / " << format_points(lab.correctness_max) << " | " << cells.time
       << " | " << cells.gbps << " | " << cells.percent << " | " << cells.ratio << " | " << cells.points << " | "
       << format_points(lab.score()) << " / " << format_points(lab.max()) << " |\n";
  }
  md << "\n";
  for (const auto& lab : report.labs) {
    md << "## " << lab.lab.folder << "\n\n";
    md << "Status: **" << status_name(lab.status) << "**. Correctness " << format_points(lab.correctness) << " / "
       << format_points(lab.correctness_max) << "; speed: " << (lab.speed_graded ? format_points(lab.speed) + " / " + format_points(lab.speed_max) + ", " : "")
       << md_cell(lab.speed_note) << ".\n\n";
    if (!lab.status_detail.empty()) md << "```\n" << tail(lab.status_detail, 6000) << "\n```\n\n";
    md << "| group | points | checks passed |\n|---|---:|---:|\n";
    for (const auto& group : lab.groups)
      md << "| " << md_cell(group.name) << " | " << format_points(group.points) << " / " << format_points(group.max)
         << " | " << group.passed << " / " << group.cases.size() << " |\n";
    md << "\n";
    if (!lab.checks.cases.empty()) {
      md << "| check | verdict | seconds | reason |\n|---|---|---:|---|\n";
      for (const auto& c : lab.checks.cases)
        md << "| " << md_cell(c.name) << " | " << verdict_name(c.verdict) << " | " << fixed(c.seconds, 1) << " | "
           << md_cell(c.reason) << " |\n";
      md << "\n";
    }
    if (!lab.lost.empty()) {
      md << "Lost points:\n\n";
      for (const auto& line : lab.lost) md << "- " << line << "\n";
      md << "\n";
    }
    for (const auto& note : lab.notes) md << "- note: " << note << "\n";
    if (!lab.notes.empty()) md << "\n";
    if (!lab.student_times.empty() || !lab.reference_times.empty()) {
      md << "| impl | variant | n | median ms | GB/s | % of copy |\n|---|---|---:|---:|---:|---:|\n";
      for (const auto* list : {&lab.student_times, &lab.reference_times, &lab.other_times})
        for (const auto& t : *list)
          md << "| " << t.impl << " | " << md_cell(t.variant) << " | " << t.n << " | " << fixed(t.median_ms, 4)
             << " | " << fixed(t.gbps, 1) << " | " << fixed(t.percent_of_copy, 1) << " |\n";
      md << "\n";
    }
    if (!lab.plot.empty()) md << "![" << lab.lab.folder << " bandwidth](" << lab.plot << ")\n\n";
    else if (report.backend == "gpu" && lab.speed_graded) md << "(no plot: see the notes above)\n\n";
    for (const auto& c : lab.checks.cases) {
      if (c.passed()) continue;
      md << "<details><summary>" << html_escape(c.name) << " — " << verdict_name(c.verdict)
         << "</summary>\n\n```\n" << tail(c.detail.empty() ? checker_lines(c.output) : c.detail + "\n--- output ---\n" + checker_lines(c.output), 4000)
         << "\n```\n</details>\n\n";
    }
  }
  return md.str();
}

// ---------------------------------------------------------------- html

std::string html(const GradeReport& report) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(title(report))
    << "</title>\n<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
       "color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
       "text-align:left;vertical-align:top}th{background:#f3f3f3}.num{text-align:right}.passed{color:#17692d}"
       ".failed{color:#a61b1b;font-weight:600}.banner{background:#fff4d6;border:1px solid #e0b84c;padding:.7em}"
       "pre{background:#f6f6f6;padding:.6em;overflow-x:auto;max-height:30em}img{max-width:100%}</style></head><body>\n";
  h << "<h1>" << html_escape(title(report)) << "</h1>\n<p><strong>Score: " << format_points(report.score()) << " / "
    << format_points(report.max()) << "</strong></p>\n";
  if (auto banner = speed_banner(report); !banner.empty()) h << "<p class=\"banner\">" << html_escape(banner) << "</p>\n";
  h << "<ul><li>backend: " << html_escape(report.backend + " (" + report.device + ")") << "</li><li>correctness: "
    << html_escape(report.correctness()) << "</li><li>seed: "
    << html_escape(seed_text(report)) << "</li><li>points file: " << html_escape(report.points_file)
    << "</li><li>started " << html_escape(report.started) << ", took " << fixed(report.seconds, 1) << " s</li></ul>\n";
  if (!report.notes.empty()) {
    h << "<h2>Submission</h2><ul>";
    for (const auto& note : report.notes) h << "<li>" << html_escape(note) << "</li>";
    h << "</ul>\n";
  }
  h << "<h2>Summary</h2><table><tr><th>lab</th><th>status</th><th>checks passed</th><th>correctness</th><th>time</th>"
       "<th>GB/s</th><th>% of copy</th><th>vs reference</th><th>speed</th><th>total</th></tr>\n";
  for (const auto& lab : report.labs) {
    const auto cells = speed_cells(lab);
    h << "<tr><td><a href=\"#" << lab.lab.folder << "\">" << lab.lab.folder << "</a></td><td>" << html_escape(status_name(lab.status))
      << "</td><td class=\"num\">" << lab.checks.passed() << " / "
      << (lab.case_names.empty() ? lab.checks.cases.size() : lab.case_names.size()) << "</td><td class=\"num\">"
      << format_points(lab.correctness) << " / " << format_points(lab.correctness_max) << "</td><td class=\"num\">"
      << cells.time << "</td><td class=\"num\">" << cells.gbps << "</td><td class=\"num\">" << cells.percent
      << "</td><td class=\"num\">" << cells.ratio << "</td><td class=\"num\">" << cells.points << "</td><td class=\"num\">"
      << format_points(lab.score()) << " / " << format_points(lab.max()) << "</td></tr>\n";
  }
  h << "</table>\n";
  for (const auto& lab : report.labs) {
    h << "<h2 id=\"" << lab.lab.folder << "\">" << lab.lab.folder << "</h2>\n<p>Status: <strong>"
      << html_escape(status_name(lab.status)) << "</strong>. Correctness " << format_points(lab.correctness) << " / "
      << format_points(lab.correctness_max) << "; speed: "
      << (lab.speed_graded ? format_points(lab.speed) + " / " + format_points(lab.speed_max) + ", " : "")
      << html_escape(lab.speed_note) << ".</p>\n";
    if (!lab.status_detail.empty()) h << "<pre>" << html_escape(tail(lab.status_detail, 6000)) << "</pre>\n";
    h << "<table><tr><th>group</th><th>points</th><th>checks passed</th></tr>";
    for (const auto& group : lab.groups)
      h << "<tr><td>" << html_escape(group.name) << "</td><td class=\"num\">" << format_points(group.points) << " / "
        << format_points(group.max) << "</td><td class=\"num\">" << group.passed << " / " << group.cases.size()
        << "</td></tr>";
    h << "</table>\n";
    if (!lab.checks.cases.empty()) {
      h << "<table><tr><th>check</th><th>verdict</th><th>s</th><th>reason</th></tr>";
      for (const auto& c : lab.checks.cases)
        h << "<tr><td>" << html_escape(c.name) << "</td><td class=\"" << (c.passed() ? "passed" : "failed") << "\">"
          << verdict_name(c.verdict) << "</td><td class=\"num\">" << fixed(c.seconds, 1) << "</td><td>"
          << html_escape(c.reason) << "</td></tr>";
      h << "</table>\n";
    }
    if (!lab.lost.empty()) {
      h << "<p>Lost points:</p><ul>";
      for (const auto& line : lab.lost) h << "<li>" << html_escape(line) << "</li>";
      h << "</ul>\n";
    }
    if (!lab.notes.empty()) {
      h << "<ul>";
      for (const auto& note : lab.notes) h << "<li>note: " << html_escape(note) << "</li>";
      h << "</ul>\n";
    }
    if (!lab.student_times.empty() || !lab.reference_times.empty()) {
      h << "<table><tr><th>impl</th><th>variant</th><th>n</th><th>median ms</th><th>GB/s</th><th>% of copy</th></tr>";
      for (const auto* list : {&lab.student_times, &lab.reference_times, &lab.other_times})
        for (const auto& t : *list)
          h << "<tr><td>" << html_escape(t.impl) << "</td><td>" << html_escape(t.variant) << "</td><td class=\"num\">"
            << t.n << "</td><td class=\"num\">" << fixed(t.median_ms, 4) << "</td><td class=\"num\">" << fixed(t.gbps, 1)
            << "</td><td class=\"num\">" << fixed(t.percent_of_copy, 1) << "</td></tr>";
      h << "</table>\n";
    }
    if (!lab.plot.empty())
      h << "<p><img src=\"" << lab.plot << "\" alt=\"" << lab.lab.folder << " effective bandwidth\"></p>\n";
    for (const auto& c : lab.checks.cases) {
      if (c.passed()) continue;
      h << "<details><summary>" << html_escape(c.name) << " — " << verdict_name(c.verdict) << "</summary><pre>"
        << html_escape(tail(c.detail.empty() ? checker_lines(c.output) : c.detail + "\n--- output ---\n" + checker_lines(c.output), 4000))
        << "</pre></details>\n";
    }
  }
  h << "</body></html>\n";
  return h.str();
}

// ---------------------------------------------------------------- results.json

json gradescope(const GradeReport& report) {
  json tests = json::array();
  for (const auto& lab : report.labs) {
    for (const auto& group : lab.groups) {
      if (group.max == 0 && group.cases.empty()) continue;
      std::string output;
      if (lab.status != LabStatus::graded) output = status_name(lab.status) + "\n" + tail(lab.status_detail, 3000) + "\n";
      for (std::size_t index : group.cases) {
        const std::string& name = lab.case_names[index];
        const CaseResult* result = nullptr;
        for (const auto& c : lab.checks.cases)
          if (c.name == name) result = &c;
        output += result ? case_line(*result) + "\n" : "[not run] " + name + "\n";
        if (result && !result->passed()) output += tail(result->detail.empty() ? checker_lines(result->output) : result->detail, 1500) + "\n";
      }
      tests.push_back({{"name", lab.lab.folder + ": " + group.name},
                       {"score", group.points},
                       {"max_score", group.max},
                       {"status", group.points + 1e-9 >= group.max ? "passed" : "failed"},
                       {"output", output},
                       {"visibility", lab.rules.visibility}});
    }
    std::string speed_output = lab.speed_note;
    if (lab.student_ms > 0)
      speed_output += "\nstudent " + fixed(lab.student_ms, 4) + " ms, " + fixed(lab.student_gbps, 1) + " GB/s (" +
                      fixed(lab.student_percent_of_copy, 1) + "% of copy); reference " + fixed(lab.reference_ms, 4) + " ms";
    for (const auto& note : lab.notes) speed_output += "\nnote: " + note;
    tests.push_back({{"name", lab.lab.folder + (lab.speed_graded ? ": speed" : ": speed (not graded)")},
                     {"score", lab.speed},
                     {"max_score", lab.speed_max},
                     {"status", lab.speed + 1e-9 >= lab.speed_max ? "passed" : "failed"},
                     {"output", speed_output},
                     {"visibility", lab.rules.visibility}});
  }
  std::string output = "Graded on the " + report.backend + " backend (" + report.device + "), correctness: " +
                       report.correctness() + ", seed " + seed_text(report) + ".";
  if (auto banner = speed_banner(report); !banner.empty()) output += "\n" + banner;
  for (const auto& note : report.notes) output += "\n" + note;
  json labs = json::object();
  for (const auto& lab : report.labs)
    labs[lab.lab.folder] = {{"score", lab.score()},         {"max_score", lab.max()},
                            {"correctness", lab.correctness}, {"speed", lab.speed},
                            {"status", status_name(lab.status)},         {"ratio_to_reference", lab.ratio}};
  return {{"score", report.score()},
          {"execution_time", int(report.seconds + 0.5)},
          {"output", output},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"},
          {"extra_data", {{"seed", report.seed}, {"backend", report.backend}, {"correctness", report.correctness()},
                          {"max_score", report.max()},
                          {"student", report.student}, {"labs", labs}}},
          {"tests", tests}};
}

// ---------------------------------------------------------------- junit

std::string junit(const GradeReport& report) {
  std::ostringstream x;
  int tests = 0, failures = 0, errors = 0;
  std::ostringstream suites;
  for (const auto& lab : report.labs) {
    int lab_tests = 0, lab_failures = 0, lab_errors = 0;
    double seconds = 0;
    std::ostringstream cases;
    const std::string suite = (report.student.empty() ? "" : report.student + ".") + lab.lab.folder;
    if (lab.status != LabStatus::graded) {
      ++lab_tests;
      ++lab_errors;
      cases << "    <testcase classname=\"" << xml_escape(suite) << "\" name=\"build\" time=\"0\">\n"
            << "      <error type=\"" << xml_escape(status_name(lab.status)) << "\" message=\"" << xml_escape(status_name(lab.status)) << "\">"
            << xml_escape(tail(lab.status_detail, 8000)) << "</error>\n    </testcase>\n";
    }
    for (const auto& c : lab.checks.cases) {
      ++lab_tests;
      seconds += c.seconds;
      cases << "    <testcase classname=\"" << xml_escape(suite) << "\" name=\"" << xml_escape(c.name) << "\" time=\""
            << fixed(c.seconds, 3) << "\"";
      if (c.passed()) {
        cases << "/>\n";
        continue;
      }
      const bool failure = c.verdict == CaseResult::Verdict::wrong_answer || c.verdict == CaseResult::Verdict::host_work ||
                           c.verdict == CaseResult::Verdict::memory_error || c.verdict == CaseResult::Verdict::race_hazard ||
                           c.verdict == CaseResult::Verdict::data_race || c.verdict == CaseResult::Verdict::uninit_shared ||
                           c.verdict == CaseResult::Verdict::shared_oob;
      (failure ? lab_failures : lab_errors)++;
      const char* tag = failure ? "failure" : "error";
      cases << ">\n      <" << tag << " type=\"" << xml_escape(verdict_name(c.verdict)) << "\" message=\""
            << xml_escape(c.reason) << "\">" << xml_escape(tail(c.detail.empty() ? checker_lines(c.output) : c.detail, 8000)) << "</"
            << tag << ">\n    </testcase>\n";
    }
    ++lab_tests;
    cases << "    <testcase classname=\"" << xml_escape(suite) << "\" name=\"speed\" time=\"0\"";
    if (!lab.speed_graded) {
      cases << ">\n      <skipped message=\"" << xml_escape(lab.speed_note) << "\"/>\n    </testcase>\n";
    } else if (lab.speed + 1e-9 < lab.speed_max) {
      ++lab_failures;
      cases << ">\n      <failure type=\"speed\" message=\"" << xml_escape(lab.speed_note) << "\"/>\n    </testcase>\n";
    } else {
      cases << "/>\n";
    }
    suites << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << lab_tests << "\" failures=\""
           << lab_failures << "\" errors=\"" << lab_errors << "\" time=\"" << fixed(seconds, 3) << "\">\n"
           << "    <properties><property name=\"correctness\" value=\""
           << xml_escape(lab.judged_by(report.backend))
           << "\"/></properties>\n"
           << cases.str() << "  </testsuite>\n";
    tests += lab_tests;
    failures += lab_failures;
    errors += lab_errors;
  }
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pplab grade\" tests=\"" << tests
    << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" time=\"" << fixed(report.seconds, 3) << "\">\n"
    << suites.str() << "</testsuites>\n";
  return x.str();
}

}  // namespace

std::vector<std::string> write_reports(GradeReport& report, const fs::path& dir) {
  std::vector<std::string> problems;
  try {
    fs::create_directories(dir);
  } catch (const std::exception& error) {
    problems.push_back(std::string("cannot create ") + dir.string() + ": " + error.what());
    return problems;
  }
  for (auto& lab : report.labs) {
    try {
      make_plot(lab, dir, problems);
    } catch (const std::exception& error) {
      problems.push_back(lab.lab.folder + ": plot: " + error.what());
    }
  }
  auto attempt = [&](const char* name, const std::function<std::string()>& make) {
    try {
      write_text_file(dir / name, make());
    } catch (const std::exception& error) {
      problems.push_back(std::string(name) + ": " + error.what());
    }
  };
  attempt("results.json", [&] { return gradescope(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n"; });
  attempt("junit.xml", [&] { return junit(report); });
  attempt("report.md", [&] { return markdown(report); });
  attempt("report.html", [&] { return html(report); });
  return problems;
}

std::string batch_summary(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs) {
  std::ostringstream md;
  md << "| student | total |";
  for (const auto& lab : labs) md << " " << lab << " |";
  md << "\n|---|---:|";
  for (std::size_t i = 0; i < labs.size(); ++i) md << "---:|";
  md << "\n";
  for (const auto& report : reports) {
    md << "| " << md_cell(report.student) << " | " << format_points(report.score()) << " / "
       << format_points(report.max()) << " |";
    for (const auto& name : labs) {
      std::string cell = "—";
      for (const auto& lab : report.labs)
        if (lab.lab.folder == name) cell = format_points(lab.score()) + (lab.status == LabStatus::graded ? "" : " (" + status_name(lab.status) + ")");
      md << " " << md_cell(cell) << " |";
    }
    md << "\n";
  }
  return md.str();
}

void write_gradebook(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs,
                     const fs::path& path) {
  std::ostringstream out;
  out << "student,total,max";
  for (const auto& lab : labs) out << "," << csv_field(lab);
  out << ",notes\n";
  for (const auto& report : reports) {
    out << csv_field(report.student) << "," << format_points(report.score()) << "," << format_points(report.max());
    std::string notes;
    for (const auto& name : labs) {
      std::string cell;
      for (const auto& lab : report.labs)
        if (lab.lab.folder == name) {
          cell = format_points(lab.score());
          if (lab.status != LabStatus::graded) notes += (notes.empty() ? "" : "; ") + name + ": " + status_name(lab.status);
        }
      out << "," << cell;
    }
    for (const auto& note : report.notes) notes += (notes.empty() ? "" : "; ") + note;
    out << "," << csv_field(notes) << "\n";
  }
  write_text_file(path, out.str());
}

}  // namespace pplab::cli
