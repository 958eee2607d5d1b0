// pplab-sim-rewrite: turns one .cu file into C++ the sim can compile, keeping every
// line where it was so compiler errors and diagnostics name the user's lines.
//
//   pplab-sim-rewrite input.cu output.cpp
//
// The rewrites, all outside comments and string/char/raw-string literals:
//   K<<<grid, block[, smem[, stream]]>>>(args)   (also `K << < grid, block >> > (args)`)
//     -> ::pplab::sim::make_launcher("K", __FILE__, __LINE__,
//            [&](const auto&... a) { K(a...); }, grid, block[, smem[, stream]])
//            .typed([](auto tag) -> decltype(kernel_parameters<decltype(tag)>(K)) {...})(args)
//   extern __shared__ [__align__(n)] T name[];
//     -> T* const name = (T*)::pplab::sim::dynamic_smem();        (in a function)
//     -> static thread_local T* const name = (T*)...dynamic_smem(); (namespace scope)
//   __shared__ T name[N];  (in a function)
//     -> static thread_local T pplab_sim_shared_name[N]; ... auto& name = ::pplab::sim::shared_static(...);
//        (the array lives in the block's checked shared memory: pplab/sim/shared_check.h)
//   __shared__ T name[N];  (at namespace scope)
//     -> static thread_local T pplab_sim_shared_name[N];
//        static thread_local auto& name = ::pplab::sim::shared_namespace(...);
//   extern T __shared__ name[];  (the qualifier after the type: the same)
//   __global__ void k(params) { ... }  (not a template; in files that call
//   cudaLaunchKernel or cudaLaunchCooperativeKernel)
//     -> the same, followed on its last line by a registration of k, so that
//        cudaLaunchKernel((void*)k, ...) can call it with its parameter types
//   cudaMemcpy(args)  (and each runtime function that can copy to host memory: kCopyCalls)
//     -> (::pplab::sim::CopyCall("cudaMemcpy", __FILE__, <its line>), cudaMemcpy(args))
//        so the runtime counts the bytes it copies to the host against that line
//        (pplab/sim/runtime.h); only a call of the plain (or ::) name, not a member's
//        or another namespace's, nor a declaration
// Newlines inside a rewritten span are emitted after the replacement, so each line
// keeps its number; the output starts with #line 1 "<absolute path of input>".
// A .cu file also gets nvcc's implicit `#include <cuda_runtime.h>` first.
// In device-only places, __CUDA_ARCH__ is spelled PPLAB_SIM_CUDA_ARCH (device_arch.h), and
// a file with such places tells the runtime its architecture after its last line.
//
// Headers: a quoted #include that resolves next to the including file is followed.
// A header that needs a rewrite (it launches, declares extern __shared__ or defines
// kernels, or includes such a header) is rewritten into OUTPUT.inc/ the same way, and
// the #include names the rewritten copy; its own quoted includes name absolute paths.
// `--depfile F` writes every header followed, for the build system.
//
// Where each part is: the pass over one file and the file it writes, rewrite_file.cpp;
// launches and kernel registrations, launches.cpp; __shared__ declarations,
// shared_memory.cpp; copies to the host, copy_calls.cpp; __CUDA_ARCH__,
// device_arch.cpp; headers followed and the depfile, includes.cpp; the text helpers
// they share, source_text.cpp and tokens.h. This file reads the command line.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "includes.h"
#include "rewrite_file.h"

int main(int argc, char** argv) {
  std::string depfile;
  std::vector<std::string> files;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--depfile" && a + 1 < argc) depfile = argv[++a];
    else files.push_back(arg);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: pplab-sim-rewrite input.cu output.cpp [--depfile output.d]\n");
    return 2;
  }
  pplab_sim_rewrite::Context ctx;
  ctx.inc_dir = std::filesystem::absolute(files[1]).lexically_normal().string() + ".inc";
  int rc = pplab_sim_rewrite::rewrite_file(files[0], files[1], ctx, false, nullptr);
  if (!depfile.empty()) pplab_sim_rewrite::write_depfile(depfile, files[1], files[0], ctx.deps);
  return rc;
}
