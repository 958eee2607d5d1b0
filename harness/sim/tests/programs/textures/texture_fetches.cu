// Texture fetches of every kind the emulator models, printed exactly (%a) so that a GPU's
// output is the emulator's expected output: texture objects over linear memory, pitched
// 2D memory and 1D, 2D and 3D CUDA arrays; point and linear filtering; unnormalised and
// normalised coordinates; the clamp, wrap, mirror and border address modes; element and
// normalised-float reads of 8- and 16-bit, signed and unsigned, one- and four-channel data.
//
// Each line: the case, the coordinates, then the fetched value(s). Built with nvcc
// -arch=sm_90 and run on an H100 (GH100, as the H200; driver 580.159.04, CUDA 13.0,
// 2026-12-05) it wrote texture_fetches.expected.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                                          \
  do {                                                                                            \
    cudaError_t status_ = (call);                                                                 \
    if (status_ != cudaSuccess) {                                                                 \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_));                \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

namespace {

// The coordinates every case samples, in texels (or scaled by 1/extent when normalised):
// outside on both sides, on texel centres and edges, and in between.
const float kCoordinates[] = {-2.25f, -1.0f, -0.5f, 0.0f, 0.2f, 0.5f, 0.6f, 1.0f, 1.3f, 1.5f,
                              1.75f,  2.5f,  3.01f, 3.5f, 3.99f, 4.0f, 4.5f, 5.2f, 7.7f, 9.0f};
const int kCount = sizeof kCoordinates / sizeof kCoordinates[0];

template <typename T>
__global__ void fetch_1d(cudaTextureObject_t texture, const float* x, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<T>(texture, x[i]);
}

template <typename T>
__global__ void fetch_1d_linear_memory(cudaTextureObject_t texture, const int* index, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<T>(texture, index[i]);
}

template <typename T>
__global__ void fetch_2d(cudaTextureObject_t texture, const float* x, const float* y, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<T>(texture, x[i], y[i]);
}

template <typename T>
__global__ void fetch_3d(cudaTextureObject_t texture, const float* x, const float* y, const float* z, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<T>(texture, x[i], y[i], z[i]);
}

void print_value(float v) { std::printf(" %a", v); }
void print_value(int v) { std::printf(" %d", v); }
void print_value(float4 v) { std::printf(" %a %a %a %a", v.x, v.y, v.z, v.w); }
void print_value(uchar4 v) { std::printf(" %d %d %d %d", v.x, v.y, v.z, v.w); }

const char* mode_name(cudaTextureAddressMode mode) {
  switch (mode) {
    case cudaAddressModeWrap: return "wrap";
    case cudaAddressModeClamp: return "clamp";
    case cudaAddressModeMirror: return "mirror";
    case cudaAddressModeBorder: return "border";
  }
  return "?";
}

// Copies `host` to the device and returns the pointer (freed by the caller).
template <typename T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
std::vector<T> from_device(const T* device, int n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

cudaTextureDesc describe(cudaTextureAddressMode mode, cudaTextureFilterMode filter, cudaTextureReadMode read,
                         bool normalized) {
  cudaTextureDesc desc;
  std::memset(&desc, 0, sizeof desc);
  for (int d = 0; d < 3; ++d) desc.addressMode[d] = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized ? 1 : 0;
  return desc;
}

// A 1D CUDA array of `texels` sampled with tex1D<Out> at every coordinate.
template <typename Texel, typename Out>
int sample_1d(const char* name, const std::vector<Texel>& texels, cudaTextureAddressMode mode,
              cudaTextureFilterMode filter, cudaTextureReadMode read, bool normalized) {
  const int width = static_cast<int>(texels.size());
  cudaChannelFormatDesc channel = cudaCreateChannelDesc<Texel>();
  cudaArray_t array = nullptr;
  CHECK_CUDA(cudaMallocArray(&array, &channel, width, 0));
  CHECK_CUDA(cudaMemcpy2DToArray(array, 0, 0, texels.data(), width * sizeof(Texel), width * sizeof(Texel), 1,
                                 cudaMemcpyHostToDevice));
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  const cudaTextureDesc desc = describe(mode, filter, read, normalized);
  cudaTextureObject_t texture = 0;
  CHECK_CUDA(cudaCreateTextureObject(&texture, &resource, &desc, nullptr));

  std::vector<float> x(kCount);
  for (int i = 0; i < kCount; ++i) x[i] = normalized ? kCoordinates[i] / width : kCoordinates[i];
  float* dx = to_device(x);
  Out* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kCount * sizeof(Out)));
  fetch_1d<Out><<<1, kCount>>>(texture, dx, out, kCount);
  CHECK_CUDA(cudaGetLastError());
  const std::vector<Out> values = from_device(out, kCount);
  for (int i = 0; i < kCount; ++i) {
    std::printf("%s %s %s %s %s x=%a ->", name, mode_name(mode), filter == cudaFilterModeLinear ? "linear" : "point",
                read == cudaReadModeNormalizedFloat ? "normalized-float" : "element",
                normalized ? "normalized-coords" : "texel-coords", x[i]);
    print_value(values[i]);
    std::printf("\n");
  }
  CHECK_CUDA(cudaDestroyTextureObject(texture));
  CHECK_CUDA(cudaFreeArray(array));
  cudaFree(dx);
  cudaFree(out);
  return 0;
}

// A width x height texture (a CUDA array, or pitched linear memory) sampled with tex2D
// on a diagonal and an off-diagonal line of the coordinates.
template <typename Texel, typename Out>
int sample_2d(const char* name, int width, int height, const std::vector<Texel>& texels, bool pitched,
              cudaTextureAddressMode mode, cudaTextureFilterMode filter, cudaTextureReadMode read, bool normalized) {
  cudaChannelFormatDesc channel = cudaCreateChannelDesc<Texel>();
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  cudaArray_t array = nullptr;
  void* memory = nullptr;
  if (pitched) {
    size_t pitch = 0;
    CHECK_CUDA(cudaMallocPitch(&memory, &pitch, width * sizeof(Texel), height));
    CHECK_CUDA(cudaMemcpy2D(memory, pitch, texels.data(), width * sizeof(Texel), width * sizeof(Texel), height,
                            cudaMemcpyHostToDevice));
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = memory;
    resource.res.pitch2D.desc = channel;
    resource.res.pitch2D.width = width;
    resource.res.pitch2D.height = height;
    resource.res.pitch2D.pitchInBytes = pitch;
  } else {
    CHECK_CUDA(cudaMallocArray(&array, &channel, width, height));
    CHECK_CUDA(cudaMemcpy2DToArray(array, 0, 0, texels.data(), width * sizeof(Texel), width * sizeof(Texel), height,
                                   cudaMemcpyHostToDevice));
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
  }
  const cudaTextureDesc desc = describe(mode, filter, read, normalized);
  cudaTextureObject_t texture = 0;
  CHECK_CUDA(cudaCreateTextureObject(&texture, &resource, &desc, nullptr));

  std::vector<float> x(2 * kCount), y(2 * kCount);
  for (int i = 0; i < kCount; ++i) {
    x[i] = kCoordinates[i];
    y[i] = kCoordinates[i] * 0.75f;
    x[kCount + i] = kCoordinates[i];
    y[kCount + i] = kCoordinates[kCount - 1 - i];
  }
  if (normalized)
    for (int i = 0; i < 2 * kCount; ++i) x[i] /= width, y[i] /= height;
  float* dx = to_device(x);
  float* dy = to_device(y);
  Out* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, 2 * kCount * sizeof(Out)));
  fetch_2d<Out><<<1, 2 * kCount>>>(texture, dx, dy, out, 2 * kCount);
  CHECK_CUDA(cudaGetLastError());
  const std::vector<Out> values = from_device(out, 2 * kCount);
  for (int i = 0; i < 2 * kCount; ++i) {
    std::printf("%s%s %s %s %s %s x=%a y=%a ->", name, pitched ? " pitched" : "", mode_name(mode),
                filter == cudaFilterModeLinear ? "linear" : "point",
                read == cudaReadModeNormalizedFloat ? "normalized-float" : "element",
                normalized ? "normalized-coords" : "texel-coords", x[i], y[i]);
    print_value(values[i]);
    std::printf("\n");
  }
  CHECK_CUDA(cudaDestroyTextureObject(texture));
  if (array) CHECK_CUDA(cudaFreeArray(array));
  if (memory) cudaFree(memory);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(out);
  return 0;
}

// A 4 x 3 x 2 float volume sampled with tex3D along a line through it and past it.
int sample_3d(cudaTextureAddressMode mode, cudaTextureFilterMode filter, bool normalized) {
  const int w = 4, h = 3, d = 2;
  std::vector<float> texels(w * h * d);
  for (int i = 0; i < w * h * d; ++i) texels[i] = float(i * i % 17) - 3.5f;
  cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK_CUDA(cudaMalloc3DArray(&array, &channel, make_cudaExtent(w, h, d)));
  cudaMemcpy3DParms copy;
  std::memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float), w, h);
  copy.dstArray = array;
  copy.extent = make_cudaExtent(w, h, d);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&copy));
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  const cudaTextureDesc desc = describe(mode, filter, cudaReadModeElementType, normalized);
  cudaTextureObject_t texture = 0;
  CHECK_CUDA(cudaCreateTextureObject(&texture, &resource, &desc, nullptr));
  std::vector<float> x(kCount), y(kCount), z(kCount);
  for (int i = 0; i < kCount; ++i) {
    x[i] = kCoordinates[i];
    y[i] = kCoordinates[kCount - 1 - i] * 0.5f;
    z[i] = kCoordinates[i] * 0.4f;
    if (normalized) x[i] /= w, y[i] /= h, z[i] /= d;
  }
  float* dx = to_device(x);
  float* dy = to_device(y);
  float* dz = to_device(z);
  float* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kCount * sizeof(float)));
  fetch_3d<float><<<1, kCount>>>(texture, dx, dy, dz, out, kCount);
  CHECK_CUDA(cudaGetLastError());
  const std::vector<float> values = from_device(out, kCount);
  for (int i = 0; i < kCount; ++i) {
    std::printf("float-3d %s %s %s x=%a y=%a z=%a ->", mode_name(mode),
                filter == cudaFilterModeLinear ? "linear" : "point",
                normalized ? "normalized-coords" : "texel-coords", x[i], y[i], z[i]);
    print_value(values[i]);
    std::printf("\n");
  }
  CHECK_CUDA(cudaDestroyTextureObject(texture));
  CHECK_CUDA(cudaFreeArray(array));
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  cudaFree(out);
  return 0;
}

// tex1Dfetch over linear memory: integer indices, outside the range too.
int sample_linear_memory() {
  const std::vector<float> texels = {1.5f, -2.0f, 3.25f, 4.0f, 100.0f};
  float* memory = to_device(texels);
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = memory;
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = texels.size() * sizeof(float);
  const cudaTextureDesc desc = describe(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, false);
  cudaTextureObject_t texture = 0;
  CHECK_CUDA(cudaCreateTextureObject(&texture, &resource, &desc, nullptr));
  const std::vector<int> index = {0, 1, 2, 3, 4, 5, 7, -1};
  int* dindex = to_device(index);
  float* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, index.size() * sizeof(float)));
  fetch_1d_linear_memory<float><<<1, int(index.size())>>>(texture, dindex, out, int(index.size()));
  CHECK_CUDA(cudaGetLastError());
  const std::vector<float> values = from_device(out, int(index.size()));
  for (std::size_t i = 0; i < index.size(); ++i) {
    std::printf("float-linear-memory fetch i=%d ->", index[i]);
    print_value(values[i]);
    std::printf("\n");
  }
  CHECK_CUDA(cudaDestroyTextureObject(texture));
  cudaFree(memory);
  cudaFree(dindex);
  cudaFree(out);
  return 0;
}

}  // namespace

int main() {
  const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder, cudaAddressModeWrap,
                                          cudaAddressModeMirror};
  const std::vector<float> floats = {1.0f, -2.0f, 4.5f, 8.0f, 0.125f};
  const std::vector<unsigned char> bytes = {0, 255, 17, 128, 64};
  const std::vector<short> shorts = {-32768, 32767, -1, 1000, 0};
  const std::vector<uchar4> pixels = {make_uchar4(0, 10, 200, 255), make_uchar4(255, 0, 100, 1),
                                      make_uchar4(30, 60, 90, 120), make_uchar4(1, 2, 3, 4),
                                      make_uchar4(250, 128, 0, 77)};
  int failed = 0;
  for (const bool normalized : {false, true})
    for (const auto mode : modes) {
      // Wrap and mirror exist only with normalised coordinates.
      if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;
      failed |= sample_1d<float, float>("float-1d", floats, mode, cudaFilterModePoint, cudaReadModeElementType,
                                        normalized);
      failed |= sample_1d<float, float>("float-1d", floats, mode, cudaFilterModeLinear, cudaReadModeElementType,
                                        normalized);
      failed |= sample_1d<unsigned char, float>("uchar-1d", bytes, mode, cudaFilterModeLinear,
                                                cudaReadModeNormalizedFloat, normalized);
      failed |= sample_1d<short, float>("short-1d", shorts, mode, cudaFilterModeLinear, cudaReadModeNormalizedFloat,
                                        normalized);
      failed |= sample_3d(mode, cudaFilterModeLinear, normalized);
    }
  failed |= sample_1d<unsigned char, float>("uchar-1d", bytes, cudaAddressModeClamp, cudaFilterModePoint,
                                            cudaReadModeNormalizedFloat, false);
  failed |= sample_1d<uchar4, uchar4>("uchar4-1d", pixels, cudaAddressModeClamp, cudaFilterModePoint,
                                      cudaReadModeElementType, false);
  failed |= sample_1d<uchar4, float4>("uchar4-1d", pixels, cudaAddressModeWrap, cudaFilterModeLinear,
                                      cudaReadModeNormalizedFloat, true);
  failed |= sample_3d(cudaAddressModeClamp, cudaFilterModePoint, false);

  // A 5 x 4 image: each texel a value of its own, so a wrong row or column shows.
  std::vector<float> image(5 * 4);
  for (int i = 0; i < 20; ++i) image[i] = float(i * 7 % 11) + 0.25f * float(i % 3);
  std::vector<int> image_ints(20);
  for (int i = 0; i < 20; ++i) image_ints[i] = i * 37 - 200;
  for (const bool pitched : {false, true}) {
    failed |= sample_2d<float, float>("float-2d", 5, 4, image, pitched, cudaAddressModeClamp, cudaFilterModeLinear,
                                      cudaReadModeElementType, false);
    failed |= sample_2d<float, float>("float-2d", 5, 4, image, pitched, cudaAddressModeBorder, cudaFilterModePoint,
                                      cudaReadModeElementType, false);
  }
  failed |= sample_2d<float, float>("float-2d", 5, 4, image, false, cudaAddressModeWrap, cudaFilterModeLinear,
                                    cudaReadModeElementType, true);
  failed |= sample_2d<float, float>("float-2d", 5, 4, image, false, cudaAddressModeMirror, cudaFilterModePoint,
                                    cudaReadModeElementType, true);
  failed |= sample_2d<int, int>("int-2d", 5, 4, image_ints, false, cudaAddressModeClamp, cudaFilterModePoint,
                                cudaReadModeElementType, false);
  failed |= sample_linear_memory();
  return failed;
}
