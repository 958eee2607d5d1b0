#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>

#include "markup.h"

namespace pplab::cli {
namespace {

constexpr int kWidth = 760;
constexpr int kBaseHeight = 440;
constexpr double kFrameLeft = 72, kFrameRight = kWidth - 24, kFrameTop = 44;
// Keeps the first and last points (and their markers) off the frame's left and right edges.
constexpr double kInset = 10;
constexpr double kLegendRowHeight = 18;
constexpr int kLegendRowsInBaseHeight = 3;
constexpr int kMaxXLabels = 8;
constexpr int kMaxYIntervals = 6;
// Two legend columns fit labels up to about this many characters at the font size used.
constexpr std::size_t kLongestTwoColumnLabel = 44;
// Okabe and Ito's colour-blind-safe palette, without its yellow (too faint on white).
constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr const char* kCeilingColour = "#555555";
constexpr const char* kGridColour = "#e6e6e6";
constexpr const char* kDash = "7 4";
constexpr const char* kDots = "0.5 4";

// ---------------------------------------------------------------- text and numbers

// Labels come from benchmark records, which lab code can influence: markup_escape
// replaces whatever would make the document ill-formed; a label stays on one line.
std::string xml_text(const std::string& text) { return markup_escape(text, LineBreaks::to_spaces); }

// "%f" writes the locale's decimal separator (a comma in many locales) and the output must
// not depend on it; integers print alike everywhere, so the value is written as whole tenths.
// A tenth of a pixel is finer than any screen shows.
std::string pixels(double value) {
  const long long tenths = std::llround(std::clamp(value, -1e6, 1e6) * 10);
  const long long magnitude = tenths < 0 ? -tenths : tenths;
  return (tenths < 0 ? "-" : "") + std::to_string(magnitude / 10) + "." + std::to_string(magnitude % 10);
}

// Every y tick is a whole multiple of 10^power, so it is written from integers: exact,
// and with a '.' whatever the locale.
std::string tick_value(long long multiple, int power) {
  if (multiple == 0) return "0";
  if (power < -6 || power > 6) return std::to_string(multiple) + "e" + std::to_string(power);
  std::string digits = std::to_string(multiple);
  if (power >= 0) return digits + std::string(static_cast<std::size_t>(power), '0');
  const auto decimals = static_cast<std::size_t>(-power);
  if (digits.size() <= decimals) digits.insert(0, decimals + 1 - digits.size(), '0');
  digits.insert(digits.size() - decimals, ".");
  return digits;
}

std::string power_of_two_label(int exponent) { return "2^" + std::to_string(exponent); }

// ---------------------------------------------------------------- data and axes

struct DrawnSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
  const char* colour = "";
};

bool drawable(const std::pair<double, double>& point) {
  const auto [x, y] = point;
  return std::isfinite(x) && std::isfinite(y) && x > 0 && y >= 0;
}

// Without a colour of its own a series takes its position among those drawn, so a skipped
// series leaves no gap.
const char* series_colour(const ChartSeries& series, std::size_t position) {
  if (series.colour == kGrey) return "#777777";
  const std::size_t index = series.colour >= 0 ? std::size_t(series.colour) : position;
  return kPalette[index % std::size(kPalette)];
}

std::vector<DrawnSeries> drawn_series(const Chart& chart) {
  std::vector<DrawnSeries> drawn;
  for (const auto& series : chart.series) {
    DrawnSeries d{series.label, {}, series.dashed, series_colour(series, drawn.size())};
    std::copy_if(series.points.begin(), series.points.end(), std::back_inserter(d.points), drawable);
    if (!d.points.empty()) drawn.push_back(std::move(d));
  }
  return drawn;
}

std::optional<std::pair<std::string, double>> drawn_ceiling(const Chart& chart) {
  if (chart.ceiling && std::isfinite(chart.ceiling->second) && chart.ceiling->second > 0) return chart.ceiling;
  return std::nullopt;
}

// frexp gives x = m * 2^e with m in [0.5, 1): exact, where log2 may round.
int floor_log2(double x) {
  int exponent = 0;
  std::frexp(x, &exponent);
  return exponent - 1;
}
int ceil_log2(double x) {
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  return mantissa == 0.5 ? exponent - 1 : exponent;
}

struct XAxis {
  int low = 0, high = 1;  // exponents of the powers of two at the ends
  int label_step = 1;     // label every label_step-th power
};

XAxis x_axis_for(const std::vector<DrawnSeries>& series) {
  XAxis axis;
  bool first = true;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      axis.low = first ? floor_log2(x) : std::min(axis.low, floor_log2(x));
      axis.high = first ? ceil_log2(x) : std::max(axis.high, ceil_log2(x));
      first = false;
    }
  if (axis.low == axis.high) {  // one size alone still needs a width
    --axis.low;
    ++axis.high;
  }
  // kMaxXLabels labels leave kMaxXLabels - 1 gaps: the smallest whole step that fits.
  const int span = axis.high - axis.low;
  axis.label_step = (span + kMaxXLabels - 2) / (kMaxXLabels - 1);
  return axis;
}

struct YAxis {
  double top = 1;      // the axis runs from 0 to top = intervals * step
  int intervals = 5;
  long long step_multiple = 2;  // step = step_multiple * 10^step_power, step_multiple one of 1, 2, 5
  int step_power = -1;
};

YAxis y_axis_for(double largest) {
  // A little room above the largest value keeps the top marker and the ceiling off the frame;
  // with nothing above zero the axis still needs a height.
  const double wanted = largest > 0 ? std::min(largest * 1.04, 1e300) : 1;
  for (int power = static_cast<int>(std::floor(std::log10(wanted / kMaxYIntervals)));; ++power) {
    for (long long multiple : {1, 2, 5}) {
      const double step = static_cast<double>(multiple) * std::pow(10.0, power);
      if (!(step > 0) || std::ceil(wanted / step) > kMaxYIntervals) continue;
      int intervals = static_cast<int>(std::ceil(wanted / step));
      while (intervals * step < wanted) ++intervals;  // the division may have rounded down
      return {intervals * step, intervals, multiple, power};
    }
  }
}

double largest_y(const std::vector<DrawnSeries>& series, const std::optional<std::pair<std::string, double>>& ceiling) {
  double largest = ceiling ? ceiling->second : 0;
  for (const auto& s : series)
    for (const auto& point : s.points) largest = std::max(largest, point.second);
  return largest;
}

// ---------------------------------------------------------------- layout

struct LegendEntry {
  std::string label;
  const char* colour;
  const char* dasharray;  // nullptr: solid
  bool marker;
};

struct Layout {
  int height = kBaseHeight;
  double left = kFrameLeft, right = kFrameRight, top = kFrameTop, bottom = 0;
  int legend_columns = 2, legend_rows = 0;
};

Layout layout_for(const std::vector<LegendEntry>& legend) {
  Layout layout;
  const bool long_label = std::any_of(legend.begin(), legend.end(),
                                      [](const LegendEntry& e) { return e.label.size() > kLongestTwoColumnLabel; });
  layout.legend_columns = long_label ? 1 : 2;
  layout.legend_rows = static_cast<int>((legend.size() + layout.legend_columns - 1) / layout.legend_columns);
  // A long legend makes the picture taller rather than squeezing the plot.
  const int rows_below = std::max(layout.legend_rows, kLegendRowsInBaseHeight);
  layout.height = kBaseHeight + static_cast<int>((rows_below - kLegendRowsInBaseHeight) * kLegendRowHeight);
  // Below the frame: tick labels, the x label, then the legend rows and a margin.
  layout.bottom = layout.height - 68 - std::max(layout.legend_rows - 1, 0) * kLegendRowHeight;
  return layout;
}

struct Scales {
  Layout layout;
  XAxis x;
  YAxis y;

  // Values outside the axes (none, by construction) would be pinned to the frame.
  double x_pixel(double value) const {
    const double fraction = (std::log2(value) - x.low) / (x.high - x.low);
    return layout.left + kInset + std::clamp(fraction, 0.0, 1.0) * (layout.right - layout.left - 2 * kInset);
  }
  double y_pixel(double value) const {
    return layout.bottom - std::clamp(value / y.top, 0.0, 1.0) * (layout.bottom - layout.top);
  }
  double x_pixel_of_exponent(int exponent) const { return x_pixel(std::ldexp(1.0, exponent)); }
};

// ---------------------------------------------------------------- drawing

std::string line(double x1, double y1, double x2, double y2, const std::string& extra) {
  return "<line x1=\"" + pixels(x1) + "\" y1=\"" + pixels(y1) + "\" x2=\"" + pixels(x2) + "\" y2=\"" + pixels(y2) +
         "\" " + extra + "/>\n";
}

std::string text(double x, double y, const std::string& anchor, const std::string& cls, const std::string& content,
                 const std::string& extra = "") {
  return "<text" + (cls.empty() ? "" : " class=\"" + cls + "\"") + " x=\"" + pixels(x) + "\" y=\"" + pixels(y) +
         "\" text-anchor=\"" + anchor + "\"" + extra + ">" + xml_text(content) + "</text>\n";
}

std::string marker(double cx, double cy, const char* colour) {
  return "<circle class=\"marker\" cx=\"" + pixels(cx) + "\" cy=\"" + pixels(cy) + "\" r=\"3.5\" fill=\"" + colour +
         "\"/>\n";
}

std::string x_axis_svg(const Scales& s) {
  std::string out = "<g class=\"x-axis\">\n";
  const int span = s.x.high - s.x.low;
  for (int exponent = s.x.low; exponent <= s.x.high; ++exponent) {
    const double px = s.x_pixel_of_exponent(exponent);
    const bool labelled = (exponent - s.x.low) % s.x.label_step == 0;
    if (labelled) {
      out += line(px, s.layout.top, px, s.layout.bottom, std::string("stroke=\"") + kGridColour + "\"");
      out += text(px, s.layout.bottom + 16, "middle", "tick-x", power_of_two_label(exponent));
    }
    // Unlabelled powers still get a short mark, unless there are too many to tell apart.
    if (labelled || span <= 64) out += line(px, s.layout.bottom, px, s.layout.bottom - 4, "stroke=\"#666666\"");
  }
  return out + "</g>\n";
}

std::string y_axis_svg(const Scales& s) {
  std::string out = "<g class=\"y-axis\">\n";
  for (int i = 0; i <= s.y.intervals; ++i) {
    const double py = s.y_pixel(s.y.top * i / s.y.intervals);
    out += line(s.layout.left, py, s.layout.right, py, std::string("stroke=\"") + kGridColour + "\"");
    out += text(s.layout.left - 6, py + 4, "end", "tick-y", tick_value(i * s.y.step_multiple, s.y.step_power));
  }
  return out + "</g>\n";
}

std::string axis_labels_svg(const Chart& chart, const Scales& s) {
  const double middle_x = (s.layout.left + s.layout.right) / 2, middle_y = (s.layout.top + s.layout.bottom) / 2;
  const std::string rotate = " transform=\"rotate(-90 18 " + pixels(middle_y) + ")\"";
  return text(middle_x, s.layout.bottom + 36, "middle", "x-label", chart.x_label) +
         text(18, middle_y, "middle", "y-label", chart.y_label, rotate);
}

std::string ceiling_svg(const std::pair<std::string, double>& ceiling, const Scales& s) {
  const double py = s.y_pixel(ceiling.second);
  return "<g class=\"ceiling\">\n<title>" + xml_text(ceiling.first) + "</title>\n" +
         line(s.layout.left, py, s.layout.right, py,
              std::string("stroke=\"") + kCeilingColour + "\" stroke-width=\"2\" stroke-linecap=\"round\" "
              "stroke-dasharray=\"" + kDots + "\"") +
         "</g>\n";
}

std::string series_svg(const DrawnSeries& series, const Scales& s) {
  std::string out = "<g class=\"series\">\n<title>" + xml_text(series.label) + "</title>\n<polyline points=\"";
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const auto [x, y] = series.points[i];
    out += (i ? " " : "") + pixels(s.x_pixel(x)) + "," + pixels(s.y_pixel(y));
  }
  out += "\" fill=\"none\" stroke=\"" + std::string(series.colour) + "\" stroke-width=\"2\" stroke-linejoin=\"round\"";
  if (series.dashed) out += " stroke-dasharray=\"" + std::string(kDash) + "\"";
  out += "/>\n";
  for (const auto& [x, y] : series.points) out += marker(s.x_pixel(x), s.y_pixel(y), series.colour);
  return out + "</g>\n";
}

std::string legend_svg(const std::vector<LegendEntry>& legend, const Layout& layout) {
  std::string out = "<g class=\"legend\">\n";
  const double column_width = (layout.right - layout.left) / layout.legend_columns;
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto& entry = legend[i];
    const double x = layout.left + static_cast<double>(i % layout.legend_columns) * column_width;
    const double y = layout.bottom + 58 + static_cast<double>(i / layout.legend_columns) * kLegendRowHeight;
    std::string style = std::string("stroke=\"") + entry.colour + "\" stroke-width=\"2\"";
    if (entry.dasharray) style += std::string(" stroke-linecap=\"round\" stroke-dasharray=\"") + entry.dasharray + "\"";
    out += line(x, y, x + 28, y, style);
    if (entry.marker) out += "<circle cx=\"" + pixels(x + 14) + "\" cy=\"" + pixels(y) + "\" r=\"3.5\" fill=\"" +
                             entry.colour + "\"/>\n";
    out += text(x + 36, y + 4, "start", "", entry.label);
  }
  return out + "</g>\n";
}

std::vector<LegendEntry> legend_for(const std::vector<DrawnSeries>& series,
                                    const std::optional<std::pair<std::string, double>>& ceiling) {
  std::vector<LegendEntry> legend;
  for (const auto& s : series) legend.push_back({s.label, s.colour, s.dashed ? kDash : nullptr, true});
  if (ceiling) legend.push_back({ceiling->first, kCeilingColour, kDots, false});
  return legend;
}

}  // namespace

std::string render_svg(const Chart& chart) {
  const auto series = drawn_series(chart);
  const auto ceiling = drawn_ceiling(chart);
  const auto legend = legend_for(series, ceiling);
  const Scales s{layout_for(legend), x_axis_for(series), y_axis_for(largest_y(series, ceiling))};
  const std::string width = std::to_string(kWidth), height = std::to_string(s.layout.height);

  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height + "\" viewBox=\"0 0 " +
         width + " " + height + "\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#222222\">\n";
  svg += "<title>" + xml_text(chart.title) + "</title>\n";
  svg += "<rect width=\"" + width + "\" height=\"" + height + "\" fill=\"#ffffff\"/>\n";
  svg += text(kWidth / 2.0, 24, "middle", "title", chart.title, " font-size=\"13\" font-weight=\"bold\"");
  svg += y_axis_svg(s);
  svg += x_axis_svg(s);
  svg += "<rect class=\"plot-area\" x=\"" + pixels(s.layout.left) + "\" y=\"" + pixels(s.layout.top) + "\" width=\"" +
         pixels(s.layout.right - s.layout.left) + "\" height=\"" + pixels(s.layout.bottom - s.layout.top) +
         "\" fill=\"none\" stroke=\"#666666\"/>\n";
  svg += axis_labels_svg(chart, s);
  if (ceiling) svg += ceiling_svg(*ceiling, s);
  for (const auto& one : series) svg += series_svg(one, s);
  svg += legend_svg(legend, s.layout);
  return svg + "</svg>\n";
}

}  // namespace pplab::cli
