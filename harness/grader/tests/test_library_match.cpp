// Which library row each reference row of the benchmark table is compared with, on the
// variant names the labs' benchmarks print.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "library_match.h"

using pplab::cli::matching_library_row;

namespace {

nlohmann::json row(const std::string& lab, const std::string& impl, const std::string& variant,
                   unsigned long long n = 1u << 24) {
  return {{"lab", lab}, {"impl", impl}, {"variant", variant}, {"n", n}};
}

// The library variant a reference variant is matched with, or "" for none.
std::string matched(const nlohmann::json& rows, const nlohmann::json& reference) {
  const nlohmann::json* library = matching_library_row(rows, reference);
  return library ? (*library)["variant"].get<std::string>() : "";
}

}  // namespace

TEST_CASE("pairs are compared with the library's pairs, keys with its keys") {
  const nlohmann::json rows = {row("11_radix_sort", "cub", "DeviceRadixSort::SortKeys"),
                               row("11_radix_sort", "cub", "DeviceRadixSort::SortPairs"),
                               row("10_merge_sort", "cub", "DeviceMergeSort::SortKeysCopy"),
                               row("10_merge_sort", "cub", "DeviceMergeSort::SortPairsCopy")};
  CHECK(matched(rows, row("11_radix_sort", "reference", "keys")) == "DeviceRadixSort::SortKeys");
  CHECK(matched(rows, row("11_radix_sort", "reference", "pairs")) == "DeviceRadixSort::SortPairs");
  CHECK(matched(rows, row("11_radix_sort", "reference", "pairs, one sweep")) == "DeviceRadixSort::SortPairs");
  CHECK(matched(rows, row("11_radix_sort", "reference", "keys, one sweep")) == "DeviceRadixSort::SortKeys");
  CHECK(matched(rows, row("10_merge_sort", "reference", "sort_pairs")) == "DeviceMergeSort::SortPairsCopy");
  CHECK(matched(rows, row("10_merge_sort", "reference", "sort_keys global merge passes")) ==
        "DeviceMergeSort::SortKeysCopy");
}

TEST_CASE("a scan is compared with the library scan of the same kind and element type") {
  const nlohmann::json rows = {row("06_work_efficient_scan", "cub", "DeviceScan::ExclusiveSum int"),
                               row("06_work_efficient_scan", "cub", "DeviceScan::ExclusiveSum float"),
                               row("06_work_efficient_scan", "cub", "DeviceScan::InclusiveSum int"),
                               row("06_work_efficient_scan", "cub", "DeviceScan::InclusiveSum float")};
  const std::string lab = "06_work_efficient_scan";
  CHECK(matched(rows, row(lab, "reference", "exclusive int tiles")) == "DeviceScan::ExclusiveSum int");
  CHECK(matched(rows, row(lab, "reference", "exclusive float single pass")) == "DeviceScan::ExclusiveSum float");
  CHECK(matched(rows, row(lab, "reference", "inclusive int single pass")) == "DeviceScan::InclusiveSum int");
  CHECK(matched(rows, row(lab, "reference", "inclusive float single pass")) == "DeviceScan::InclusiveSum float");
}

TEST_CASE("a reduction is compared with the same operation on the same type") {
  const nlohmann::json rows = {row("03_reduce", "cub", "sum int (DeviceReduce::Sum)"),
                               row("03_reduce", "cub", "min int (DeviceReduce::Min)"),
                               row("03_reduce", "cub", "sum float (DeviceReduce::Sum)"),
                               row("03_reduce", "cub", "max float (DeviceReduce::Max)")};
  CHECK(matched(rows, row("03_reduce", "reference", "sum float")) == "sum float (DeviceReduce::Sum)");
  CHECK(matched(rows, row("03_reduce", "reference", "min int")) == "min int (DeviceReduce::Min)");
  CHECK(matched(rows, row("03_reduce", "reference", "max float")) == "max float (DeviceReduce::Max)");
}

TEST_CASE("with no word in common the lab's first library row is the comparison") {
  // Lab 12 prints WarpMergeSort first; "32" in BlockRadixSort's name must not pull the
  // "32-key segments" rows to it.
  const nlohmann::json rows = {row("12_warp_radix_sort", "cub", "WarpMergeSort"),
                               row("12_warp_radix_sort", "cub", "BlockRadixSort 32"),
                               row("02_dot_product", "cub", "DeviceReduce::Sum 2n")};
  CHECK(matched(rows, row("12_warp_radix_sort", "reference", "32-key segments")) == "WarpMergeSort");
  CHECK(matched(rows, row("12_warp_radix_sort", "reference", "32-key segments, rank pass")) == "WarpMergeSort");
  CHECK(matched(rows, row("02_dot_product", "reference", "")) == "DeviceReduce::Sum 2n");
}

TEST_CASE("only library rows of the same lab and size are candidates") {
  const nlohmann::json rows = {row("11_radix_sort", "reference", "pairs"),
                               row("11_radix_sort", "copy", "pairs"),
                               row("11_radix_sort", "cub", "DeviceRadixSort::SortPairs", 1u << 28),
                               row("10_merge_sort", "cub", "DeviceMergeSort::SortPairsCopy"),
                               row("08_gather_scatter", "thrust", "gather")};
  CHECK(matched(rows, row("11_radix_sort", "reference", "pairs")) == "");
  CHECK(matched(rows, row("11_radix_sort", "reference", "pairs", 1u << 28)) == "DeviceRadixSort::SortPairs");
  CHECK(matched(rows, row("08_gather_scatter", "reference", "gather checked")) == "gather");
}
