// __CUDA_ARCH__ as nvcc's two passes see it. Code only a GPU compiles sees the sim's
// device (900); host code and __host__ __device__ functions, which the host calls too,
// take their host path. Prints one line of what each place saw.
#include <cstdio>

// A device-only group at file scope: the specialisation exists on sm_80 and later only.
template <class T> __device__ int sum_path() { return 1; }
#if __CUDA_ARCH__ >= 800
template <> __device__ int sum_path<int>() { return 800; }
#endif

// A group that defines a host function stays host code.
#ifdef __CUDA_ARCH__
int host_group() { return -1; }
#else
int host_group() { return 1; }
#endif

__device__ int device_body() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

__host__ __device__ int both_sides() {
#if defined(__CUDA_ARCH__)
  return 2;
#else
  return 1;
#endif
}

int host_body() {
#ifndef __CUDA_ARCH__
  return 10;
#else
  return -10;
#endif
}

__global__ void report(int* out) {
  out[0] = sum_path<int>();
  out[1] = device_body();
  out[2] = both_sides();
#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 900
  out[3] = 90;
#elif !defined(__CUDA_ARCH__)
  out[3] = -1;
#else
  out[3] = -90;
#endif
  auto lambda = [](int x) {  // a lambda in a kernel is device code too
#ifndef __CUDA_ARCH__
    return -x;
#else
    return x;
#endif
  };
  out[4] = lambda(7);
}

int main() {
  int* d = nullptr;
  int h[5] = {};
  cudaMalloc(&d, sizeof h);
  report<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("arch: sum_path %d, device_body %d, both_sides %d, kernel %d, lambda %d, host_group %d, host_body %d\n",
              h[0], h[1], h[2], h[3], h[4], host_group(), host_body());
  return 0;
}
