// <unistd.h> is the system's, though a file of that name sits next to this one;
// "local.h" is found next to it. Built with `simcc -c main.cu` (the object is main.o,
// as nvcc names it) and linked apart.
#include <unistd.h>

#include <cstdio>

#include "local.h"

__global__ void plus_one(int* v) { *v += 1; }

int main() {
#ifdef LOCAL_UNISTD_WAS_READ
  std::printf("the local unistd.h was read\n");
#endif
  int* v;
  cudaMallocManaged(&v, sizeof(int));
  *v = local_value();
  plus_one<<<1, 1>>>(v);
  cudaDeviceSynchronize();
  std::printf("include rules: %d, pid %s\n", *v, getpid() > 0 ? "positive" : "not positive");
  return 0;
}
