/// \file
/// \brief `pplab grade --submissions DIR --out OUT --plan`: what a class batch would
/// build, checked against the build system without compiling anything.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "workbook.h"

namespace pplab::cli {

/// Stages and configures every student of `students` for `backend` (a GPU tree can be
/// configured on a machine with nvcc and no GPU), and writes OUT/plan.json: for each
/// student and submitted lab, the targets `pplab grade` would build and whether the
/// configured tree has each. Returns 0 when every planned target exists, else 1.
int plan_submissions(const Workbook& workbook, const std::string& backend,
                     const std::vector<std::filesystem::path>& students, const std::vector<Lab>& labs,
                     const std::filesystem::path& out);

}  // namespace pplab::cli
