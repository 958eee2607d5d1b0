/// \file
/// \brief Finishing a class batch (gradebook.csv, summary.md, batch.json), shared by a
/// local batch and a Slurm one, and reading a batch.json record back.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
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

/// One student's place in a batch: graded (`finished`), or not yet.
struct BatchEntry {
  GradeReport report;
  bool finished = false;
};

/// Writes OUT/gradebook.csv, OUT/summary.md and OUT/batch.json (what a merge or a rerun
/// reads back: each student's per-lab points, statuses and notes, and whether the student
/// was finished) from the batch so far. A local batch writes them when it starts and
/// after each student, so a batch that is stopped leaves them. Throws when a file cannot
/// be written.
void write_batch_files(const std::vector<BatchEntry>& entries, const BatchInfo& batch);

/// write_batch_files() of a batch whose every student is finished, then prints the
/// summary. Returns 0, or 1 when a file could not be written.
int finish_batch(const std::vector<GradeReport>& reports, const BatchInfo& batch);

/// The finished students of an earlier run of the same batch in OUT (OUT/batch.json: the
/// same submissions folder, labs, backend and seed), each with its reports still in
/// OUT/<student>/; empty when there was none.
std::vector<GradeReport> finished_before(const BatchInfo& batch);

/// The seed of an earlier run of the same batch in OUT whose seed was hidden, so a rerun
/// grades like the first run; none when there is no such run.
std::optional<std::uint64_t> hidden_seed_before(const BatchInfo& batch);

/// One student of a batch.json's "students" list, as finish_batch wrote it (per-lab
/// folder, status and points; notes).
GradeReport report_from_record(const nlohmann::json& record);

}  // namespace pplab::cli
