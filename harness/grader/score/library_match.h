// Which library row a reference (or student) benchmark row is compared with.
#pragma once

#include <nlohmann/json.hpp>

namespace pplab::cli {

/// The CUB/Thrust row of the same lab and size that `row` is measured against, or null
/// when the lab has none. Among those rows, the one whose variant names the most of
/// `row`'s variant's words wins ("pairs, one sweep" → "DeviceRadixSort::SortPairs",
/// "exclusive int tiles" → "DeviceScan::ExclusiveSum int"); a tie goes to the row the
/// lab's benchmark printed first, which is the lab's main comparison.
const nlohmann::json* matching_library_row(const nlohmann::json& rows, const nlohmann::json& row);

}  // namespace pplab::cli
