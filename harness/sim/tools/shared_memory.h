// __shared__ declarations. On a GPU a __shared__ array is one per block, in the block's
// shared memory; compiled as C++ it would be one per program, so each declaration
// becomes something that is one per block again:
// - `__shared__ T name[N];` (in a function or at namespace scope): an array in the
//   block's checked shared-memory arena (pplab/sim/shared_check.h), so that races,
//   reads of unwritten words and accesses out of bounds are found;
// - `extern __shared__ T name[];` (or `extern T __shared__ name[];`): a pointer to the
//   block's dynamic shared memory, whose size the launch gives.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "edit.h"

namespace pplab_sim_rewrite {
/// The edit for the statement holding the `__shared__` at `at` (the statement begins at
/// `stmt_start`): its arrays as places in the block's shared-memory arena. In a function
/// each name is a reference found anew in each block; at namespace scope (`at_namespace`)
/// a thread_local reference bound once per worker to a place of its own in the arena.
/// Empty: leave the statement alone (an extern declaration, an initialiser, no array name).
/// `src` is the file, `code` its blanked copy (source_text.h).
std::optional<Edit> static_shared_edit(const std::string& src, const std::string& code, std::size_t stmt_start,
                                       std::size_t at, bool at_namespace);

/// The edit for the declaration whose `extern` is at `at`, when it declares extern
/// __shared__ memory: a pointer to the block's dynamic shared memory under the same name
/// (thread_local at namespace scope, `at_namespace`). Empty for any other extern.
std::optional<Edit> dynamic_shared_edit(const std::string& src, const std::string& code, std::size_t at,
                                        bool at_namespace);
}  // namespace pplab_sim_rewrite
