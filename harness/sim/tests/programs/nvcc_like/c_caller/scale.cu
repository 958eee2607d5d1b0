// The kernel of c_caller/main.c, launched from a function C code can call.
__global__ void scale(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

extern "C" void scale_on_device(float* data, int n, float factor) {
  scale<<<(n + 127) / 128, 128>>>(data, n, factor);
  cudaDeviceSynchronize();
}
