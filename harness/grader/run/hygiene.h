/// \file
/// \brief What a student's compiled lab may contain, checked before it runs.
///
/// The object built from a student's file may include only the system's headers, the
/// harness's API (harness/include), the emulator's CUDA headers and its own lab's
/// contract; it may define strong symbols only inside its lab's namespace
/// (pplab::labNN), and no code that runs before main (a static constructor; nvcc's
/// own registration of a file's kernels aside), and no library that does the lab's work
/// (CUB, Thrust, cuBLAS, ...) unless the points file's "libraries" allows it. The
/// includes come from ninja's depfiles, the symbols from nm, the constructors from the
/// object's .init_array.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "workbook.h"

namespace pplab::cli {

/// Empty when the student's objects of `lab`'s runner pass; else why not, for the report.
/// `kit_inputs`: what the grading kits show a student's build (their inputs.json), whose
/// headers the build may include (the emulator's precompiled <cuda_runtime.h>).
std::string vet_student_objects(const Workbook& tree, const Lab& lab, const std::filesystem::path& staged_folder,
                                const std::vector<std::string>& allowed_libraries,
                                const std::vector<std::filesystem::path>& kit_inputs);

}  // namespace pplab::cli
