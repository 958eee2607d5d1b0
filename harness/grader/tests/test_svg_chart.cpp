// The grade report's bandwidth chart: well-formed, complete, and each point drawn where
// its numbers say. The checks read the SVG back, through the classes the writer documents.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "svg_chart.h"

extern char** environ;

using pplab::cli::Chart;
using pplab::cli::ChartSeries;
using pplab::cli::render_svg;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- charts

// Shaped like a lab's: bandwidth that grows with n toward a plateau, at every power of
// two from 2^10 to 2^28.
std::vector<std::pair<double, double>> bandwidth_curve(double plateau, double half_n) {
  std::vector<std::pair<double, double>> points;
  for (int k = 10; k <= 28; ++k) {
    const double n = std::ldexp(1.0, k);
    points.emplace_back(n, plateau * n / (n + half_n));
  }
  return points;
}

Chart lab_chart() {
  Chart chart;
  chart.title = "02_dot_product: effective bandwidth against input size";
  chart.x_label = "n (items)";
  chart.y_label = "GB/s";
  chart.series = {{"student (two-pass)", bandwidth_curve(3100, 1 << 18), false},
                  {"student (one-pass)", bandwidth_curve(3900, 1 << 19), false},
                  {"reference", bandwidth_curve(4100, 1 << 18), false},
                  {"device copy of the same bytes", bandwidth_curve(4300, 1 << 17), true}};
  chart.ceiling = {{"copy ceiling (1 GiB cudaMemcpy)", 4450}};
  return chart;
}

// Inputs the writer must survive: name -> chart.
std::map<std::string, Chart> awkward_charts() {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::map<std::string, Chart> charts;
  charts["single-point"].series = {{"one", {{1 << 20, 812.5}}, false}};
  charts["all-zero"].series = {{"zero", {{1 << 10, 0}, {1 << 12, 0}, {1 << 14, 0}}, false}};
  charts["empty-series"].series = {{"empty", {}, false}, {"some", {{1024, 3}, {2048, 4}}, true}};
  charts["non-positive-x"].series = {{"mixed", {{0, 5}, {-8, 6}, {64, 7}, {128, 8}}, false}};
  charts["not-finite"].series = {{"odd", {{nan, 1}, {inf, 2}, {256, nan}, {512, inf}, {1024, -1}, {2048, 9}}, false}};
  charts["nothing"].title = "no series at all";
  charts["ceiling-only"].ceiling = {{"ceiling", 100}};
  charts["zero-ceiling"].series = {{"s", {{4, 1}}, false}};
  charts["zero-ceiling"].ceiling = {{"ceiling", 0}};
  charts["tiny-values"].series = {{"tiny", {{1, 1e-9}, {2, 3e-9}}, false}};
  charts["huge-range"].series = {{"wide", {{1e-300, 1}, {1e300, 1e300}}, false}};
  charts["broken-utf8"].series = {{"bad \xff\xfe byte, \x01 control, caf\xc3\xa9 ok", {{8, 1}}, false}};
  charts["markup"].title = "<lab> & \"co\"";
  charts["markup"].series = {{"x<y & 'z'", {{8, 1}}, false}};
  charts["markup"].ceiling = {{"]]> & <![CDATA[", 2}};
  return charts;
}

// ---------------------------------------------------------------- reading the SVG back

struct Element {
  std::string name;  // "/g" for an end tag
  std::map<std::string, std::string> attributes;
  std::string text;  // the character data after the tag, up to the next one
  bool has_class(const std::string& cls) const {
    const auto found = attributes.find("class");
    return found != attributes.end() && found->second == cls;
  }
  double number(const std::string& attribute) const {
    const auto found = attributes.find(attribute);
    REQUIRE_MESSAGE(found != attributes.end(), "<" << name << "> has no " << attribute);
    std::size_t used = 0;
    const double value = std::stod(found->second, &used);
    REQUIRE_MESSAGE(used == found->second.size(), attribute << "=\"" << found->second << "\" is not a number");
    return value;
  }
};

// Enough of XML for this writer (double-quoted attributes, no comments or CDATA); it
// also checks that every element is closed in order.
std::vector<Element> read_elements(const std::string& svg) {
  static const std::regex attribute(R"re(([A-Za-z_:][-\w:.]*)="([^"]*)")re");
  std::vector<Element> elements;
  std::vector<std::string> open;
  for (std::size_t at = svg.find('<'); at != std::string::npos;) {
    const std::size_t end = svg.find('>', at);
    REQUIRE(end != std::string::npos);
    const std::string tag = svg.substr(at + 1, end - at - 1);
    const std::size_t next = svg.find('<', end);
    at = next;
    if (tag.front() == '?') continue;
    Element e;
    e.name = tag.substr(0, tag.find_first_of(" \n/", 1));
    for (std::sregex_iterator it(tag.begin(), tag.end(), attribute), done; it != done; ++it)
      e.attributes[(*it)[1]] = (*it)[2];
    e.text = svg.substr(end + 1, (next == std::string::npos ? svg.size() : next) - end - 1);
    if (e.name.front() == '/') {
      REQUIRE_MESSAGE(!open.empty(), "</" << e.name << "> closes nothing");
      REQUIRE_MESSAGE(open.back() == e.name.substr(1), "<" << open.back() << "> closed by <" << e.name << ">");
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(e.name);
    }
    elements.push_back(std::move(e));
  }
  CHECK_MESSAGE(open.empty(), "unclosed elements, the first <" << (open.empty() ? "" : open.front()) << ">");
  return elements;
}

std::vector<Element> with_class(const std::vector<Element>& elements, const std::string& cls) {
  std::vector<Element> found;
  std::copy_if(elements.begin(), elements.end(), std::back_inserter(found),
               [&](const Element& e) { return e.has_class(cls); });
  return found;
}

std::vector<std::string> texts(const std::vector<Element>& elements) {
  std::vector<std::string> found;
  for (const auto& e : elements) found.push_back(e.text);
  return found;
}

struct Box {
  double left, top, right, bottom;
  bool holds(double x, double y) const {
    constexpr double kRounding = 0.05;  // coordinates are written to a tenth
    return x >= left - kRounding && x <= right + kRounding && y >= top - kRounding && y <= bottom + kRounding;
  }
};

Box plot_area(const std::vector<Element>& elements) {
  const auto frames = with_class(elements, "plot-area");
  REQUIRE(frames.size() == 1);
  const auto& f = frames.front();
  return {f.number("x"), f.number("y"), f.number("x") + f.number("width"), f.number("y") + f.number("height")};
}

// One drawn series as the SVG has it: label (as escaped in the file), line, markers.
struct DrawnSeries {
  std::string label;
  Element polyline;
  std::vector<std::pair<double, double>> markers;  // cx, cy
};

std::vector<DrawnSeries> drawn_series(const std::vector<Element>& elements) {
  std::vector<DrawnSeries> series;
  bool inside = false;
  for (const auto& e : elements) {
    if (e.name == "g" && e.has_class("series")) {
      series.emplace_back();
      inside = true;
    } else if (inside && e.name == "/g") {
      inside = false;
    } else if (inside && e.name == "title") {
      series.back().label = e.text;
    } else if (inside && e.name == "polyline") {
      series.back().polyline = e;
    } else if (inside && e.name == "circle" && e.has_class("marker")) {
      series.back().markers.emplace_back(e.number("cx"), e.number("cy"));
    }
  }
  return series;
}

double top_y_tick(const std::vector<Element>& elements) {
  double top = -1;
  for (const auto& label : texts(with_class(elements, "tick-y"))) top = std::max(top, std::stod(label));
  return top;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  REQUIRE(fs::file_size(path) == text.size());
}

int run_program(std::vector<std::string> arguments) {
  std::vector<char*> argv;
  for (auto& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

// ---------------------------------------------------------------- tests

TEST_CASE("svg chart: a sample chart is left in the build folder for a person to look at") {
  const fs::path sample = fs::path(PPLAB_SVG_SAMPLE_DIR) / "sample.svg";
  write_file(sample, render_svg(lab_chart()));
  MESSAGE("sample chart: " << sample.string());
}

#ifdef PPLAB_PYTHON3
TEST_CASE("svg chart: every chart, the awkward ones included, parses as XML with an <svg> root") {
  const fs::path dir = fs::path(PPLAB_SVG_SAMPLE_DIR) / "parsed";
  std::vector<std::string> command = {
      PPLAB_PYTHON3, "-c",
      "import sys, xml.etree.ElementTree as ET\n"
      "for path in sys.argv[1:]:\n"
      "    root = ET.parse(path).getroot()\n"
      "    assert root.tag == '{http://www.w3.org/2000/svg}svg', (path, root.tag)\n"
      "    assert root.get('viewBox'), path\n"};
  command.push_back((dir / "lab.svg").string());
  write_file(command.back(), render_svg(lab_chart()));
  for (const auto& [name, chart] : awkward_charts()) {
    command.push_back((dir / (name + ".svg")).string());
    write_file(command.back(), render_svg(chart));
  }
  CHECK(run_program(command) == 0);
}
#endif

TEST_CASE("svg chart: the title and every series label appear, escaped") {
  Chart chart = lab_chart();
  chart.title = "lab <01> & \"friends\"";
  chart.series[0].label = "student (a<b & 'c')";
  const std::string svg = render_svg(chart);
  CHECK(svg.find("lab &lt;01&gt; &amp; &quot;friends&quot;") != std::string::npos);
  CHECK(svg.find("student (a&lt;b &amp; &apos;c&apos;)") != std::string::npos);
  CHECK(svg.find("<01>") == std::string::npos);
  for (const char* label : {"student (one-pass)", "reference", "device copy of the same bytes",
                            "copy ceiling (1 GiB cudaMemcpy)", "n (items)", "GB/s"})
    CHECK_MESSAGE(svg.find(label) != std::string::npos, label);
  const auto elements = read_elements(svg);
  CHECK(drawn_series(elements).size() == chart.series.size());
  CHECK(texts(with_class(elements, "title")) == std::vector<std::string>{"lab &lt;01&gt; &amp; &quot;friends&quot;"});
}

TEST_CASE("svg chart: x ticks from 2^10 to 2^28 are powers of two, evenly thinned to at most 8 labels") {
  const auto labels = texts(with_class(read_elements(render_svg(lab_chart())), "tick-x"));
  REQUIRE(labels.size() >= 4);
  CHECK(labels.size() <= 8);
  std::vector<int> exponents;
  for (const auto& label : labels) {
    REQUIRE_MESSAGE(label.rfind("2^", 0) == 0, label);
    exponents.push_back(std::stoi(label.substr(2)));
  }
  CHECK(exponents.front() == 10);
  CHECK(exponents.back() <= 28);
  const int step = exponents[1] - exponents[0];
  CHECK(exponents.back() > 28 - step);  // the far end is labelled, or within a step of it
  for (std::size_t i = 1; i < exponents.size(); ++i) CHECK(exponents[i] - exponents[i - 1] == step);
}

TEST_CASE("svg chart: every marker lies inside the plot area, and the legend below it") {
  auto charts = awkward_charts();
  charts["lab"] = lab_chart();
  for (const auto& [name, chart] : charts) {
    CAPTURE(name);
    const auto elements = read_elements(render_svg(chart));
    const Box area = plot_area(elements);
    for (const auto& series : drawn_series(elements))
      for (const auto& [cx, cy] : series.markers) CHECK_MESSAGE(area.holds(cx, cy), "marker at " << cx << "," << cy);
    for (const auto& e : elements)
      if (e.name == "text" && !e.has_class("title") && !e.has_class("tick-x") && !e.has_class("tick-y") &&
          !e.has_class("x-label") && !e.has_class("y-label"))
        CHECK_MESSAGE(e.number("y") > area.bottom, "legend text above the plot's bottom: " << e.text);
  }
}

TEST_CASE("svg chart: the y axis starts at 0 and reaches at least the largest value and the ceiling") {
  SUBCASE("the ceiling is the largest") {
    const auto elements = read_elements(render_svg(lab_chart()));
    CHECK(std::stod(texts(with_class(elements, "tick-y")).front()) == 0);
    CHECK(top_y_tick(elements) >= 4450);
  }
  SUBCASE("a point is above the ceiling") {
    Chart chart = lab_chart();
    chart.series[0].points.back().second = 5210;
    CHECK(top_y_tick(read_elements(render_svg(chart))) >= 5210);
  }
  SUBCASE("small values get small ticks, written with decimals") {
    Chart chart;
    chart.series = {{"slow", {{1024, 0.37}, {2048, 0.41}}, false}};
    const auto elements = read_elements(render_svg(chart));
    CHECK(top_y_tick(elements) >= 0.41);
    CHECK(top_y_tick(elements) <= 1);
  }
  SUBCASE("the y ticks step by 1, 2 or 5 times a power of ten") {
    const auto labels = texts(with_class(read_elements(render_svg(lab_chart())), "tick-y"));
    REQUIRE(labels.size() >= 3);
    const double step = std::stod(labels[1]) - std::stod(labels[0]);
    const double leading = step / std::pow(10.0, std::floor(std::log10(step)));
    CHECK((leading == doctest::Approx(1) || leading == doctest::Approx(2) || leading == doctest::Approx(5)));
    for (std::size_t i = 1; i < labels.size(); ++i)
      CHECK(std::stod(labels[i]) - std::stod(labels[i - 1]) == doctest::Approx(step));
  }
}

TEST_CASE("svg chart: a larger value is drawn higher, a larger n further right, the ceiling at its value") {
  Chart chart;
  chart.series = {{"up and down", {{1 << 10, 1}, {1 << 11, 5}, {1 << 12, 3}}, false},
                  {"flat at the ceiling", {{1 << 13, 6}}, false}};
  chart.ceiling = {{"ceiling", 6}};
  const auto elements = read_elements(render_svg(chart));
  const auto series = drawn_series(elements);
  REQUIRE(series.size() == 2);
  const auto& m = series[0].markers;
  REQUIRE(m.size() == 3);
  CHECK(m[1].second < m[2].second);  // 5 above 3
  CHECK(m[2].second < m[0].second);  // 3 above 1
  CHECK(m[0].first < m[1].first);
  CHECK(m[1].first < m[2].first);
  std::vector<Element> ceiling_lines;
  bool in_ceiling = false;
  for (const auto& e : elements) {
    if (e.name == "g") in_ceiling = e.has_class("ceiling");
    if (in_ceiling && e.name == "line") ceiling_lines.push_back(e);
  }
  REQUIRE(ceiling_lines.size() == 1);
  CHECK(ceiling_lines[0].number("y1") == doctest::Approx(series[1].markers[0].second));
  CHECK(ceiling_lines[0].number("y1") == ceiling_lines[0].number("y2"));
  CHECK(ceiling_lines[0].attributes.count("stroke-dasharray") == 1);
}

TEST_CASE("svg chart: a dashed series carries stroke-dasharray, a solid one does not, and each has its own colour") {
  const auto series = drawn_series(read_elements(render_svg(lab_chart())));
  REQUIRE(series.size() == 4);
  std::vector<std::string> colours;
  for (const auto& s : series) {
    CAPTURE(s.label);
    CHECK(s.polyline.attributes.count("stroke-dasharray") == (s.label == "device copy of the same bytes" ? 1u : 0u));
    colours.push_back(s.polyline.attributes.at("stroke"));
    CHECK(s.markers.size() == 19);
  }
  std::sort(colours.begin(), colours.end());
  CHECK(std::unique(colours.begin(), colours.end()) == colours.end());
}

TEST_CASE("svg chart: series given one colour share it, and a grey series is grey") {
  Chart chart;
  chart.title = "shared colours";
  chart.series = {{"student (int)", {{1024, 10}, {4096, 20}}, false, 0},
                  {"student (float)", {{1024, 12}, {4096, 22}}, false, 1},
                  {"reference (int)", {{1024, 11}, {4096, 21}}, true, 0},
                  {"reference (float)", {{1024, 13}, {4096, 23}}, true, 1},
                  {"copy", {{1024, 30}, {4096, 40}}, true, pplab::cli::kGrey}};
  const auto series = drawn_series(read_elements(render_svg(chart)));
  REQUIRE(series.size() == 5);
  std::map<std::string, std::string> stroke;
  for (const auto& s : series) stroke[s.label] = s.polyline.attributes.at("stroke");
  CHECK(stroke["student (int)"] == stroke["reference (int)"]);
  CHECK(stroke["student (float)"] == stroke["reference (float)"]);
  CHECK(stroke["student (int)"] != stroke["student (float)"]);
  CHECK(stroke["copy"] == "#777777");
  CHECK(stroke["copy"] != stroke["student (int)"]);
  CHECK(stroke["copy"] != stroke["student (float)"]);
}

TEST_CASE("svg chart: awkward inputs give finite numbers, skip what cannot be drawn, and keep the rest") {
  static const std::regex not_a_number("[^a-z](nan|inf)", std::regex::icase);
  static const std::regex coordinate_attribute("^(x|y|x1|x2|y1|y2|cx|cy|r|width|height)$");
  const std::map<std::string, std::size_t> markers_expected = {
      {"single-point", 1}, {"all-zero", 3},    {"empty-series", 2}, {"non-positive-x", 2},
      {"not-finite", 1},   {"nothing", 0},     {"ceiling-only", 0}, {"zero-ceiling", 1},
      {"tiny-values", 2},  {"huge-range", 2},  {"broken-utf8", 1}, {"markup", 1}};
  for (const auto& [name, chart] : awkward_charts()) {
    CAPTURE(name);
    const std::string svg = render_svg(chart);
    CHECK_FALSE(std::regex_search(svg, not_a_number));
    const auto elements = read_elements(svg);
    std::size_t markers = 0;
    for (const auto& e : elements) {
      for (const auto& [attribute, value] : e.attributes)
        if (std::regex_match(attribute, coordinate_attribute) && value.find('%') == std::string::npos)
          CHECK(std::isfinite(e.number(attribute)));
      if (e.name == "polyline") {
        std::string points = e.attributes.at("points");
        std::replace(points.begin(), points.end(), ',', ' ');
        std::istringstream in(points);
        for (double value; in >> value;) CHECK(std::isfinite(value));
        CHECK(in.eof());
      }
      markers += e.has_class("marker");
    }
    CHECK(markers == markers_expected.at(name));
    for (const auto& label : texts(with_class(elements, "tick-y"))) CHECK(std::isfinite(std::stod(label)));
  }
  const std::string empty_series = render_svg(awkward_charts().at("empty-series"));
  CHECK(empty_series.find(">empty<") == std::string::npos);  // nor in the legend
  const std::string broken = render_svg(awkward_charts().at("broken-utf8"));
  CHECK(broken.find("caf\xc3\xa9 ok") != std::string::npos);
  CHECK(broken.find('\xff') == std::string::npos);
  CHECK(broken.find('\x01') == std::string::npos);
}

TEST_CASE("svg chart: the same chart gives the same bytes, whatever the numeric locale") {
  const std::string first = render_svg(lab_chart());
  CHECK(render_svg(lab_chart()) == first);
  CHECK(first.find("viewBox=\"0 0 760 440\"") != std::string::npos);
  const std::string before = std::setlocale(LC_NUMERIC, nullptr);
  for (const char* comma_locale : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
    if (!std::setlocale(LC_NUMERIC, comma_locale)) continue;
    CHECK_MESSAGE(render_svg(lab_chart()) == first, comma_locale);
    std::setlocale(LC_NUMERIC, before.c_str());
    return;
  }
  MESSAGE("no locale with a decimal comma is installed: only the repeat was compared");
}
