// A dependent member template called without `template`: nvcc's device front end takes
// it, g++ does not, and simcc says how to write it.
struct Shifter {
  template <int by>
  __device__ int shift(int v) const { return v << by; }
};

template <class S>
__global__ void apply(const S s, int* out) {
  *out = s.shift<2>(*out);
}

int main() {
  int* v;
  cudaMallocManaged(&v, sizeof(int));
  *v = 1;
  apply<<<1, 1>>>(Shifter{}, v);
  cudaDeviceSynchronize();
  return *v == 4 ? 0 : 1;
}
