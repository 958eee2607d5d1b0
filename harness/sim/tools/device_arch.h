// __CUDA_ARCH__ where nvcc's device pass would see it.
//
// nvcc compiles a .cu once for the host, without __CUDA_ARCH__, and once per GPU
// architecture with it. The sim compiles it once, as host code, so the macro stays
// undefined and code that tests it takes its host path, which is right for code the
// host runs. Code only a GPU runs has no host path to take, and some of it chooses a
// faster form by architecture (`#if __CUDA_ARCH__ >= 800` around a __reduce_add_sync).
// So in the places that only a GPU compiles, the rewriter spells __CUDA_ARCH__ as
// PPLAB_SIM_CUDA_ARCH (the sim's device, pplab/sim/qualifiers.h):
// - inside the body of a __global__ function, or a __device__ one not also __host__
//   (lambdas marked __device__ included);
// - in a conditional group outside any function whose code is device-only: it declares
//   __device__ or __global__ things, none marked __host__, and defines no function
//   without them.
// Everywhere else (host code, __host__ __device__ functions, system headers) the macro
// stays undefined, as before.
#pragma once
#include <string>
#include <vector>

#include "edit.h"

namespace pplab_sim_rewrite {
/// The edits for `code`: the file's text with comments and literals blanked (same
/// offsets as the source), one edit per __CUDA_ARCH__ in a device-only place.
std::vector<Edit> device_arch_edits(const std::string& code);
}  // namespace pplab_sim_rewrite
