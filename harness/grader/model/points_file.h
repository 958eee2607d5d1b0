/// \file
/// \brief The points of a course: each lab's check groups, gate and speed rules, read
/// from a whole-course points file (`pplab grade --points`) or from each lab's own
/// harness/labs/NN_name/points.json over harness/grading/defaults.json.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workbook.h"

namespace pplab::cli {

/// One check group of a lab in the points file.
struct GroupRule {
  std::string name;
  double points = 0;
  std::vector<std::string> match;  ///< test-case name prefixes; "*" matches every case left
};

/// A lab's rules from the points (defaults filled in).
struct LabRules {
  std::vector<GroupRule> groups;
  /// Checks (name prefixes) that must pass before any correctness point is earned, so a
  /// skeleton earns nothing from checks it passes by doing nothing (n = 0, bad
  /// arguments). "first" means the lab's first check, its worked example.
  std::vector<std::string> gate;
  double speed_points = 0;
  double full_speed_ratio = 1.2;      ///< full speed points when student/reference time <= this
  bool speed_requires_all_checks = true;
  std::vector<int> bench_log2_sizes;  ///< sizes timed (the plot's x axis)
  int speed_log2_size = 24;           ///< the size whose time earns the speed points
  /// The reference's benchmark rows (variants) a student's time is compared with; empty:
  /// every variant the reference times. Labs whose reference has a faster stretch path
  /// name the row of the main steps, so a clean main-steps solution can earn full points.
  std::vector<std::string> speed_variants;
  int repeats = 20;
  /// The benchmark repeats past `repeats` until the median's 95% interval is within
  /// this many % of it (bench --spread), for a time.
  double speed_spread_percent = 2;
  /// The most of that interval that counts in the student's favour: a time within the
  /// measured noise of full_speed_ratio earns full points, whatever the noise claims.
  double speed_noise_allowance_percent = 5;
  std::string visibility = "visible"; ///< Gradescope visibility of this lab's entries
  /// What a compute-sanitizer finding costs: "group" (the points of the check group it
  /// was found in) or "check" (that check's share, like any failed check).
  std::string sanitizer_cost = "group";
  /// Libraries the lab's file may use (hygiene.cpp's names: "cub", "thrust", "cublas",
  /// ...); by default none, so the student writes the kernels the lab teaches.
  std::vector<std::string> libraries;
};

/// The points of a course, in the form of a whole-course points file:
/// {"defaults": {...}, "labs": {"02_dot_product": {...}, ...}}.
struct PointsFile {
  /// The whole-course file (--points), or the course's defaults file,
  /// harness/grading/defaults.json, when each lab's rules come from its own file.
  std::filesystem::path path;
  /// The course's own points (load_lab_points): each lab's rules from its own file,
  /// labs_dir/NN_name/points.json, listed in lab_files by folder name.
  bool from_labs = false;
  std::filesystem::path labs_dir;
  std::map<std::string, std::filesystem::path> lab_files;
  nlohmann::json data;
  /// Rules for `lab`: its entry, else the defaults (all checks one group).
  LabRules rules_for(const std::string& lab) const;
  /// Where the points came from, as a report names it.
  std::string source() const;
};

/// Reads and validates a whole-course points file (`pplab grade --points FILE`); throws
/// with the file name and the problem.
PointsFile load_points(const std::filesystem::path& path);

/// The course's own points: the defaults in `source_dir`/harness/grading/defaults.json,
/// and the rules of each of `labs` from its room, harness/labs/NN_name/points.json (a lab
/// without one takes the defaults). Validated like load_points; throws naming the file.
PointsFile load_lab_points(const std::filesystem::path& source_dir, const std::vector<Lab>& labs);

/// "1.5" / "2" : points printed without trailing zeros.
std::string format_points(double points);

}  // namespace pplab::cli
