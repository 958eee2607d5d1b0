// Kernel launches. `K<<<grid, block[, smem[, stream]]>>>(args)`, as nvcc spells it, is
// no C++: it becomes a call of the sim's launcher (pplab/sim/launch.h) with the kernel's
// name, file and line, which runs K on the launch's blocks and threads. And where a file
// launches by address (cudaLaunchKernel), each kernel it defines is registered with its
// parameter types, since a bare `void*` no longer says them.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "edit.h"

namespace pplab_sim_rewrite {
/// One past the third of three `c` characters starting at i, with any blanks and line
/// breaks between them, as nvcc reads `<<<`, `<< <` and `>> >`; npos if there are not
/// three. No other C++ puts three `<` in a row, or three `>` at the top level of a
/// launch's configuration.
std::size_t chevrons_end(const std::string& code, std::size_t i, char c);

/// The edit for the launch whose `<<<` starts at `at` and ends at `open_end`: the kernel's
/// name through the closing `>>>` become the launcher, with the span's line breaks after
/// it. Empty when the kernel's name or the closing `>>>` is not found. `src` is the file,
/// `code` its blanked copy (source_text.h).
std::optional<Edit> launch_edit(const std::string& src, const std::string& code, std::size_t at,
                                std::size_t open_end);

/// After `__global__` at `from`: for a kernel definition, "<offset> <text>" with the
/// registration to insert just after its closing brace; "" for a declaration. `counter`
/// numbers the registrations, so that each has a name of its own.
std::string kernel_registration(const std::string& code, std::size_t from, int& counter);
}  // namespace pplab_sim_rewrite
