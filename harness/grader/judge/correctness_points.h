/// \file
/// \brief A lab's correctness points from its checks' verdicts.
#pragma once
#include "grade.h"

namespace pplab::cli {

/// The correctness points of one lab from its checks' verdicts: each check in the first
/// points-file group that names it, a group's points split over its checks that ran (a
/// skipped one neither earns nor costs), the gate applied; lost points listed.
void score_checks(LabGrade& grade);

}  // namespace pplab::cli
