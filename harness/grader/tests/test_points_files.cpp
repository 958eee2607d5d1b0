// Where the points come from: the course's defaults (harness/grading/defaults.json) with
// each lab's own rules (harness/labs/NN_name/points.json), or one whole-course file given
// with --points. Both give a lab the same rules.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "grading.h"

namespace {

namespace fs = std::filesystem;
using namespace pplab::cli;

const char* const kDefaults = R"({"_about": ["the course's defaults"], "defaults": {
  "correctness_points": 10, "speed_points": 5, "full_speed_ratio": 1.2, "speed_requires_all_checks": true,
  "bench_log2_sizes": [16, 20, 24], "speed_log2_size": 24, "repeats": 20, "visibility": "visible",
  "gate": "first"}})";
const char* const kLab02 = R"({"groups": [{"name": "seed example", "points": 2, "match": ["dot product"]},
  {"name": "the rest", "points": 8, "match": "*"}], "speed_variants": ["float"]})";

// A source tree of its own: the defaults, lab 02's rules, and lab 03 with none.
struct Tree {
  fs::path root;
  std::vector<Lab> labs;
  Tree() {
    root = fs::temp_directory_path() / ("pplab_points_files_" + std::to_string(::getpid()));
    fs::remove_all(root);
    write("harness/grading/defaults.json", kDefaults);
    write("harness/labs/02_dot_product/points.json", kLab02);
    fs::create_directories(root / "harness/labs/03_reduce");
    for (const char* folder : {"02_dot_product", "03_reduce"}) {
      Lab lab;
      lab.folder = folder;
      labs.push_back(lab);
    }
  }
  ~Tree() { fs::remove_all(root); }
  void write(const std::string& relative, const std::string& text) const {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << text;
  }
};

std::string error_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a lab's own points file gives its rules over the course's defaults") {
  const Tree tree;
  const PointsFile points = load_lab_points(tree.root, tree.labs);
  const LabRules dot = points.rules_for("02_dot_product");
  REQUIRE(dot.groups.size() == 2);
  CHECK(dot.groups[0].name == "seed example");
  CHECK(dot.groups[1].match == std::vector<std::string>{"*"});
  CHECK(dot.speed_variants == std::vector<std::string>{"float"});
  CHECK(dot.speed_points == 5);
  const LabRules reduce = points.rules_for("03_reduce");  // no points.json: every default
  REQUIRE(reduce.groups.size() == 1);
  CHECK(reduce.groups[0].name == "all checks");
  CHECK(reduce.groups[0].points == 10);
  CHECK(points.source().find("defaults.json and each lab's") != std::string::npos);
}

TEST_CASE("a whole-course points file gives every lab the rules its own file gives") {
  const Tree tree;
  tree.write("course.json", std::string(R"({"defaults": )") +
                                nlohmann::json::parse(kDefaults)["defaults"].dump() +
                                R"(, "labs": {"02_dot_product": )" + kLab02 + "}}");
  const PointsFile course = load_points(tree.root / "course.json");
  const PointsFile own = load_lab_points(tree.root, tree.labs);
  CHECK(course.source() == (tree.root / "course.json").string());
  for (const auto& lab : tree.labs) {
    const LabRules a = course.rules_for(lab.folder), b = own.rules_for(lab.folder);
    REQUIRE(a.groups.size() == b.groups.size());
    for (std::size_t i = 0; i < a.groups.size(); ++i) {
      CHECK(a.groups[i].name == b.groups[i].name);
      CHECK(a.groups[i].points == b.groups[i].points);
      CHECK(a.groups[i].match == b.groups[i].match);
    }
    CHECK(a.speed_variants == b.speed_variants);
    CHECK(a.bench_log2_sizes == b.bench_log2_sizes);
    CHECK(a.gate == b.gate);
  }
}

TEST_CASE("a mistake in a lab's points file is refused naming that file") {
  const Tree tree;
  tree.write("harness/labs/02_dot_product/points.json", R"({"speed_log2_size": 40})");
  const std::string error = error_of([&] { load_lab_points(tree.root, tree.labs); });
  CHECK(error.find("harness/labs/02_dot_product/points.json") != std::string::npos);
  CHECK(error.find("speed_log2_size must be 0..31") != std::string::npos);
}

TEST_CASE("a lab's points file holds that lab's rules only, and the defaults file no lab's") {
  const Tree tree;
  tree.write("harness/labs/03_reduce/points.json", R"({"defaults": {}, "labs": {}})");
  CHECK(error_of([&] { load_lab_points(tree.root, tree.labs); }).find("03_reduce's rules only") != std::string::npos);
  tree.write("harness/labs/03_reduce/points.json", "{}");
  tree.write("harness/grading/defaults.json", std::string(kDefaults).replace(1, 0, R"("labs": {}, )"));
  CHECK(error_of([&] { load_lab_points(tree.root, tree.labs); }).find("holds the defaults only") != std::string::npos);
}

TEST_CASE("the course's committed points files are valid") {
  std::vector<Lab> labs;
  for (const auto& entry : fs::directory_iterator(fs::path(PPLAB_SOURCE_DIR) / "harness/labs")) {
    Lab lab;
    lab.folder = entry.path().filename().string();
    labs.push_back(lab);
  }
  CHECK(labs.size() >= 12);
  const PointsFile points = load_lab_points(PPLAB_SOURCE_DIR, labs);
  CHECK(points.lab_files.count("02_dot_product") == 1);
  CHECK(points.rules_for("01_saxpy").groups.size() == 3);
}
