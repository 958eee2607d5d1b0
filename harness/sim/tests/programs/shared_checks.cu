// Checked shared memory: one kernel per report, and one that uses every race-free
// pattern the checks must accept. `shared_checks <case>`;
// test_shared_checks.cpp names the lines below, so keep them where they are.
#include <cuda_runtime.h>

#include "run_kernel.h"

// A tree reduction without the barrier between levels (threads of different warps).
__global__ void tree_no_barrier(int* out) {
  __shared__ int partial[128];
  partial[threadIdx.x] = 1;
  __syncthreads();
  for (int stride = 64; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];  // line 14
  }
  if (threadIdx.x == 0) *out = partial[0];
}

// Ping-pong buffers of one warp without __syncwarp between the passes.
__global__ void warp_no_syncwarp(int* out) {
  __shared__ int buffers[2][32];
  int key = 31 - static_cast<int>(threadIdx.x);
  buffers[0][threadIdx.x] = buffers[1][threadIdx.x] = key;
  __syncwarp();
  for (int pass = 0; pass < 2; ++pass) {
    key = buffers[pass][(threadIdx.x + 1) % 32];  // line 26
    buffers[pass ^ 1][threadIdx.x] = key;         // line 27
  }
  out[threadIdx.x] = key;
}

// The race reached through a device function taking a pointer, and a cast.
__device__ void add_neighbour(volatile float* row, int i) { row[i] = row[i] + row[i + 1]; }  // line 33
__global__ void race_through_pointer(int* out) {
  __shared__ unsigned raw[64];
  raw[threadIdx.x] = 0;
  __syncthreads();
  float* as_float = reinterpret_cast<float*>(raw);
  if (threadIdx.x < 63) add_neighbour(as_float + 0, static_cast<int>(threadIdx.x));
  out[threadIdx.x] = 0;
}

// Block 1 reads a slot nobody in it wrote (thread 31 stores in block 0 only), so it would
// see block 0's value if shared memory were not poisoned per block. Only it stores out.
__global__ void uninit_static(int* out) {
  __shared__ int slots[32];
  if (threadIdx.x < 31 || blockIdx.x == 0) slots[threadIdx.x] = 7;
  __syncthreads();
  if (blockIdx.x == 1) out[threadIdx.x] = slots[31 - threadIdx.x];  // line 49
}

__global__ void uninit_dynamic(int* out) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x + 32];  // line 56
}

// One past the end, one before the start, past the dynamic size.
__global__ void past_end(int* out) {
  __shared__ float tile[32];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  int* p = reinterpret_cast<int*>(tile) + threadIdx.x + 1;
  out[threadIdx.x] = *p;  // line 65
}
__global__ void before_start(int* out) {
  __shared__ int first[16];
  __shared__ int second[16];
  if (threadIdx.x < 16) first[threadIdx.x] = second[threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] = second[static_cast<int>(threadIdx.x) - 17];  // line 72
}
__global__ void past_dynamic(int* out) {
  extern __shared__ unsigned char bytes[];
  bytes[threadIdx.x * 4] = 1;  // line 76
  out[threadIdx.x] = 0;
}

// Everything here is ordered: shared atomics, a barrier-separated tree, warp
// double buffers with __syncwarp, shuffles, a volatile flag written before a barrier
// and read after it, and a struct copied whole (its padding never written).
struct Padded {
  char tag;
  int value;
};
__global__ void clean(int* out) {
  __shared__ unsigned count;
  __shared__ float tree[256];
  __shared__ int buffers[2][8][32];
  volatile __shared__ int flag;
  __shared__ Padded pairs[256];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (t == 0) {
    count = 0;
    flag = 0;
  }
  pairs[t].tag = 'a';
  pairs[t].value = static_cast<int>(t);
  __syncthreads();
  atomicAdd(&count, 1u);
  tree[t] = 1.0f;
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride /= 2) {
    if (t < stride) tree[t] += tree[t + stride];
    __syncthreads();
  }
  int key = static_cast<int>(lane);
  for (int pass = 0; pass < 4; ++pass) {
    buffers[pass & 1][warp][lane] = key;
    __syncwarp();
    key = buffers[pass & 1][warp][(lane + 1) % 32];
    __syncwarp();
  }
  int sum = key;
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  if (t == 5) flag = 1;
  __syncthreads();
  Padded copy = pairs[(t + 1) % 256];
  if (t == 0) *out = static_cast<int>(tree[0]) + static_cast<int>(count) + flag + (copy.tag == 'a') + (sum > 0);
}

// Reads its partner's slot before the partner wrote it (no barrier): the read of
// unwritten memory is held until the interval ends, and the partner's write turns it
// into the race it is.
__global__ void reverse_no_barrier(int* out) {
  __shared__ int tile[8];
  tile[threadIdx.x] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = tile[7 - threadIdx.x];  // line 129
}

// Threads write single bytes of shared words, read them back as whole words after a
// barrier, then write whole words: checked per byte while the words are split, per
// word again after. Reports nothing; out[0] is 64 + 64 * 2.
__global__ void bytes_of_words(int* out) {
  __shared__ unsigned char flags[64];
  const unsigned t = threadIdx.x;
  flags[t] = 1;
  __syncthreads();
  unsigned* words = reinterpret_cast<unsigned*>(flags);
  const unsigned w = words[t / 4];
  __syncthreads();
  if (t < 16) words[t] = 0x02020202u;
  __syncthreads();
  int sum = 0;
  if (t == 0)
    for (int i = 0; i < 64; ++i) sum += flags[i];
  if (t == 0) *out = static_cast<int>((w & 0xff) * 64) + sum;
}

// One byte of a word is written by its thread and read by the next one with no
// barrier, inside a word whose other bytes belong to other threads.
__global__ void byte_race(int* out) {
  __shared__ unsigned char flags[64];
  flags[threadIdx.x] = 1;                              // line 155
  out[threadIdx.x] = flags[(threadIdx.x + 63) % 64];   // line 156
}

// A warp scan over per-warp sums, as NVIDIA's shfl_scan sample does it: every lane of
// warp 0 reads sums[lane], but only the first blockDim.x / 32 were written, and the
// other lanes' values only reach lanes past those, whose results nobody keeps.
// Harmless on a GPU: warned about once (one line, many blocks), and the run goes on to
// the right result (2 in each block).
__global__ void harmless_uninit(int* out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x % 32;
  if (lane == 0) sums[threadIdx.x / 32] = 1;
  __syncthreads();
  if (threadIdx.x < 32) {
    int v = sums[lane];                       // line 170
    for (int d = 1; d < 32; d *= 2) {
      const int up = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += up;
    }
    if (lane == blockDim.x / 32 - 1) out[blockIdx.x] = v;
  }
}

// Indexes with a value nobody wrote: the poison (-1) puts the index before the start
// of tile, and the out-of-bounds report says where the index came from.
__global__ void index_from_uninit(int* out) {
  __shared__ int where[32];
  __shared__ int tile[32];
  tile[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = tile[where[threadIdx.x]];  // line 186
}

// Every thread reads one word (from the third reader on, the hooks' fast path), then
// one of them writes it with no barrier: a race with a reader on record.
__global__ void many_readers_then_write(int* out) {
  __shared__ int tile[32];
  if (threadIdx.x == 0) tile[0] = 5;
  __syncthreads();
  const int v = tile[0];                     // line 195
  if (threadIdx.x == 40) tile[0] = v + 1;    // line 196
  out[threadIdx.x] = v;
}

PPLAB_SIM_NAMED_KERNELS(
    {"tree", [](int* d) { tree_no_barrier<<<1, 128>>>(d); }},
    {"warp", [](int* d) { warp_no_syncwarp<<<1, 32>>>(d); }},
    {"pointer", [](int* d) { race_through_pointer<<<1, 64>>>(d); }},
    {"uninit", [](int* d) { uninit_static<<<2, 32>>>(d); }},
    {"uninit_dynamic", [](int* d) { uninit_dynamic<<<1, 32, 64 * sizeof(int)>>>(d); }},
    {"past_end", [](int* d) { past_end<<<1, 32>>>(d); }},
    {"before_start", [](int* d) { before_start<<<1, 32>>>(d); }},
    {"past_dynamic", [](int* d) { past_dynamic<<<1, 32, 64>>>(d); }},
    {"clean", [](int* d) { clean<<<3, 256>>>(d); }},
    {"reverse", [](int* d) { reverse_no_barrier<<<1, 8>>>(d); }},
    {"bytes", [](int* d) { bytes_of_words<<<2, 64>>>(d); }},
    {"byte_race", [](int* d) { byte_race<<<1, 64>>>(d); }},
    {"harmless_uninit", [](int* d) { harmless_uninit<<<8, 64>>>(d); }},
    {"index_from_uninit", [](int* d) { index_from_uninit<<<1, 32>>>(d); }},
    {"many_readers", [](int* d) { many_readers_then_write<<<1, 64>>>(d); }})
