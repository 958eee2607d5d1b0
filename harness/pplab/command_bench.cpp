// pplab bench [LAB]: time labs on a GPU. Each lab's bench binary prints one JSON line
// per measurement; this gathers them into a table (and JSON/Markdown files with --out).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "library_match.h"
#include "process.h"
#include "timing.h"
#include "workbook.h"

namespace pplab::cli {
namespace {

struct BenchCommandOptions {
  std::string lab;
  bool reference = false;
  bool compare = false;
  std::string sizes;
  int repeats = 20;
  std::string out;
  std::vector<std::string> import_files;  // JSON lines saved from earlier runs, instead of timing now
  std::string device;       // e.g. "NVIDIA H200, driver 580.159.04, CUDA 13.0"
  std::string date;         // the day the figures were measured
};

// One JSON document for tools: metadata, then the rows of each lab under its folder name.
nlohmann::json grouped_json(const nlohmann::json& rows, const BenchCommandOptions& options) {
  nlohmann::json doc = {{"date", options.date}, {"device", options.device}, {"labs", nlohmann::json::object()}};
  std::set<unsigned long long> sizes;
  for (const auto& row : rows) {
    nlohmann::json entry = row;
    if (row["impl"] == "reference" || row["impl"] == "student") {
      if (const auto* library = matching_library_row(rows, row)) {
        entry["compared_with"] = (*library)["impl"].get<std::string>() + " " + (*library)["variant"].get<std::string>();
        entry["speed_vs_library"] = (*library)["median_ms"].get<double>() / row["median_ms"].get<double>();
      }
    }
    doc["labs"][row["lab"].get<std::string>()].push_back(entry);
    sizes.insert(row["n"].get<unsigned long long>());
    if (row.contains("copy_gbps")) doc["copy_gbps"] = row["copy_gbps"];
  }
  doc["sizes"] = sizes;
  return doc;
}

std::string markdown_table(const nlohmann::json& rows) {
  std::ostringstream table;
  table << "| lab | impl | variant | n | median ms | GB/s | % of copy | G items/s | vs CUB/Thrust |\n"
        << "|---|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& row : rows) {
    std::string ratio;
    if (row["impl"] == "reference" || row["impl"] == "student")
      if (const auto* library = matching_library_row(rows, row)) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2fx", (*library)["median_ms"].get<double>() / row["median_ms"].get<double>());
        ratio = text;
      }
    char line[512];
    std::snprintf(line, sizeof line, "| %s | %s | %s | 2^%d | %.4f | %.1f | %.1f | %.2f | %s |\n",
                  row["lab"].get<std::string>().c_str(), row["impl"].get<std::string>().c_str(),
                  row["variant"].get<std::string>().c_str(),
                  int(std::log2(double(row["n"].get<unsigned long long>())) + 0.5),
                  row["median_ms"].get<double>(), row["gbps"].get<double>(),
                  row["percent_of_copy"].get<double>(), row["items_per_s"].get<double>() * 1e-9, ratio.c_str());
    table << line;
  }
  return table.str();
}

// Reads JSON lines (one measurement each, read as pplab grade reads them), skipping
// anything else.
nlohmann::json read_json_lines(std::istream& in, std::ostream* echo_other) {
  nlohmann::json rows = nlohmann::json::array();
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '{') {
      try {
        if (const auto timing = timing_from_json(nlohmann::json::parse(line))) {
          rows.push_back(to_json(*timing));
          continue;
        }
      } catch (const nlohmann::json::exception&) {
      }
    }
    if (echo_other && !line.empty()) *echo_other << "  " << line << "\n";
  }
  return rows;
}

void write_outputs(const nlohmann::json& rows, const BenchCommandOptions& options) {
  std::cout << "\n" << markdown_table(rows);
  if (options.out.empty()) return;
  std::filesystem::create_directories(options.out);
  const std::filesystem::path out = options.out;
  std::ofstream(out / "bench.json") << grouped_json(rows, options).dump(2) << "\n";
  std::ofstream md(out / "bench.md");
  md << "Measured " << (options.date.empty() ? "(date not given)" : options.date) << " on "
     << (options.device.empty() ? "(device not given)" : options.device)
     << ". Median of repeated runs, L2 flushed before each, timed with CUDA events in "
        "process (the reference, the libraries) or by the checker's clock around the lab's "
        "runner (a student's code; its timed_by is checker); "
        "GB/s from each lab's bytes-moved model; % of the device-to-device copy bandwidth "
        "measured by the same benchmark; the last column is the CUB/Thrust time divided by "
        "this row's time (above 1: faster than the library).\n\n"
     << markdown_table(rows);
}

int run_bench(const BenchCommandOptions& options) {
  if (!options.import_files.empty()) {
    // A later file re-times some labs: its rows replace every earlier row of those labs.
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& file : options.import_files) {
      std::ifstream in(file);
      if (!in) throw std::invalid_argument("cannot read " + file);
      const nlohmann::json fresh = read_json_lines(in, nullptr);
      std::set<std::string> retimed;
      for (const auto& row : fresh) retimed.insert(row["lab"].get<std::string>());
      nlohmann::json kept = nlohmann::json::array();
      for (auto& row : rows)
        if (!retimed.count(row["lab"].get<std::string>())) kept.push_back(row);
      for (const auto& row : fresh) kept.push_back(row);
      rows = std::move(kept);
    }
    write_outputs(rows, options);
    return 0;
  }
  const Workbook workbook = discover_workbook();
  if (workbook.backend != "gpu") {
    std::cerr << "pplab bench times kernels on a GPU; this build (" << workbook.build_dir.string()
              << ") uses the CPU emulator.\nConfigure a GPU preset first: cmake --workflow --preset gpu\n";
    return 2;
  }
  nlohmann::json rows = nlohmann::json::array();
  bool all_ok = true;
  for (const Lab& lab : select_labs(workbook, options.lab)) {
    auto binary = options.reference ? lab.reference_bench : lab.student_bench;
    if (binary.empty()) binary = options.reference ? lab.student_bench : lab.reference_bench;
    if (binary.empty()) {
      std::cerr << lab.folder << ": no benchmark built\n";
      continue;
    }
    std::vector<std::string> argv = {binary.string(), "--repeats=" + std::to_string(options.repeats)};
    if (!options.sizes.empty()) argv.push_back("--sizes=" + options.sizes);
    if (!options.compare) argv.push_back("--no-compare");
    std::cerr << "timing " << lab.folder << " ...\n";
    std::vector<std::vector<std::string>> runs = {argv};
    // A student's benchmark times their code through its runner and holds no library
    // code: the CUB/Thrust rows and the copy come from the reference's benchmark.
    if (options.compare && binary == lab.student_bench) {
      if (!lab.reference_bench.empty()) {
        auto library = argv;
        library.front() = lab.reference_bench.string();
        library.push_back("--library-only");
        runs.push_back(library);
      } else {
        std::cerr << lab.folder << ": the CUB/Thrust rows are timed by the reference's benchmark, which this "
                  << "build does not have (configure with -DPPLAB_SOURCES=\"labs;solutions\")\n";
      }
    }
    for (const auto& words : runs) {
      const auto run = run_process(words, {}, std::chrono::seconds(600));
      std::istringstream lines(run.output);
      for (auto& row : read_json_lines(lines, &std::cerr)) rows.push_back(row);
      if (!run.succeeded()) {
        std::cerr << lab.folder << ": benchmark " << run.describe() << "\n";
        all_ok = false;
      }
    }
  }
  write_outputs(rows, options);
  return all_ok ? 0 : 1;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto [command, options] =
      add_lab_command<BenchCommandOptions>(app, "bench", "Time one lab (or all) on the GPU", "time", run_bench);
  command->add_flag("--compare", options->compare, "Also time the matching CUB/Thrust call and the copy");
  command->add_option("--sizes", options->sizes, "log2 sizes, e.g. 16,20,24,28");
  command->add_option("--repeats", options->repeats, "Timed repeats per size (median reported)")->capture_default_str();
  command->add_option("--out", options->out, "Folder for bench.json and bench.md");
  command->add_option("--import", options->import_files,
                      "Make the table and files from JSON lines saved by earlier runs (no GPU needed); "
                      "a lab's rows come from the last file that has it");
  command->add_option("--device", options->device, "Device description recorded in the files");
  command->add_option("--date", options->date, "Date recorded in the files (YYYY-MM-DD)");
}

}  // namespace pplab::cli
