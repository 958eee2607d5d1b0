#include "points_file.h"

#include "libraries.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

std::string format_points(double points) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", points);
  std::string s = text;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

namespace {

void require(bool condition, const fs::path& path, const std::string& what) {
  if (!condition) throw std::runtime_error(path.string() + ": " + what);
}

LabRules rules_from(const json& defaults, const json& entry, const fs::path& path, const std::string& where) {
  auto pick = [&](const char* key) -> const json& {
    if (entry.contains(key)) return entry.at(key);
    return defaults.at(key);
  };
  LabRules rules;
  try {
    rules.speed_points = pick("speed_points").get<double>();
    rules.full_speed_ratio = pick("full_speed_ratio").get<double>();
    rules.speed_requires_all_checks = pick("speed_requires_all_checks").get<bool>();
    rules.bench_log2_sizes = pick("bench_log2_sizes").get<std::vector<int>>();
    rules.speed_log2_size = pick("speed_log2_size").get<int>();
    rules.repeats = pick("repeats").get<int>();
    if (entry.contains("speed_spread_percent") || defaults.contains("speed_spread_percent"))
      rules.speed_spread_percent = pick("speed_spread_percent").get<double>();
    if (entry.contains("speed_noise_allowance_percent") || defaults.contains("speed_noise_allowance_percent"))
      rules.speed_noise_allowance_percent = pick("speed_noise_allowance_percent").get<double>();
    rules.visibility = pick("visibility").get<std::string>();
    if (entry.contains("sanitizer_cost") || defaults.contains("sanitizer_cost"))
      rules.sanitizer_cost = pick("sanitizer_cost").get<std::string>();
    if (entry.contains("libraries") || defaults.contains("libraries"))
      rules.libraries = pick("libraries").get<std::vector<std::string>>();
    if (entry.contains("speed_variants")) rules.speed_variants = entry.at("speed_variants").get<std::vector<std::string>>();
    const json& gate = pick("gate");
    if (gate.is_string()) rules.gate.push_back(gate.get<std::string>());
    else rules.gate = gate.get<std::vector<std::string>>();
    if (entry.contains("groups")) {
      for (const auto& group : entry.at("groups")) {
        GroupRule rule;
        rule.name = group.at("name").get<std::string>();
        rule.points = group.at("points").get<double>();
        const auto& match = group.at("match");
        if (match.is_string()) rule.match.push_back(match.get<std::string>());
        else rule.match = match.get<std::vector<std::string>>();
        require(rule.points >= 0, path, where + ": group '" + rule.name + "' has negative points");
        require(!rule.match.empty(), path, where + ": group '" + rule.name + "' matches nothing");
        rules.groups.push_back(rule);
      }
    } else {
      rules.groups.push_back({"all checks", pick("correctness_points").get<double>(), {"*"}});
    }
  } catch (const json::exception& error) {
    throw std::runtime_error(path.string() + ": " + where + ": " + error.what());
  }
  require(rules.sanitizer_cost == "group" || rules.sanitizer_cost == "check", path,
          where + ": sanitizer_cost must be \"group\" or \"check\"");
  for (const auto& library : rules.libraries)
    require(known_library(library), path, where + ": libraries: '" + library + "' is none of " + known_library_names());
  require(rules.full_speed_ratio >= 1.0, path, where + ": full_speed_ratio must be at least 1");
  require(rules.speed_points >= 0, path, where + ": speed_points must not be negative");
  require(rules.repeats >= 1 && rules.repeats <= 1000, path, where + ": repeats must be 1..1000");
  require(rules.speed_spread_percent >= 0 && rules.speed_spread_percent <= 100, path,
          where + ": speed_spread_percent must be 0..100");
  require(rules.speed_noise_allowance_percent >= 0 && rules.speed_noise_allowance_percent <= 50, path,
          where + ": speed_noise_allowance_percent must be 0..50");
  require(rules.speed_log2_size >= 0 && rules.speed_log2_size <= 31, path,
          where + ": speed_log2_size must be 0..31");
  for (int s : rules.bench_log2_sizes)
    require(s >= 0 && s <= 31, path, where + ": bench_log2_sizes must be 0..31");
  if (std::find(rules.bench_log2_sizes.begin(), rules.bench_log2_sizes.end(), rules.speed_log2_size) ==
      rules.bench_log2_sizes.end()) {
    rules.bench_log2_sizes.push_back(rules.speed_log2_size);
    std::sort(rules.bench_log2_sizes.begin(), rules.bench_log2_sizes.end());
  }
  const std::set<std::string> visibilities = {"hidden", "after_due_date", "after_published", "visible"};
  require(visibilities.count(rules.visibility) == 1, path,
          where + ": visibility must be hidden, after_due_date, after_published or visible");
  return rules;
}

}  // namespace

namespace {

json read_json_file(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the points file " + path.string());
  try {
    return json::parse(in, nullptr, true, /*ignore_comments=*/true);
  } catch (const json::exception& error) {
    throw std::runtime_error(path.string() + " is not valid JSON: " + error.what());
  }
}

// Validates every lab now, so a typo fails before grading starts.
void validate(const PointsFile& points) {
  rules_from(points.data["defaults"], json::object(), points.path, "defaults");
  for (const auto& [lab, entry] : points.data["labs"].items()) {
    const auto own = points.lab_files.find(lab);
    if (own == points.lab_files.end()) rules_from(points.data["defaults"], entry, points.path, "labs." + lab);
    else rules_from(points.data["defaults"], entry, own->second, "lab " + lab);
  }
}

}  // namespace

PointsFile load_points(const fs::path& path) {
  PointsFile points;
  points.path = path;
  points.data = read_json_file(path);
  require(points.data.is_object() && points.data.contains("defaults"), path, "needs a \"defaults\" object");
  if (!points.data.contains("labs")) points.data["labs"] = json::object();
  require(points.data["labs"].is_object(), path, "\"labs\" must be an object of labs by folder name");
  validate(points);
  return points;
}

PointsFile load_lab_points(const fs::path& source_dir, const std::vector<Lab>& labs) {
  PointsFile points;
  points.from_labs = true;
  points.labs_dir = source_dir / "harness" / "labs";
  points.path = source_dir / "harness" / "grading" / "defaults.json";
  const json defaults = read_json_file(points.path);
  require(defaults.is_object() && defaults.contains("defaults"), points.path, "needs a \"defaults\" object");
  require(!defaults.contains("labs"), points.path,
          "holds the defaults only: each lab's rules are in harness/labs/NN_name/points.json");
  points.data = {{"defaults", defaults["defaults"]}, {"labs", json::object()}};
  for (const auto& lab : labs) {
    const fs::path file = points.labs_dir / lab.folder / "points.json";
    if (!fs::exists(file)) continue;  // the lab takes every default
    json entry = read_json_file(file);
    require(entry.is_object(), file, "must be an object: the rules of lab " + lab.folder);
    require(!entry.contains("defaults") && !entry.contains("labs"), file,
            "holds lab " + lab.folder + "'s rules only (a whole-course file is given with --points)");
    points.data["labs"][lab.folder] = std::move(entry);
    points.lab_files[lab.folder] = file;
  }
  validate(points);
  return points;
}

LabRules PointsFile::rules_for(const std::string& lab) const {
  const json empty = json::object();
  const json& entry = data.contains("labs") && data["labs"].contains(lab) ? data["labs"][lab] : empty;
  const auto own = lab_files.find(lab);
  if (own != lab_files.end()) return rules_from(data["defaults"], entry, own->second, "lab " + lab);
  return rules_from(data["defaults"], entry, path, "labs." + lab);
}

std::string PointsFile::source() const {
  if (!from_labs) return path.string();
  return path.string() + " and each lab's " + (labs_dir / "NN_name" / "points.json").string();
}

// ---------------------------------------------------------------- GPU gate

}  // namespace pplab::cli
