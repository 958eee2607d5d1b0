// Host-side entry points of the test kernels in kernels.cu (compiled for the sim
// through pplab_sim_add_sources). Each runs one construct and returns its results.
#pragma once
#include <cuda_runtime.h>

#include <vector>

namespace simtest {
float seed_dot_product();                                   // TPB=8, SIZE=8 seed: 52
std::vector<unsigned> linear_ids(dim3 grid, dim3 block);    // 3D builtins
std::vector<int> templated_launch(int n);                   // ns::apply<int, Op<int>> with a functor
std::vector<float> dynamic_shared(int n);                   // extern __shared__ sized by the launch
std::vector<int> pipeline_copies(int n);                    // __pipeline_memcpy_async batches, n <= 64
std::vector<int> namespace_scope_dynamic_shared(int n);
std::vector<int> args_are_per_thread(int v);
std::vector<unsigned> warp_votes(int block);                // ballot/any/all per warp
std::vector<unsigned> warp_match(int block);                // __match_any_sync of lane % 3, per thread
std::vector<int> shuffles(int op, int arg, int width);      // op: 0 shfl, 1 up, 2 down, 3 xor
std::vector<int> syncthreads_preds();                       // count, and, or
std::vector<int> intrinsics();
std::vector<long long> global_atomics(int blocks, int threads);
std::vector<int> shared_atomics();
bool warp_radix_sort(unsigned seed);                        // the seed's __device__ symbol program
float reduction(bool with_sync, int n);                     // tree reduction, optionally missing a barrier
cudaError_t launch_with(dim3 grid, dim3 block, size_t smem);
int warp_reduce(int n);                                     // __shfl_down_sync reduction per warp + atomics
unsigned active_mask_after_exit();
bool symbol_address_copy();                                 // cudaGetSymbolAddress + cudaMemcpy
// Copies of 64 bytes to the host by cudaMemcpy, of 32 by ::cudaMemcpyAsync (split over
// two lines) and of 8 by cudaMemcpyFromSymbol, and one to the device; `lines` gets the
// three lines that copied to the host, in that order.
void copies_to_host(int lines[3]);
}  // namespace simtest
