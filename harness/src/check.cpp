#include "pplab/check.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "pplab/inputs.h"

namespace pplab {

Tolerance sum_tolerance(std::size_t n, double magnitude, bool is_double) {
  // Each addition rounds by at most eps times the partial sum. Tree orders (what GPUs
  // use) keep the error near log2(n) * eps * sum(|x|); a serial run of additions has
  // errors of random sign that grow like sqrt(n). Allow 4 * sqrt(n) + 64 roundings of
  // the whole magnitude: every reasonable order passes, while a sum that drops or
  // duplicates elements, or accumulates in lower precision, does not.
  const double eps = is_double ? std::numeric_limits<double>::epsilon()
                               : std::numeric_limits<float>::epsilon();
  const double roundings = 4.0 * std::sqrt(static_cast<double>(n)) + 64.0;
  return {eps * roundings * magnitude + eps * 64, eps * 64};
}

namespace detail {

std::string describe(double value, bool poisoned, bool integral) {
  if (poisoned) return "<never written>";
  char text[64];
  if (integral) std::snprintf(text, sizeof text, "%.0f", value);
  else std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string describe_float_bits(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  char text[64];
  std::snprintf(text, sizeof text, "0x%08X (%.9g)", unsigned(bits), double(value));
  return text;
}

std::string header(const CheckContext& context) {
  std::string text = "check failed: " + context.check + "\n  size n = " + std::to_string(context.n) +
                     ", seed = " + std::to_string(run_seed());
  if (!context.schedule.empty()) text += ", schedule = " + context.schedule;
  if (context.offset > 0)
    text += ", the arrays start " + std::to_string(context.offset) + (context.offset == 1 ? " element" : " elements") +
            " into their buffers";
  return text + "\n";
}

std::string footer(const CheckContext& context) {
  std::string text;
  if (!context.todo.id.empty())
    text += "  step: TODO(" + context.todo.id + ") " + context.todo.what + "\n";
  if (!context.hint.empty()) text += "  hint: " + context.hint + "\n";
  return text;  // PPLAB_EXPECT adds the reproduce: line, the whole command on one line
}

}  // namespace detail
}  // namespace pplab
