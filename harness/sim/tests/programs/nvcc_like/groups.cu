// Cooperative groups against values worked out by hand.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  int r = block.thread_rank();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  int v = r;
  for (int off = 4; off > 0; off /= 2) v += t8.shfl_down(v, off);
  if (t8.thread_rank() == 0) out[t8.meta_group_rank()] = v;           // sums of 8 ranks: 28, 92, ...
  int total = cg::reduce(t32, r, cg::plus<int>());                      // 496 in warp 0
  int lo = cg::reduce(t32, 100 - r, cg::less<int>());                   // 69 in warp 0
  int hi = cg::reduce(t8, r, cg::greater<int>());                       // 7 in tile 0
  unsigned b = t32.ballot(r % 3 == 0);
  int any5 = t32.any(r == 5), all31 = t32.all(r < 31);
  block.sync();
  if (r == 0) {
    out[16] = total; out[17] = lo; out[18] = hi; out[19] = static_cast<int>(b);
    out[20] = any5; out[21] = all31;
    out[22] = static_cast<int>(t8.meta_group_size());
  }
  if (r % 2 == 1 && r < 32) {  // the odd lanes of warp 0
    cg::coalesced_group odd = cg::coalesced_threads();
    int s = cg::reduce(odd, r, cg::plus<int>());                        // 1 + 3 + ... + 31 = 256
    if (odd.thread_rank() == 0) { out[23] = static_cast<int>(odd.size()); out[24] = s; }
    int next = odd.shfl_down(r, 1);
    if (r == 3) out[25] = next;                                         // 5
  }
}

__global__ void grid_sum(int* partial, int* total) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) partial[blockIdx.x] = blockIdx.x + 1;
  grid.sync();  // every block's partial is written
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
    printf("grid: valid %d, blocks %llu\n", grid.is_valid() ? 1 : 0, grid.num_blocks());
  }
}

int main() {
  int* out;
  cudaMallocManaged(&out, 32 * sizeof(int));
  tiles<<<1, 128>>>(out);
  cudaDeviceSynchronize();
  std::printf("tile8 sums %d %d %d\n", out[0], out[1], out[15]);
  std::printf("reduce plus %d less %d greater %d\n", out[16], out[17], out[18]);
  std::printf("ballot %08x any %d all %d meta_group_size %d\n", out[19], out[20], out[21], out[22]);
  std::printf("coalesced size %d sum %d shfl_down %d\n", out[23], out[24], out[25]);
  int *partial, *total;
  cudaMalloc(&partial, 4 * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  void* args[] = {&partial, &total};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)grid_sum, dim3(4), dim3(64), args, 0, nullptr);
  cudaDeviceSynchronize();
  std::printf("cooperative launch: %s, total %d\n", cudaGetErrorName(e), *total);
  return 0;
}
