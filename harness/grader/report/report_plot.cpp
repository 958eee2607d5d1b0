#include "report_formats.h"

#include <map>

#include "files.h"
#include "markup.h"
#include "report_document.h"
#include "reports.h"
#include "svg_chart.h"

namespace pplab::cli::reporting {
namespace {

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

}  // namespace

namespace fs = std::filesystem;

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

}  // namespace pplab::cli::reporting
