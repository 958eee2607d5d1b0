#include "report_formats.h"

#include <sstream>

#include "markup.h"
#include "report_document.h"

namespace pplab::cli::reporting {

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

}  // namespace pplab::cli::reporting
