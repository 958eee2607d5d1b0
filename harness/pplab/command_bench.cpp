// pplab bench [LAB]: time labs on a GPU. Each lab's bench binary prints one JSON line
// per measurement; this gathers them into a table (and JSON/Markdown files with --out).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "process.h"
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
};

std::string markdown_table(const nlohmann::json& rows) {
  std::ostringstream table;
  table << "| lab | impl | variant | n | median ms | GB/s | % of copy | items/s |\n"
        << "|---|---|---|---:|---:|---:|---:|---:|\n";
  for (const auto& row : rows) {
    char line[400];
    std::snprintf(line, sizeof line, "| %s | %s | %s | %llu | %.4f | %.1f | %.1f | %.3g |\n",
                  row["lab"].get<std::string>().c_str(), row["impl"].get<std::string>().c_str(),
                  row["variant"].get<std::string>().c_str(), row["n"].get<unsigned long long>(),
                  row["median_ms"].get<double>(), row["gbps"].get<double>(),
                  row["percent_of_copy"].get<double>(), row["items_per_s"].get<double>());
    table << line;
  }
  return table.str();
}

int run_bench(const BenchCommandOptions& options) {
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
    const auto run = run_process(argv, {}, std::chrono::seconds(600));
    std::istringstream lines(run.output);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty() || line[0] != '{') {
        std::cerr << "  " << line << "\n";
        continue;
      }
      try {
        rows.push_back(nlohmann::json::parse(line));
      } catch (const nlohmann::json::exception&) {
        std::cerr << "  " << line << "\n";
      }
    }
    if (!run.succeeded()) {
      std::cerr << lab.folder << ": benchmark " << run.describe() << "\n";
      all_ok = false;
    }
  }
  std::cout << "\n" << markdown_table(rows);
  if (!options.out.empty()) {
    std::filesystem::create_directories(options.out);
    std::ofstream(std::filesystem::path(options.out) / "bench.json") << rows.dump(2) << "\n";
    std::ofstream(std::filesystem::path(options.out) / "bench.md") << markdown_table(rows);
  }
  return all_ok ? 0 : 1;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchCommandOptions>();
  auto* command = app.add_subcommand("bench", "Time one lab (or all) on the GPU");
  command->add_option("lab", options->lab, "Lab to time: 02, lab02, 02_dot_product or dot_product");
  command->add_flag("--reference", options->reference, "Time the reference solution instead of labs/");
  command->add_flag("--compare", options->compare, "Also time the matching CUB/Thrust call and the copy");
  command->add_option("--sizes", options->sizes, "log2 sizes, e.g. 16,20,24,28");
  command->add_option("--repeats", options->repeats, "Timed repeats per size (median reported)")->capture_default_str();
  command->add_option("--out", options->out, "Folder for bench.json and bench.md");
  command->callback([options] { std::exit(run_bench(*options)); });
}

}  // namespace pplab::cli
