// Texture references, as CUDA 11 programs use them (CUDA 12 removed them; the emulator
// keeps them): `texture<T, dim, readMode>` globals bound with cudaBindTexture,
// cudaBindTexture2D and cudaBindTextureToArray, settings changed after binding, and
// the fetches tex1Dfetch(ref, i), tex1D(ref, x) and tex2D(ref, x, y).
//
// texture_references.expected follows from CUDA's texture rules: point filtering of
// element reads returns texels unchanged, tex1Dfetch outside the memory returns 0,
// clamp and wrap pick the texels named in the comments, and the linear fetches sit
// exactly halfway between texels (weight 128/256) or clamp to one.
#include <cstdio>

#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> linear_floats;          // linear memory
texture<int, 2, cudaReadModeElementType> pitched_ints;             // pitched memory, 3 x 2
texture<float, 1, cudaReadModeElementType> array_floats;           // a 1D CUDA array
texture<unsigned char, 2, cudaReadModeNormalizedFloat> bytes_2d;  // a 4 x 2 CUDA array

__global__ void fetch_linear(float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(linear_floats, i - 1);  // indices -1 .. n-2
}
__global__ void fetch_pitched(int* out) {
  const int x = threadIdx.x, y = threadIdx.y;
  out[y * blockDim.x + x] = tex2D(pitched_ints, x - 1 + 0.5f, y + 0.5f);  // one texel past each edge
}
__global__ void fetch_array(float* out, const float* x, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex1D(array_floats, x[i]);
}
__global__ void fetch_bytes(float* out, const float* u, const float* v, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex2D(bytes_2d, u[i], v[i]);
}

template <class T>
T* to_device(const T* host, int n) {
  T* device = nullptr;
  cudaMalloc(&device, n * sizeof(T));
  cudaMemcpy(device, host, n * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

int main() {
  // tex1Dfetch over linear memory: -1 and 4 are outside and give 0.
  const float floats[] = {10.5f, -3.0f, 7.25f, 0.125f};
  float* d_floats = to_device(floats, 4);
  if (cudaBindTexture(nullptr, linear_floats, d_floats, 4 * sizeof(float)) != cudaSuccess) return 1;
  float* d_out = nullptr;
  cudaMalloc(&d_out, 16 * sizeof(float));
  fetch_linear<<<1, 6>>>(d_out, 6);
  float out[16];
  cudaMemcpy(out, d_out, 6 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("linear tex1Dfetch:");
  for (int i = 0; i < 6; ++i) std::printf(" %g", out[i]);
  std::printf("\n");
  cudaUnbindTexture(linear_floats);

  // tex2D over pitched memory, clamped: texel (x, y) holds 100 y + 7 x + 1.
  const int ints[] = {1, 8, 15, 101, 108, 115};
  int* d_ints = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(reinterpret_cast<void**>(&d_ints), &pitch, 3 * sizeof(int), 2);
  cudaMemcpy2D(d_ints, pitch, ints, 3 * sizeof(int), 3 * sizeof(int), 2, cudaMemcpyHostToDevice);
  if (cudaBindTexture2D(nullptr, pitched_ints, d_ints, 3, 2, pitch) != cudaSuccess) return 1;
  int* d_int_out = nullptr;
  cudaMalloc(&d_int_out, 15 * sizeof(int));
  fetch_pitched<<<1, dim3(5, 3)>>>(d_int_out);
  int int_out[15];
  cudaMemcpy(int_out, d_int_out, sizeof int_out, cudaMemcpyDeviceToHost);
  std::printf("pitched tex2D clamp:");
  for (int i = 0; i < 15; ++i) std::printf("%s %d", i && i % 5 == 0 ? " |" : "", int_out[i]);
  std::printf("\n");

  // tex1D over a 1D CUDA array, point filtering, then linear filtering set after binding.
  const float texels[] = {2.0f, 4.0f, 8.0f, 16.0f};
  cudaChannelFormatDesc float_desc = cudaCreateChannelDesc<float>();
  cudaArray_t float_array = nullptr;
  cudaMallocArray(&float_array, &float_desc, 4);
  cudaMemcpyToArray(float_array, 0, 0, texels, sizeof texels, cudaMemcpyHostToDevice);
  if (cudaBindTextureToArray(array_floats, float_array) != cudaSuccess) return 1;
  const float point_x[] = {-1.0f, 0.5f, 1.99f, 2.0f, 3.7f, 9.0f};
  float* d_x = to_device(point_x, 6);
  fetch_array<<<1, 6>>>(d_out, d_x, 6);
  cudaMemcpy(out, d_out, 6 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("array tex1D point:");
  for (int i = 0; i < 6; ++i) std::printf(" %g", out[i]);
  std::printf("\n");
  array_floats.filterMode = cudaFilterModeLinear;
  const float linear_x[] = {1.0f, 2.0f, 0.25f};  // halfway 0-1, halfway 1-2, clamped to texel 0
  float* d_lx = to_device(linear_x, 3);
  fetch_array<<<1, 3>>>(d_out, d_lx, 3);
  cudaMemcpy(out, d_out, 3 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("array tex1D linear:");
  for (int i = 0; i < 3; ++i) std::printf(" %g", out[i]);
  std::printf("\n");

  // tex2D over a 2D CUDA array of bytes: normalised coordinates, wrap, normalised reads.
  const unsigned char bytes[] = {0, 51, 102, 255, 255, 204, 153, 0};
  cudaChannelFormatDesc byte_desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t byte_array = nullptr;
  cudaMallocArray(&byte_array, &byte_desc, 4, 2);
  cudaMemcpy2DToArray(byte_array, 0, 0, bytes, 4, 4, 2, cudaMemcpyHostToDevice);
  bytes_2d.normalized = true;
  bytes_2d.addressMode[0] = cudaAddressModeWrap;
  bytes_2d.addressMode[1] = cudaAddressModeWrap;
  if (cudaBindTextureToArray(bytes_2d, byte_array) != cudaSuccess) return 1;
  // Texels (0,0), (1,1), (4 -> 0, 0), (-1 -> 3, 0), (2, -1 -> 1).
  const float u[] = {0.125f, 0.375f, 1.125f, -0.125f, 0.625f};
  const float v[] = {0.25f, 0.75f, 0.25f, 0.25f, -0.25f};
  float* d_u = to_device(u, 5);
  float* d_v = to_device(v, 5);
  fetch_bytes<<<1, 5>>>(d_out, d_u, d_v, 5);
  cudaMemcpy(out, d_out, 5 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("bytes tex2D wrap normalized:");
  for (int i = 0; i < 5; ++i) std::printf(" %.6f", out[i]);
  std::printf("\n");
  unsigned char back[8] = {};
  cudaMemcpyFromArray(back, byte_array, 0, 0, sizeof back, cudaMemcpyDeviceToHost);
  std::printf("array round trip:");
  for (unsigned char b : back) std::printf(" %d", b);
  std::printf("\n");

  cudaUnbindTexture(pitched_ints);
  cudaUnbindTexture(array_floats);
  cudaUnbindTexture(bytes_2d);
  cudaFreeArray(float_array);
  cudaFreeArray(byte_array);
  const cudaError_t last = cudaGetLastError();
  std::printf("last error: %s\n", cudaGetErrorName(last));
  return last == cudaSuccess ? 0 : 1;
}
