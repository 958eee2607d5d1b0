/* A C program calling the runtime API, as a C file of a real application does: the
 * kernel and its launch live in scale.cu behind a C function. */
#include <cuda_runtime.h>
#include <stdio.h>

void scale_on_device(float* data, int n, float factor);

static int check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

int main(void) {
  enum { n = 256 };
  float host[n];
  float* dev = NULL;
  struct cudaDeviceProp prop;
  int count = 0, i;
  for (i = 0; i < n; ++i) host[i] = (float)i;
  if (check(cudaGetDeviceCount(&count), "cudaGetDeviceCount") || check(cudaSetDevice(0), "cudaSetDevice") ||
      check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"))
    return 1;
  if (check(cudaMalloc((void**)&dev, sizeof host), "cudaMalloc") ||
      check(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice), "cudaMemcpy to the device"))
    return 1;
  scale_on_device(dev, n, 2.0f);
  if (check(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost), "cudaMemcpy to the host")) return 1;
  cudaFree(dev);
  printf("from C: %d device, warp %d, host[255] = %.0f\n", count, prop.warpSize, host[255]);
  /* An error the runtime reports, by name and text. */
  check(cudaSetDevice(7), "cudaSetDevice(7)");
  return 0;
}
