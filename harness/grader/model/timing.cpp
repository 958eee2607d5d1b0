#include "timing.h"

namespace pplab::cli {

std::optional<Timing> timing_from_json(const nlohmann::json& record) {
  if (!record.is_object() || !record.contains("impl") || !record.contains("n") || !record.contains("median_ms"))
    return std::nullopt;
  try {
    Timing t;
    t.lab = record.value("lab", "");
    t.impl = record.at("impl").get<std::string>();
    t.variant = record.value("variant", "");
    t.n = record.at("n").get<std::uint64_t>();
    t.median_ms = record.at("median_ms").get<double>();
    t.min_ms = record.value("min_ms", 0.0);
    t.max_ms = record.value("max_ms", 0.0);
    t.untimed_ms = record.value("untimed_ms", 0.0);
    t.gbps = record.value("gbps", 0.0);
    t.percent_of_copy = record.value("percent_of_copy", 0.0);
    t.copy_gbps = record.value("copy_gbps", 0.0);
    t.items_per_s = record.value("items_per_s", 0.0);
    t.bytes = record.value("bytes", 0.0);
    t.repeats = record.value("repeats", 0);
    t.spread_percent = record.value("spread_percent", 0.0);
    t.verified = record.value("verified", false);
    t.verified_repeats = record.value("verified_repeats", 0);
    t.timed_by = record.value("timed_by", "");
    t.same_input_ms = record.value("same_input_ms", 0.0);
    t.new_input_ms = record.value("new_input_ms", 0.0);
    t.from_memory = record.value("from_memory", false);
    return t;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

nlohmann::json to_json(const Timing& t) {
  return {{"lab", t.lab},         {"impl", t.impl},
          {"variant", t.variant}, {"n", t.n},
          {"median_ms", t.median_ms}, {"min_ms", t.min_ms},
          {"max_ms", t.max_ms},   {"untimed_ms", t.untimed_ms},
          {"gbps", t.gbps},       {"percent_of_copy", t.percent_of_copy},
          {"copy_gbps", t.copy_gbps}, {"items_per_s", t.items_per_s},
          {"bytes", t.bytes},     {"repeats", t.repeats},
          {"spread_percent", t.spread_percent},
          {"verified", t.verified}, {"verified_repeats", t.verified_repeats},
          {"timed_by", t.timed_by},
          {"same_input_ms", t.same_input_ms}, {"new_input_ms", t.new_input_ms},
          {"from_memory", t.from_memory}};
}

}  // namespace pplab::cli
