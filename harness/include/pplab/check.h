/// \file
/// \brief Checks whose failure messages a student can act on.
///
/// A failed check reports: which check, the size, seed and thread schedule, the
/// first wrong index with expected and actual values, a window of neighbouring
/// elements, how many elements are wrong, elements that were never written, and the
/// TODO step that computes the output.
#pragma once
#include "pplab/poison.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace pplab {

/// The TODO step a check grades, e.g. {"02.2", "tree reduction in shared memory"}.
struct Todo {
  std::string id;
  std::string what;
};

/// What a check is about; printed in every failure message.
struct CheckContext {
  std::string check;          ///< the check's sentence, e.g. "saxpy matches the CPU reference"
  std::size_t n = 0;          ///< input size
  Todo todo;                  ///< the step that computes the checked output
  std::string output = "out"; ///< name of the checked array in messages
  std::string schedule;       ///< thread order on the sim ("forward", ...), "gpu" on a GPU
  std::string hint;           ///< optional advice printed with the failure
  /// The compared values are 32-bit floats' bit patterns: each is shown in hex and as the
  /// float it holds (`0xFF800000 (-inf)`), as the handouts' tables write them.
  bool float_bits = false;
  /// Elements the input starts past the start of its buffer (the "arrays that start at
  /// any element" checks): said on the size line, so each offset's report reads apart.
  std::size_t offset = 0;
};

/// The outcome of a check: passed, or a report to print.
struct CheckResult {
  bool passed = true;
  std::string report;
};

/// Accepts |got - expected| <= abs + rel * |expected|. Zero tolerance means exact.
struct Tolerance {
  double abs = 0.0;
  double rel = 0.0;
};

/// The tolerance for a float sum of n terms whose absolute values add up to `magnitude`:
/// rounding error grows with the number of additions, and GPUs add in a different order
/// (4 * sqrt(n) + 64 roundings of the magnitude; see check.cpp).
Tolerance sum_tolerance(std::size_t n, double magnitude, bool is_double = false);

namespace detail {
std::string describe(double value, bool poisoned, bool integral);
/// A float's bit pattern in hex and the float it holds: "0x3F800000 (1)".
std::string describe_float_bits(std::uint32_t bits);
std::string header(const CheckContext& context);
std::string footer(const CheckContext& context);

template <class T>
bool element_matches(const T& expected, const T& got, const Tolerance& tol) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected)) return std::isnan(got) && !is_poison(got);
    if (is_poison(got)) return false;
    if (got == expected) return true;  // also equal infinities, whose difference is NaN
    double diff = std::fabs(double(got) - double(expected));
    return diff <= tol.abs + tol.rel * std::fabs(double(expected));
  } else {
    return got == expected;
  }
}
}  // namespace detail

/// Compares every element of `got` with `expected`.
template <class T>
CheckResult compare_arrays(const CheckContext& context, const std::vector<T>& expected,
                           const std::vector<T>& got, Tolerance tol = {}) {
  constexpr bool integral = std::is_integral_v<T>;
  std::ostringstream report;
  if (expected.size() != got.size()) {
    report << detail::header(context) << "  " << context.output << " has " << got.size()
           << " elements, expected " << expected.size() << "\n" << detail::footer(context);
    return {false, report.str()};
  }
  std::size_t wrong = 0, unwritten = 0, first = expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (detail::element_matches(expected[i], got[i], tol)) continue;
    if (first == expected.size()) first = i;
    ++wrong;
    if (is_poison(got[i]) && !is_poison(expected[i])) ++unwritten;
  }
  if (wrong == 0) return {};

  auto value = [&](const T& v) {
    if constexpr (integral && sizeof(T) == 4)
      if (context.float_bits) return detail::describe_float_bits(std::uint32_t(v));
    return detail::describe(double(v), is_poison(v), integral);
  };
  report << detail::header(context);
  report << "  " << context.output << "[" << first << "]: expected " << value(expected[first])
         << ", got " << value(got[first]) << "\n";
  report << "  " << wrong << " of " << expected.size() << " elements are wrong";
  if (unwritten > 0) report << " (" << unwritten << " never written: they still hold the poison value)";
  report << "\n  around index " << first << ":\n";
  report << "           index        expected             got\n";
  std::size_t lo = first >= 3 ? first - 3 : 0, hi = std::min(expected.size(), first + 4);
  for (std::size_t i = lo; i < hi; ++i) {
    bool bad = !detail::element_matches(expected[i], got[i], tol);
    char line[160];
    std::snprintf(line, sizeof line, "    %s %10zu  %14s  %14s\n", bad ? ">" : " ", i,
                  value(expected[i]).c_str(), value(got[i]).c_str());
    report << line;
  }
  if (tol.abs > 0 || tol.rel > 0)
    report << "  tolerance: |got - expected| <= " << tol.abs << " + " << tol.rel << " * |expected|\n";
  report << detail::footer(context);
  return {false, report.str()};
}

/// Whether a sampled check passes: `got[k]` and `expected[k]` are the output's value and
/// the right one at `positions[k]` (pplab/fresh_inputs.h: sample_positions, download_at).
/// On the first mismatch it says where on stderr, under `what`.
template <class T>
bool matches_at(const char* what, const std::vector<std::size_t>& positions, const std::vector<T>& got,
                const std::vector<T>& expected, Tolerance tol = {}) {
  if (got.size() != positions.size() || expected.size() != positions.size()) return false;
  for (std::size_t k = 0; k < positions.size(); ++k) {
    if (detail::element_matches(expected[k], got[k], tol)) continue;
    std::fprintf(stderr, "%s: element %zu is %s, expected %s\n", what, positions[k],
                 detail::describe(double(got[k]), is_poison(got[k]), std::is_integral_v<T>).c_str(),
                 detail::describe(double(expected[k]), false, std::is_integral_v<T>).c_str());
    return false;
  }
  return true;
}

/// Compares one value (a reduction's result, a count).
template <class T>
CheckResult compare_value(const CheckContext& context, const T& expected, const T& got,
                          Tolerance tol = {}) {
  return compare_arrays(context, std::vector<T>{expected}, std::vector<T>{got}, tol);
}

/// Checks that an input array is unchanged after the run (`before` was uploaded).
template <class T>
CheckResult check_unchanged(const CheckContext& context, const std::string& input_name,
                            const std::vector<T>& before, const std::vector<T>& after) {
  CheckContext input_context = context;
  input_context.output = input_name;
  input_context.check = context.check + ": the input " + input_name + " must not change";
  input_context.hint = "kernels may only write their outputs; " + input_name + " is read-only";
  return compare_arrays(input_context, before, after);
}

}  // namespace pplab
