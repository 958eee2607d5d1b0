#include "reports.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "markup.h"
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

// The numbers behind the plot, for anyone who wants to draw it differently. The ceiling
// is one value at every n, so its n is left empty.
std::string plot_csv(const Chart& chart) {
  std::string out = "series,n,gbps\n";
  for (const auto& series : chart.series)
    for (const auto& [n, gbps] : series.points)
      out += csv_cell(series.label) + "," + fixed(n, 0) + "," + fixed(gbps, 3) + "\n";
  if (chart.ceiling) out += csv_cell(chart.ceiling->first) + ",," + fixed(chart.ceiling->second, 3) + "\n";
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

// ---------------------------------------------------------------- the report as a document

// report.md and report.html are one document rendered twice: document() builds its
// blocks once, and markdown() and html() only say how each kind of block is written, so
// the two files always hold the same sections, rows and words.

struct Span {
  std::string text;
  enum class Style { plain, strong, code } style = Style::plain;
};
using Spans = std::vector<Span>;
Span strong(std::string text) { return {std::move(text), Span::Style::strong}; }
Span code(std::string text) { return {std::move(text), Span::Style::code}; }

struct Cell {
  std::string text;
  std::string css;     // the HTML cell's class beyond alignment ("passed", "failed")
  std::string anchor;  // the cell links to the section with this id
};
struct Column {
  std::string heading;
  bool numeric = false;  // right-aligned
};

struct Block {
  enum class Kind { heading, paragraph, banner, list, table, pre, image, details } kind;
  Spans spans;                         // heading, paragraph, banner
  int level = 1;                       // heading
  std::string id;                      // heading: the anchor a summary row links to
  std::vector<Spans> items;            // list
  std::vector<Column> columns;         // table
  std::vector<std::vector<Cell>> rows;  // table
  std::string text;                    // pre, details: the text; image: its file
  std::string summary;                 // details: the line shown folded; image: its alt text
};

Block heading(int level, std::string text, std::string id = "") {
  Block b{Block::Kind::heading};
  b.level = level;
  b.spans = {{std::move(text)}};
  b.id = std::move(id);
  return b;
}
Block paragraph(Spans spans) {
  Block b{Block::Kind::paragraph};
  b.spans = std::move(spans);
  return b;
}
Block list(std::vector<Spans> items) {
  Block b{Block::Kind::list};
  b.items = std::move(items);
  return b;
}
Block table(std::vector<Column> columns) {
  Block b{Block::Kind::table};
  b.columns = std::move(columns);
  return b;
}
Block text_block(Block::Kind kind, std::string text, std::string summary = "") {
  Block b{kind};
  b.text = std::move(text);
  b.summary = std::move(summary);
  return b;
}

// "12 / 19, 7 skipped": a skipped check (a stretch step not written) is not a passed one.
std::string checks_total(const LabGrade& lab) {
  const int skipped = lab.checks.skipped();
  return std::to_string(lab.checks.passed()) + " / " +
         std::to_string(lab.case_names.empty() ? lab.checks.cases.size() : lab.case_names.size()) +
         (skipped ? ", " + std::to_string(skipped) + " skipped" : "");
}
std::string points_of(double points, double max) { return format_points(points) + " / " + format_points(max); }

std::vector<Block> document(const GradeReport& report) {
  std::vector<Block> doc;
  doc.push_back(heading(1, title(report)));
  doc.push_back(paragraph({strong("Score: " + points_of(report.score(), report.max()))}));
  if (auto banner = speed_banner(report); !banner.empty()) {
    Block b{Block::Kind::banner};
    b.spans = {{banner}};
    doc.push_back(b);
  }
  doc.push_back(list({{{"backend: " + report.backend + " (" + report.device + ")"}},
                      {{"correctness: " + report.correctness()}},
                      {{"seed: " + seed_text(report) + "; regrade with "},
                       code("pplab grade --seed " + std::to_string(report.seed))},
                      {{"points file: " + report.points_file}},
                      {{"started: " + report.started + ", took " + fixed(report.seconds, 1) + " s"}}}));
  if (!report.notes.empty()) {
    doc.push_back(heading(2, "Submission"));
    std::vector<Spans> notes;
    for (const auto& note : report.notes) notes.push_back({{note}});
    doc.push_back(list(notes));
  }

  doc.push_back(heading(2, "Summary"));
  Block summary = table({{"lab"}, {"status"}, {"checks passed", true}, {"correctness", true}, {"time", true},
                         {"GB/s", true}, {"% of copy", true}, {"vs reference", true}, {"speed", true},
                         {"total", true}});
  for (const auto& lab : report.labs) {
    const auto cells = speed_cells(lab);
    summary.rows.push_back({{lab.lab.folder, "", lab.lab.folder}, {status_name(lab.status)}, {checks_total(lab)},
                            {points_of(lab.correctness, lab.correctness_max)}, {cells.time}, {cells.gbps},
                            {cells.percent}, {cells.ratio}, {cells.points}, {points_of(lab.score(), lab.max())}});
  }
  doc.push_back(summary);

  for (const auto& lab : report.labs) {
    doc.push_back(heading(2, lab.lab.folder, lab.lab.folder));
    doc.push_back(paragraph({{"Status: "}, strong(status_name(lab.status)),
                             {". Correctness " + points_of(lab.correctness, lab.correctness_max) + "; speed: " +
                              (lab.speed_graded ? points_of(lab.speed, lab.speed_max) + ", " : "") + lab.speed_note +
                              "."}}));
    if (!lab.status_detail.empty()) doc.push_back(text_block(Block::Kind::pre, tail(lab.status_detail, 6000)));
    Block groups = table({{"group"}, {"points", true}, {"checks passed", true}});
    for (const auto& group : lab.groups)
      groups.rows.push_back({{group.name}, {points_of(group.points, group.max)},
                             {std::to_string(group.passed) + " / " + std::to_string(group.cases.size()) +
                              (group.skipped ? ", " + std::to_string(group.skipped) + " skipped" : "")}});
    doc.push_back(groups);
    if (!lab.checks.cases.empty()) {
      Block checks = table({{"check"}, {"verdict"}, {"seconds", true}, {"reason"}});
      for (const auto& c : lab.checks.cases)
        checks.rows.push_back({{c.name}, {verdict_name(c.verdict), c.passed() ? "passed" : c.skipped() ? "skipped" : "failed"},
                               {fixed(c.seconds, 1)}, {c.reason}});
      doc.push_back(checks);
    }
    if (!lab.lost.empty()) {
      doc.push_back(paragraph({{"Lost points:"}}));
      std::vector<Spans> lost;
      for (const auto& line : lab.lost) lost.push_back({{line}});
      doc.push_back(list(lost));
    }
    if (!lab.notes.empty()) {
      std::vector<Spans> notes;
      for (const auto& note : lab.notes) notes.push_back({{"note: " + note}});
      doc.push_back(list(notes));
    }
    if (!lab.student_times.empty() || !lab.reference_times.empty()) {
      // "spread": half the median's 95% interval, so a reader sees how far apart two
      // times must be to differ; "repeats": how many it took to get there.
      Block times = table({{"impl"}, {"variant"}, {"n", true}, {"median ms", true}, {"spread", true},
                           {"repeats", true}, {"GB/s", true}, {"% of copy", true}});
      for (const auto* timings : {&lab.student_times, &lab.reference_times, &lab.other_times})
        for (const auto& t : *timings)
          times.rows.push_back({{t.impl}, {t.variant}, {std::to_string(t.n)}, {fixed(t.median_ms, 4)},
                                {"+-" + fixed(t.spread_percent, 1) + "%"}, {std::to_string(t.repeats)},
                                {fixed(t.gbps, 1)}, {fixed(t.percent_of_copy, 1)}});
      doc.push_back(times);
    }
    if (!lab.plot.empty())
      doc.push_back(text_block(Block::Kind::image, lab.plot, lab.lab.folder + " bandwidth"));
    else if (report.backend == "gpu" && lab.speed_graded)
      doc.push_back(paragraph({{"(no plot: see the notes above)"}}));
    for (const auto& c : lab.checks.cases) {
      if (!c.failed()) continue;
      const std::string output = c.detail.empty() ? checker_lines(c.output)
                                                  : c.detail + "\n--- output ---\n" + checker_lines(c.output);
      doc.push_back(text_block(Block::Kind::details, tail(output, 4000), c.name + " — " + verdict_name(c.verdict)));
    }
  }
  return doc;
}

// ---------------------------------------------------------------- markdown

// The spans of a block that starts its line: the first span is at the line's start.
std::string markdown_spans(const Spans& spans) {
  std::string out;
  for (const auto& span : spans) {
    const auto place = out.empty() ? MarkdownPlace::line_start : MarkdownPlace::after_text;
    switch (span.style) {
      case Span::Style::plain: out += markdown_text(span.text, place); break;
      case Span::Style::strong: out += "**" + markdown_text(span.text, MarkdownPlace::after_text) + "**"; break;
      case Span::Style::code: out += markdown_code_span(span.text); break;
    }
  }
  return out;
}

std::string markdown(const GradeReport& report) {
  std::ostringstream md;
  for (const Block& b : document(report)) {
    switch (b.kind) {
      case Block::Kind::heading: md << std::string(b.level, '#') << " " << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::paragraph: md << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::banner: md << "> " << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::list:
        for (const auto& item : b.items) md << "- " << markdown_spans(item) << "\n";
        md << "\n";
        break;
      case Block::Kind::table:
        md << "|";
        for (const auto& column : b.columns) md << " " << markdown_text(column.heading, MarkdownPlace::after_text) << " |";
        md << "\n|";
        for (const auto& column : b.columns) md << (column.numeric ? "---:|" : "---|");
        md << "\n";
        for (const auto& row : b.rows) {
          md << "|";
          for (const auto& cell : row) md << " " << markdown_text(cell.text, MarkdownPlace::after_text) << " |";
          md << "\n";
        }
        md << "\n";
        break;
      case Block::Kind::pre: md << markdown_code_block(b.text) << "\n"; break;
      case Block::Kind::image: md << "![" << markdown_text(b.summary, MarkdownPlace::after_text) << "](" << b.text << ")\n\n"; break;
      case Block::Kind::details:
        // GitHub and most viewers show HTML folds in Markdown; the summary is HTML there
        // (one line: a blank line would end the HTML block), the text a code block it
        // cannot close.
        md << "<details><summary>" << markup_escape(b.summary, LineBreaks::visible) << "</summary>\n\n"
           << markdown_code_block(b.text) << "</details>\n\n";
        break;
    }
  }
  return md.str();
}

// ---------------------------------------------------------------- html

// Text on one line of report.html or an attribute of junit.xml: its control characters
// shown as escapes (a file name's line break reads \n, as in report.md).
std::string field(const std::string& text) { return markup_escape(text, LineBreaks::visible); }

std::string html_spans(const Spans& spans) {
  std::string out;
  for (const auto& span : spans) {
    switch (span.style) {
      case Span::Style::plain: out += field(span.text); break;
      case Span::Style::strong: out += "<strong>" + field(span.text) + "</strong>"; break;
      case Span::Style::code: out += "<code>" + field(span.text) + "</code>"; break;
    }
  }
  return out;
}

std::string html(const GradeReport& report) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << field(title(report))
    << "</title>\n<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
       "color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
       "text-align:left;vertical-align:top}th{background:#f3f3f3}.num{text-align:right}.passed{color:#17692d}"
       ".failed{color:#a61b1b;font-weight:600}.skipped{color:#666}.banner{background:#fff4d6;border:1px solid #e0b84c;padding:.7em}"
       "pre{background:#f6f6f6;padding:.6em;overflow-x:auto;max-height:30em}img{max-width:100%}</style></head><body>\n";
  for (const Block& b : document(report)) {
    switch (b.kind) {
      case Block::Kind::heading:
        h << "<h" << b.level << (b.id.empty() ? "" : " id=\"" + field(b.id) + "\"") << ">"
          << html_spans(b.spans) << "</h" << b.level << ">\n";
        break;
      case Block::Kind::paragraph: h << "<p>" << html_spans(b.spans) << "</p>\n"; break;
      case Block::Kind::banner: h << "<p class=\"banner\">" << html_spans(b.spans) << "</p>\n"; break;
      case Block::Kind::list:
        h << "<ul>";
        for (const auto& item : b.items) h << "<li>" << html_spans(item) << "</li>";
        h << "</ul>\n";
        break;
      case Block::Kind::table:
        h << "<table><tr>";
        for (const auto& column : b.columns) h << "<th>" << field(column.heading) << "</th>";
        h << "</tr>\n";
        for (const auto& row : b.rows) {
          h << "<tr>";
          for (std::size_t k = 0; k < row.size(); ++k) {
            const Cell& cell = row[k];
            std::string css = k < b.columns.size() && b.columns[k].numeric ? "num" : "";
            if (!cell.css.empty()) css += (css.empty() ? "" : " ") + cell.css;
            h << "<td" << (css.empty() ? "" : " class=\"" + css + "\"") << ">";
            if (cell.anchor.empty()) h << field(cell.text);
            else h << "<a href=\"#" << field(cell.anchor) << "\">" << field(cell.text) << "</a>";
            h << "</td>";
          }
          h << "</tr>\n";
        }
        h << "</table>\n";
        break;
      case Block::Kind::pre: h << "<pre>" << markup_escape(b.text) << "</pre>\n"; break;
      case Block::Kind::image:
        h << "<p><img src=\"" << field(b.text) << "\" alt=\"" << field(b.summary) << "\"></p>\n";
        break;
      case Block::Kind::details:
        h << "<details><summary>" << field(b.summary) << "</summary><pre>" << markup_escape(b.text)
          << "</pre></details>\n";
        break;
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
        if (result && result->failed()) output += tail(result->detail.empty() ? checker_lines(result->output) : result->detail, 1500) + "\n";
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
                            {"status", status_name(lab.status)},         {"ratio_to_reference", lab.ratio},
                            {"ratio_noise", lab.ratio_noise}};
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

// Attribute values are one line (field()); a failure's body keeps its lines.
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
      cases << "    <testcase classname=\"" << field(suite) << "\" name=\"build\" time=\"0\">\n"
            << "      <error type=\"" << field(status_name(lab.status)) << "\" message=\"" << field(status_name(lab.status)) << "\">"
            << markup_escape(tail(lab.status_detail, 8000)) << "</error>\n    </testcase>\n";
    }
    for (const auto& c : lab.checks.cases) {
      ++lab_tests;
      seconds += c.seconds;
      cases << "    <testcase classname=\"" << field(suite) << "\" name=\"" << field(c.name) << "\" time=\""
            << fixed(c.seconds, 3) << "\"";
      if (c.passed()) {
        cases << "/>\n";
        continue;
      }
      if (c.skipped()) {
        cases << ">\n      <skipped message=\"" << field(c.reason) << "\"/>\n    </testcase>\n";
        continue;
      }
      const bool failure = c.verdict == CaseResult::Verdict::wrong_answer || c.verdict == CaseResult::Verdict::host_work ||
                           c.verdict == CaseResult::Verdict::memory_error || c.verdict == CaseResult::Verdict::race_hazard ||
                           c.verdict == CaseResult::Verdict::data_race || c.verdict == CaseResult::Verdict::uninit_shared ||
                           c.verdict == CaseResult::Verdict::shared_oob;
      (failure ? lab_failures : lab_errors)++;
      const char* tag = failure ? "failure" : "error";
      cases << ">\n      <" << tag << " type=\"" << field(verdict_name(c.verdict)) << "\" message=\""
            << field(c.reason) << "\">" << markup_escape(tail(c.detail.empty() ? checker_lines(c.output) : c.detail, 8000)) << "</"
            << tag << ">\n    </testcase>\n";
    }
    ++lab_tests;
    cases << "    <testcase classname=\"" << field(suite) << "\" name=\"speed\" time=\"0\"";
    if (!lab.speed_graded) {
      cases << ">\n      <skipped message=\"" << field(lab.speed_note) << "\"/>\n    </testcase>\n";
    } else if (lab.speed + 1e-9 < lab.speed_max) {
      ++lab_failures;
      cases << ">\n      <failure type=\"speed\" message=\"" << field(lab.speed_note) << "\"/>\n    </testcase>\n";
    } else {
      cases << "/>\n";
    }
    suites << "  <testsuite name=\"" << field(suite) << "\" tests=\"" << lab_tests << "\" failures=\""
           << lab_failures << "\" errors=\"" << lab_errors << "\" time=\"" << fixed(seconds, 3) << "\">\n"
           << "    <properties><property name=\"correctness\" value=\""
           << field(lab.judged_by(report.backend))
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
  for (const auto& lab : labs) md << " " << markdown_text(lab, MarkdownPlace::after_text) << " |";
  md << "\n|---|---:|";
  for (std::size_t i = 0; i < labs.size(); ++i) md << "---:|";
  md << "\n";
  for (const auto& report : reports) {
    md << "| " << markdown_text(report.student, MarkdownPlace::after_text) << " | " << format_points(report.score()) << " / "
       << format_points(report.max()) << " |";
    for (const auto& name : labs) {
      std::string cell = "—";
      for (const auto& lab : report.labs)
        if (lab.lab.folder == name) cell = format_points(lab.score()) + (lab.status == LabStatus::graded ? "" : " (" + status_name(lab.status) + ")");
      md << " " << markdown_text(cell, MarkdownPlace::after_text) << " |";
    }
    md << "\n";
  }
  return md.str();
}

void write_gradebook(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs,
                     const fs::path& path) {
  std::ostringstream out;
  out << "student,total,max";
  for (const auto& lab : labs) out << "," << csv_cell(lab);
  out << ",notes\n";
  for (const auto& report : reports) {
    out << csv_cell(report.student) << "," << format_points(report.score()) << "," << format_points(report.max());
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
    out << "," << csv_cell(notes) << "\n";
  }
  write_text_file(path, out.str());
}

}  // namespace pplab::cli
