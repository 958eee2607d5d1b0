// One file's rewrite: one pass over its code that finds each construct to rewrite (the
// passes of launches.h, shared_memory.h, copy_calls.h and device_arch.h), the quoted
// headers it includes (includes.h), and the rewritten file written with every line
// where it was.
#pragma once
#include <map>
#include <set>
#include <string>

namespace pplab_sim_rewrite {
/// What one run of the rewriter carries from file to file: the .cu and the headers it
/// follows.
struct Context {
  std::string inc_dir;                       // where rewritten headers go
  std::map<std::string, std::string> done;  // header -> its rewritten copy ("": none needed)
  std::set<std::string> active;              // headers being rewritten (include cycles)
  std::set<std::string> deps;                // every header followed
  int kernels = 0;                           // registrations emitted (unique names)
  bool arch_dependent = false;               // some device code here tests __CUDA_ARCH__
};

/// Rewrites `in_path` into `out_path`; 0, or the exit status of the first failure (which
/// it has reported). A header (`is_header`) is written only where it needs a rewrite, and
/// `needed` (when not null) says whether it did: it launches, declares __shared__ memory,
/// defines kernels, tests __CUDA_ARCH__ in device code, copies to the host, or includes
/// such a header.
int rewrite_file(const std::string& in_path, const std::string& out_path, Context& ctx, bool is_header,
                 bool* needed);
}  // namespace pplab_sim_rewrite
