// The runtime API's C face for CUDA arrays and texture objects: the types, enums and
// functions CUDA declares in driver_types.h, driver_functions.h and cuda_runtime_api.h,
// with the toolkit's layouts and values. Valid C and C++, like pplab/sim/runtime_api.h,
// which includes it. The C++ side (cudaCreateChannelDesc<T>, tex1D<T> and the other
// fetches, texture references) is pplab/sim/textures.h; the sampling itself, computed as
// the GPU's texture unit does, is src/texture_sampling.cpp.
#pragma once
#include <stddef.h>

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};
// Bits per channel (x, y, z, w; 0 for an absent channel) and how to read them.
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

// A CUDA array: texels laid out for the texture unit, reached only through copies and
// textures. Here, rows of texels in device memory (src/cuda_arrays.cpp).
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;
typedef struct cudaMipmappedArray* cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray* cudaMipmappedArray_const_t;

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

struct cudaExtent {
  size_t width;  // in elements for a CUDA array, in bytes for linear memory
  size_t height;
  size_t depth;
};
struct cudaPos {
  size_t x;  // in elements for a CUDA array, in bytes for linear memory
  size_t y;
  size_t z;
};
struct cudaPitchedPtr {
  void* ptr;
  size_t pitch;  // bytes from one row to the next
  size_t xsize;  // logical width, in elements
  size_t ysize;  // rows
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};

// driver_functions.h's helpers, static inline as there.
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e;
  e.width = w, e.height = h, e.depth = d;
  return e;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p;
  p.x = x, p.y = y, p.z = z;
  return p;
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void* d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d, s.pitch = p, s.xsize = xsz, s.ysize = ysz;
  return s;
}

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};
enum cudaResourceViewFormat { cudaResViewFormatNone = 0 };

// What a texture reads: a CUDA array, linear memory (tex1Dfetch) or pitched 2D memory.
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
// How it is read: addressing, filtering, coordinates, conversion.
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
  unsigned int reserved[16];
};
// 0 is no texture; the sim numbers the ones it creates from 1.
typedef unsigned long long cudaTextureObject_t;

PPLAB_SIM_C_BEGIN
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);

// --- CUDA arrays (src/cuda_arrays.cpp) ---
cudaError_t cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, size_t width,
                            size_t height PPLAB_SIM_DEFAULT(0), unsigned int flags PPLAB_SIM_DEFAULT(0));
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, struct cudaExtent extent,
                              unsigned int flags PPLAB_SIM_DEFAULT(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc* desc, struct cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc* desc, cudaArray_const_t array);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t src_pitch,
                                size_t width_bytes, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dst_pitch, cudaArray_const_t src, size_t w_offset,
                                  size_t h_offset, size_t width_bytes, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms* p);

// --- texture objects (src/textures.cpp) ---
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const struct cudaResourceDesc* resource,
                                    const struct cudaTextureDesc* desc, const struct cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* resource, cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* desc, cudaTextureObject_t texture);
PPLAB_SIM_C_END
