/// \file
/// \brief A class folder of submissions: finding each student's lab files and copying
/// only those into a staging folder (submission_build.h builds them).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "workbook.h"

namespace pplab::cli {

/// What was taken from one student's folder.
struct StagedSubmission {
  std::string student;
  std::filesystem::path folder;               ///< DIR/<student>
  std::filesystem::path staged;               ///< OUT/work/<student>/submission (NN_x/<name>.cu)
  std::map<std::string, std::filesystem::path> files;  ///< lab folder -> staged file
  /// lab folder -> why its file was not collected: a symbolic link (or a path through
  /// one), a hard link to a file outside the submission, a FIFO, socket or device. The lab
  /// is graded as not submitted, with this reason.
  std::map<std::string, std::string> refused;
  std::vector<std::string> notes;             ///< missing, empty, extra, misnamed or refused files
};

/// The student folders of DIR (hidden entries skipped), sorted; throws when DIR is not a
/// folder, holds no folders, or looks like a single submission.
std::vector<std::filesystem::path> list_student_folders(const std::filesystem::path& dir,
                                                        const std::vector<Lab>& labs);

/// Accepts DIR/alice/NN_x/<name>.cu, DIR/alice/labs/NN_x/<name>.cu or DIR/alice/<name>.cu,
/// copies each lab's file into `staged` and notes everything else.
///
/// Only regular files are collected, and no link is ever followed: each path is opened
/// one component at a time from the student's folder with O_NOFOLLOW, so a lab file that
/// is a symbolic link (to the reference, to a classmate's file), lies under a linked folder
/// (`01_saxpy/` or `labs/` a link, or the student's folder itself), is a hard link to a file
/// outside the submission (more links than the folder holds), or is a FIFO, a socket or a
/// device is refused (`refused`) and named in the notes.
StagedSubmission stage_submission(const std::filesystem::path& folder, const std::vector<Lab>& labs,
                                  const std::filesystem::path& staged);

}  // namespace pplab::cli
