// Headers. nvcc compiles a quoted #include as part of the .cu, launches and __shared__
// declarations included; the sim's C++ compiler would see them unrewritten. So a quoted
// #include that resolves next to the including file is followed, and a header that needs
// a rewrite is rewritten into OUTPUT.inc/ the same way as the .cu, the #include naming
// the rewritten copy; a rewritten header's own quoted includes name absolute paths, since
// it no longer lives beside them. The build reruns a rewrite when any header followed
// changes: `--depfile` lists them.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "edit.h"
#include "rewrite_file.h"

namespace pplab_sim_rewrite {
/// The edits of the quoted #include names of `in_path` (`includes`: each name's span and
/// text) that resolve next to it. Each such header is followed, and rewritten on first
/// use; `need` becomes true where some header needed a rewrite, and `status` takes the
/// exit status of a header's failed rewrite. From a header (`is_header`), an include of
/// one that needs no rewrite names its absolute path.
std::vector<Edit> include_edits(const std::string& in_path, const std::vector<Edit>& includes, Context& ctx,
                                bool is_header, bool& need, int* status);

/// Writes the depfile `depfile` for the build: `output` depends on `input` and on each of
/// `headers`.
void write_depfile(const std::string& depfile, const std::string& output, const std::string& input,
                   const std::set<std::string>& headers);
}  // namespace pplab_sim_rewrite
