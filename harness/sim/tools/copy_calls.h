// Calls that copy to host memory. The runtime counts the bytes each source line copies
// to the host (pplab/sim/runtime.h), and only the rewriter knows the line: each call of a
// runtime function that can copy into host memory is wrapped as
//   (::pplab::sim::CopyCall("cudaMemcpy", __FILE__, <its line>), cudaMemcpy(args))
// so that the runtime learns it just before the copy.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "edit.h"

namespace pplab_sim_rewrite {
/// For a call of a copy function whose name is code[b, e) on line `line`: the two
/// insertions that wrap the call so the runtime knows its line (empty: not such a call). A
/// member call (x.cudaMemcpy), another namespace's function (ns::cudaMemcpy) or a
/// declaration (cudaError_t cudaMemcpy(...)) is left alone.
std::vector<Edit> copy_call_edits(const std::string& code, std::size_t b, std::size_t e, std::size_t line);
}  // namespace pplab_sim_rewrite
