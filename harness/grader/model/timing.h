/// \file
/// \brief One timing as a benchmark reports it (harness/src/bench.cpp): read the same way
/// by `pplab bench` (the JSON lines a benchmark prints) and `pplab grade` (its
/// authenticated `measurement` records).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pplab::cli {

/// One measurement: an implementation (student, reference, cub, thrust, copy) and
/// variant of a lab at one size.
struct Timing {
  std::string lab, impl, variant;
  std::uint64_t n = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0, untimed_ms = 0;
  double gbps = 0, percent_of_copy = 0, copy_gbps = 0, items_per_s = 0, bytes = 0;
  int repeats = 0;
  double spread_percent = 0;  ///< half the median's 95% interval, in % of it (bench.h)
  bool verified = false;      ///< every timed repeat whose output was checked was right
  int verified_repeats = 0;   ///< how many timed repeats had their output checked
  std::string timed_by;       ///< "checker" (the student's code, in its runner) or "in-process"
  /// The checker's timer: the fastest repeated input, the fastest new one, and whether the
  /// first came back in under half the second (answers kept across calls; pplab/bench.h)
  double same_input_ms = 0;
  double new_input_ms = 0;
  bool from_memory = false;
};

/// The reference's and the library's timings of one lab in a grading run.
struct ReferenceTiming {
  std::vector<Timing> reference, library;
  std::string reference_problem, library_problem;
  bool in_process = false;  ///< an old grading tree: the reference was timed in process
};

/// The measurement in `record`, or nothing when it is not one (no impl, n or median_ms,
/// or a field of the wrong type).
std::optional<Timing> timing_from_json(const nlohmann::json& record);

/// The same fields, as the benchmarks write them.
nlohmann::json to_json(const Timing& timing);

}  // namespace pplab::cli
