// A shuffle whose source lane is outside its mask (the mask names lanes 0-7, lane 0
// reads lane 16): undefined in CUDA, reported by the sim.
__global__ void partial_sum(int* out) {
  int v = threadIdx.x;
  unsigned mask = __ballot_sync(0xffffffffu, threadIdx.x < 8);
  if (threadIdx.x < 8) v += __shfl_down_sync(mask, v, 16);  // line 6
  if (threadIdx.x == 0) *out = v;
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  partial_sum<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
