// Does not compile: simcc's error must name this file and line 6.
#include <cuda_runtime.h>

__global__ void broken(int* out) {
  int i = threadIdx.x;
  out[i] = undeclared_name;
}

int main() {
  broken<<<1, 1>>>(nullptr);
  return 0;
}
