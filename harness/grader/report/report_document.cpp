#include "report_document.h"

#include <cstdio>

#include "markup.h"

namespace pplab::cli::reporting {

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

std::string field(const std::string& text) { return markup_escape(text, LineBreaks::visible); }

namespace {

Span strong(std::string text) { return {std::move(text), Span::Style::strong}; }
Span code(std::string text) { return {std::move(text), Span::Style::code}; }

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

// "12 / 19, 7 skipped": a skipped check (a stretch step not written) is not a passed one.
std::string checks_total(const LabGrade& lab) {
  const int skipped = lab.checks.skipped();
  return std::to_string(lab.checks.passed()) + " / " +
         std::to_string(lab.case_names.empty() ? lab.checks.cases.size() : lab.case_names.size()) +
         (skipped ? ", " + std::to_string(skipped) + " skipped" : "");
}
std::string points_of(double points, double max) { return format_points(points) + " / " + format_points(max); }

}  // namespace

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

}  // namespace pplab::cli::reporting
