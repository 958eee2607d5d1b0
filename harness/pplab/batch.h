/// \file
/// \brief Finishing a class batch (gradebook.csv, summary.md, batch.json), shared by a
/// local batch and a Slurm one, and reading a batch.json record back.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grading.h"

namespace pplab::cli {

/// What a finished batch is written from.
struct BatchInfo {
  std::filesystem::path dir;        ///< the submissions folder
  std::filesystem::path out;        ///< OUT
  std::vector<std::string> labs;    ///< lab folders, the gradebook's columns
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string backend;
};

/// Writes OUT/gradebook.csv, OUT/summary.md and OUT/batch.json (what a merge reads back:
/// each student's per-lab points, statuses and notes) and prints the summary.
/// Returns 0, or 1 when a file could not be written.
int finish_batch(const std::vector<GradeReport>& reports, const BatchInfo& batch);

/// One student of a batch.json's "students" list, as finish_batch wrote it (per-lab
/// folder, status and points; notes).
GradeReport report_from_record(const nlohmann::json& record);

}  // namespace pplab::cli
