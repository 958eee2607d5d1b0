/// \file
/// \brief A small SVG line chart (log2 x axis, linear y axis from 0) for the bandwidth
/// plots of the grade reports; written by pplab itself, so no plotting program is needed.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pplab::cli {

/// One line of the chart: (x, y) points joined in the order given.
struct ChartSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
  /// Colour: an index into the palette, so related series can share one (the student's and
  /// the reference's row of the same variant); -1 takes the series' position among those
  /// drawn; kGrey for a series that is only a point of comparison.
  int colour = -1;
};

constexpr int kGrey = 1000;  ///< ChartSeries::colour of a neutral grey line

/// What render_svg draws. Points with x <= 0 (no place on a log axis), y < 0 (below the
/// axis) or a value that is not finite are left out, and so is a series with no point
/// left (legend entry included) and a ceiling that is not above 0.
struct Chart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  std::optional<std::pair<std::string, double>> ceiling;  ///< label, y: a dotted horizontal line
};

/// The chart as a standalone SVG document (about 760 x 440, taller when the legend needs
/// more rows). The same chart always gives the same bytes, whatever the locale.
///
/// Elements carry classes a reader (or a test) can find them by: `plot-area` (the frame),
/// `tick-x` and `tick-y` (axis labels), `series` (a group holding the series' `title`, its
/// `polyline` and one `marker` circle per point), `ceiling` and `legend`.
std::string render_svg(const Chart& chart);

}  // namespace pplab::cli
