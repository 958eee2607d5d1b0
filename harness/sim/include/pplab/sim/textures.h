// Textures in C++: cudaCreateChannelDesc<T>(), the fetches of texture objects
// (tex1Dfetch<T>, tex1D<T>, tex2D<T>, tex3D<T>) and the texture references of CUDA 11
// and before (`texture<T, dim, readMode>` globals, cudaBindTexture*, tex1Dfetch(ref, i),
// tex1D/tex2D/tex3D(ref, ...)), which CUDA 12 removed and real programs still use.
// The types and C functions are pplab/sim/textures_api.h. A fetch calls into the
// runtime, which samples as the GPU's texture unit does (src/texture_sampling.cpp), and
// the result is converted here to the type the code asked for.
#pragma once
#include <climits>
#include <type_traits>

#include "pplab/sim/runtime_api.h"
#include "pplab/sim/types.h"

// --- channel descriptors -----------------------------------------------------
template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
#define PPLAB_SIM_CHANNEL_DESC(T, x, y, z, w, kind)                     \
  template <>                                                            \
  inline cudaChannelFormatDesc cudaCreateChannelDesc<T>() {              \
    return cudaCreateChannelDesc(x, y, z, w, kind);                      \
  }
#define PPLAB_SIM_CHANNEL_DESCS(S, V, kind)                               \
  PPLAB_SIM_CHANNEL_DESC(S, int(8 * sizeof(S)), 0, 0, 0, kind)            \
  PPLAB_SIM_CHANNEL_DESC(V##1, int(8 * sizeof(S)), 0, 0, 0, kind)         \
  PPLAB_SIM_CHANNEL_DESC(V##2, int(8 * sizeof(S)), int(8 * sizeof(S)), 0, 0, kind) \
  PPLAB_SIM_CHANNEL_DESC(V##4, int(8 * sizeof(S)), int(8 * sizeof(S)), int(8 * sizeof(S)), int(8 * sizeof(S)), kind)
PPLAB_SIM_CHANNEL_DESCS(signed char, char, cudaChannelFormatKindSigned)
PPLAB_SIM_CHANNEL_DESCS(unsigned char, uchar, cudaChannelFormatKindUnsigned)
PPLAB_SIM_CHANNEL_DESCS(short, short, cudaChannelFormatKindSigned)
PPLAB_SIM_CHANNEL_DESCS(unsigned short, ushort, cudaChannelFormatKindUnsigned)
PPLAB_SIM_CHANNEL_DESCS(int, int, cudaChannelFormatKindSigned)
PPLAB_SIM_CHANNEL_DESCS(unsigned int, uint, cudaChannelFormatKindUnsigned)
PPLAB_SIM_CHANNEL_DESCS(float, float, cudaChannelFormatKindFloat)
// Plain char is signed on the machines the sim runs on, as on CUDA's hosts.
PPLAB_SIM_CHANNEL_DESC(char, 8, 0, 0, 0, CHAR_MIN < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
#undef PPLAB_SIM_CHANNEL_DESCS
#undef PPLAB_SIM_CHANNEL_DESC

namespace pplab::sim {
// What one fetch returns, before it becomes the caller's type: up to four channels,
// as floats (float textures and normalised reads) or as integers (element reads of
// integer textures; unsigned 32-bit values keep their bits).
struct TexelValue {
  float f[4];
  int i[4];
  bool floating;
};

// The caller's result type: its scalar and how many channels it has.
template <class T>
struct TexelType {
  using Scalar = T;
  static constexpr int channels = 1;
  static void set(T& out, int, Scalar v) { out = v; }
};
#define PPLAB_SIM_TEXEL_VECTORS(S, V)                                                      \
  template <>                                                                             \
  struct TexelType<V##1> {                                                                \
    using Scalar = S;                                                                     \
    static constexpr int channels = 1;                                                    \
    static void set(V##1& out, int, S v) { out.x = v; }                                   \
  };                                                                                      \
  template <>                                                                             \
  struct TexelType<V##2> {                                                                \
    using Scalar = S;                                                                     \
    static constexpr int channels = 2;                                                    \
    static void set(V##2& out, int c, S v) { (c == 0 ? out.x : out.y) = v; }              \
  };                                                                                      \
  template <>                                                                             \
  struct TexelType<V##4> {                                                                \
    using Scalar = S;                                                                     \
    static constexpr int channels = 4;                                                    \
    static void set(V##4& out, int c, S v) { (c == 0 ? out.x : c == 1 ? out.y : c == 2 ? out.z : out.w) = v; } \
  };
PPLAB_SIM_TEXEL_VECTORS(signed char, char)
PPLAB_SIM_TEXEL_VECTORS(unsigned char, uchar)
PPLAB_SIM_TEXEL_VECTORS(short, short)
PPLAB_SIM_TEXEL_VECTORS(unsigned short, ushort)
PPLAB_SIM_TEXEL_VECTORS(int, int)
PPLAB_SIM_TEXEL_VECTORS(unsigned int, uint)
PPLAB_SIM_TEXEL_VECTORS(float, float)
#undef PPLAB_SIM_TEXEL_VECTORS

template <class T>
inline T texel_as(const TexelValue& v) {
  using Traits = TexelType<T>;
  using S = typename Traits::Scalar;
  T out{};
  for (int c = 0; c < Traits::channels; ++c) {
    if constexpr (std::is_floating_point_v<S>)
      Traits::set(out, c, v.floating ? static_cast<S>(v.f[c]) : static_cast<S>(v.i[c]));
    else
      Traits::set(out, c, v.floating ? static_cast<S>(v.f[c]) : static_cast<S>(static_cast<unsigned>(v.i[c])));
  }
  return out;
}

// The runtime's side of a fetch (src/textures.cpp). `dims` is how many coordinates
// the call gave; a bad handle or an unbound reference ends the program with a report
// naming the kernel and thread.
TexelValue texture_object_sample(cudaTextureObject_t texture, int dims, float x, float y, float z);
TexelValue texture_object_fetch(cudaTextureObject_t texture, int index);
}  // namespace pplab::sim

// --- fetches through texture objects ----------------------------------------
template <class T>
inline T tex1Dfetch(cudaTextureObject_t texture, int x) {
  return pplab::sim::texel_as<T>(pplab::sim::texture_object_fetch(texture, x));
}
template <class T>
inline T tex1D(cudaTextureObject_t texture, float x) {
  return pplab::sim::texel_as<T>(pplab::sim::texture_object_sample(texture, 1, x, 0.0f, 0.0f));
}
template <class T>
inline T tex2D(cudaTextureObject_t texture, float x, float y) {
  return pplab::sim::texel_as<T>(pplab::sim::texture_object_sample(texture, 2, x, y, 0.0f));
}
template <class T>
inline T tex3D(cudaTextureObject_t texture, float x, float y, float z) {
  return pplab::sim::texel_as<T>(pplab::sim::texture_object_sample(texture, 3, x, y, z));
}
// The forms that write through a pointer.
template <class T>
inline void tex1Dfetch(T* out, cudaTextureObject_t texture, int x) { *out = tex1Dfetch<T>(texture, x); }
template <class T>
inline void tex1D(T* out, cudaTextureObject_t texture, float x) { *out = tex1D<T>(texture, x); }
template <class T>
inline void tex2D(T* out, cudaTextureObject_t texture, float x, float y) { *out = tex2D<T>(texture, x, y); }
template <class T>
inline void tex3D(T* out, cudaTextureObject_t texture, float x, float y, float z) { *out = tex3D<T>(texture, x, y, z); }

// --- texture references (CUDA 11 and before) ----------------------------------
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03

// As CUDA declares it, with the sim's binding in place of the reserved words. Filter,
// address and coordinate settings are read at each fetch, so a change made after
// binding (or between launches) applies to the next kernel, as on a GPU.
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  cudaTextureObject_t pplab_binding;  // what cudaBindTexture* bound (0: nothing)
};

template <class T, int dim = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : textureReference {
  texture(int norm = 0, enum cudaTextureFilterMode filter = cudaFilterModePoint,
          enum cudaTextureAddressMode address = cudaAddressModeClamp)
      : texture(norm, filter, address, cudaCreateChannelDesc<T>()) {}
  texture(int norm, enum cudaTextureFilterMode filter, enum cudaTextureAddressMode address,
          struct cudaChannelFormatDesc desc)
      : textureReference{norm, filter, {address, address, address}, desc, 0, 0, cudaFilterModePoint,
                         0.0f, 0.0f, 0.0f, 0, 0} {}
};

namespace pplab::sim {
TexelValue texture_reference_sample(const textureReference& ref, cudaTextureReadMode mode, int dims, float x, float y,
                                    float z);
TexelValue texture_reference_fetch(const textureReference& ref, cudaTextureReadMode mode, int index);

// What a reference's fetch returns: its element type, or for cudaReadModeNormalizedFloat
// a float with the element's channels.
template <class T, cudaTextureReadMode mode>
struct ReferenceResult {
  using type = T;
};
template <class T>
struct ReferenceResult<T, cudaReadModeNormalizedFloat> {
  using type = std::conditional_t<TexelType<T>::channels == 1, float,
                                  std::conditional_t<TexelType<T>::channels == 2, float2, float4>>;
};
template <class T, cudaTextureReadMode mode>
using reference_result_t = typename ReferenceResult<T, mode>::type;
}  // namespace pplab::sim

template <class T, enum cudaTextureReadMode mode>
inline pplab::sim::reference_result_t<T, mode> tex1Dfetch(const texture<T, cudaTextureType1D, mode>& ref, int x) {
  return pplab::sim::texel_as<pplab::sim::reference_result_t<T, mode>>(
      pplab::sim::texture_reference_fetch(ref, mode, x));
}
template <class T, enum cudaTextureReadMode mode>
inline pplab::sim::reference_result_t<T, mode> tex1D(const texture<T, cudaTextureType1D, mode>& ref, float x) {
  return pplab::sim::texel_as<pplab::sim::reference_result_t<T, mode>>(
      pplab::sim::texture_reference_sample(ref, mode, 1, x, 0.0f, 0.0f));
}
template <class T, enum cudaTextureReadMode mode>
inline pplab::sim::reference_result_t<T, mode> tex2D(const texture<T, cudaTextureType2D, mode>& ref, float x,
                                                     float y) {
  return pplab::sim::texel_as<pplab::sim::reference_result_t<T, mode>>(
      pplab::sim::texture_reference_sample(ref, mode, 2, x, y, 0.0f));
}
template <class T, enum cudaTextureReadMode mode>
inline pplab::sim::reference_result_t<T, mode> tex3D(const texture<T, cudaTextureType3D, mode>& ref, float x,
                                                     float y, float z) {
  return pplab::sim::texel_as<pplab::sim::reference_result_t<T, mode>>(
      pplab::sim::texture_reference_sample(ref, mode, 3, x, y, z));
}

// Binding. The reference is a global the program declared const-free; CUDA's
// signatures take it by const reference, and binding records what it reads.
cudaError_t cudaBindTexture(size_t* offset, const textureReference* ref, const void* dev_ptr,
                            const cudaChannelFormatDesc* desc, size_t size = UINT_MAX);
cudaError_t cudaBindTexture2D(size_t* offset, const textureReference* ref, const void* dev_ptr,
                              const cudaChannelFormatDesc* desc, size_t width, size_t height, size_t pitch);
cudaError_t cudaBindTextureToArray(const textureReference* ref, cudaArray_const_t array,
                                   const cudaChannelFormatDesc* desc);
cudaError_t cudaUnbindTexture(const textureReference* ref);
cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, const textureReference* ref);

template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture(size_t* offset, const texture<T, dim, mode>& ref, const void* dev_ptr,
                                   const cudaChannelFormatDesc& desc, size_t size = UINT_MAX) {
  return cudaBindTexture(offset, &ref, dev_ptr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture(size_t* offset, const texture<T, dim, mode>& ref, const void* dev_ptr,
                                   size_t size = UINT_MAX) {
  return cudaBindTexture(offset, &ref, dev_ptr, &ref.channelDesc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture2D(size_t* offset, const texture<T, dim, mode>& ref, const void* dev_ptr,
                                     const cudaChannelFormatDesc& desc, size_t width, size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &ref, dev_ptr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture2D(size_t* offset, const texture<T, dim, mode>& ref, const void* dev_ptr,
                                     size_t width, size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &ref, dev_ptr, &ref.channelDesc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTextureToArray(const texture<T, dim, mode>& ref, cudaArray_const_t array,
                                          const cudaChannelFormatDesc& desc) {
  return cudaBindTextureToArray(&ref, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTextureToArray(const texture<T, dim, mode>& ref, cudaArray_const_t array) {
  cudaChannelFormatDesc desc;
  if (cudaError_t e = cudaGetChannelDesc(&desc, array)) return e;
  return cudaBindTextureToArray(&ref, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaUnbindTexture(const texture<T, dim, mode>& ref) {
  return cudaUnbindTexture(&ref);
}
