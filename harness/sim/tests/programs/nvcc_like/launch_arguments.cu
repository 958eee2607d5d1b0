// Launches written the ways nvcc takes them: spaces inside the chevrons, and arguments
// that convert to the kernel's parameter types as a call's do (a literal 0 or NULL to a
// pointer, an int to a float, a derived pointer to its base), default arguments, a
// template with its arguments given or deduced, and a kernel through a function pointer.
#include <cstdio>

struct Base {
  int v;
};
struct Derived : Base {
  int w;
};

__global__ void store(int* out, int n = 5) {
  if (out) *out = n;
}
__global__ void add(float* out, float x, const Base* b) {
  if (out) *out = x / 2 + (b ? b->v : 0);
}
template <class T>
__global__ void fill(T* out, T x) {
  if (out) *out = x;
}

int main() {
  int* n;
  float* x;
  Derived* d;
  cudaMallocManaged(&n, sizeof(int));
  cudaMallocManaged(&x, sizeof(float));
  cudaMallocManaged(&d, sizeof(Derived));
  d->v = 10;

  store << < 1, 1 >> > (n);  // the default argument
  cudaDeviceSynchronize();
  std::printf("spaced launch, default argument: %d\n", *n);

  store<<<1, 1>>>(0, 3);  // a literal 0 for the pointer: nothing stored
  add<< <1, 1>> >(NULL, 3, 0);
  cudaDeviceSynchronize();
  std::printf("null pointers: %d\n", *n);

  add<<<1, 1>>>(x, 3, d);  // 3 becomes 3.0f (3 / 2 would be 1), d its Base
  cudaDeviceSynchronize();
  std::printf("converted: %.1f\n", *x);

  fill<float><<<1, 1>>>(x, 7);  // T given: 7 becomes 7.0f
  fill<<<1, 1>>>(n, 4);         // T deduced from the arguments
  cudaDeviceSynchronize();
  std::printf("templates: %.1f %d\n", *x, *n);

  void (*kernel)(int*, int) = store;
  kernel<<<1, 1>>>(n, 9);
  cudaDeviceSynchronize();
  std::printf("through a pointer: %d, %s\n", *n, cudaGetErrorName(cudaGetLastError()));
  return 0;
}
