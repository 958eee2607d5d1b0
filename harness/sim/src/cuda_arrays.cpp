// CUDA arrays: cudaMallocArray, cudaMalloc3DArray, cudaFreeArray and the copies into
// and out of them. An array's texels are rows in a cudaMalloc allocation, so every copy
// is an ordinary device copy (queued, checked against the allocation, device memory
// closed to the host) and a kernel's texture fetches read it as device memory.
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "internal.h"
#include "textures_internal.h"

namespace pplab::sim::detail {
namespace {
std::mutex g_arrays_mutex;
std::set<const cudaArray*> g_arrays;

cudaError_t refuse(cudaError_t e, const std::string& why) {
  std::fflush(stdout);
  std::fprintf(stderr, "pplab-sim: error: %s\n", why.c_str());
  set_last_error(e);
  return e;
}

cudaError_t allocate_array(cudaArray_t* out, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                           size_t depth, unsigned int flags, const char* call) {
  if (!out || !desc) return refuse(cudaErrorInvalidValue, std::string(call) + ": null array or descriptor");
  TexelFormat format;
  if (!texel_format(*desc, &format) || format.channels == 3)
    return refuse(cudaErrorInvalidChannelDescriptor,
                  std::string(call) + ": the channel descriptor is not one a CUDA array can hold (1, 2 or 4 channels "
                                      "of 8, 16 or 32 bits, all alike)");
  if (width == 0 || (depth > 0 && height == 0))
    return refuse(cudaErrorInvalidValue, std::string(call) + ": an array needs a width (and a height for depth)");
  if (flags & (cudaArrayLayered | cudaArrayCubemap))
    return refuse(cudaErrorNotSupported, std::string(call) + ": layered and cubemap arrays are not emulated");
  auto* a = new cudaArray{};
  a->desc = *desc;
  a->width = width;
  a->height = height;
  a->depth = depth;
  a->flags = flags;
  a->texel_bytes = format.bytes();
  a->pitch = width * a->texel_bytes;
  a->rows = (height ? height : 1) * (depth ? depth : 1);
  void* data = nullptr;
  if (cudaError_t e = cudaMalloc(&data, a->pitch * a->rows)) {
    delete a;
    return e;
  }
  a->data = static_cast<unsigned char*>(data);
  {
    std::lock_guard<std::mutex> lock(g_arrays_mutex);
    g_arrays.insert(a);
  }
  *out = a;
  return cudaSuccess;
}

// The byte range [row h_offset, byte w_offset) .. width_bytes x height of an array, or
// an error naming the call.
cudaError_t array_region(const cudaArray* a, size_t w_offset, size_t h_offset, size_t width_bytes, size_t height,
                         const char* call) {
  if (!array_is_live(a)) return refuse(cudaErrorInvalidResourceHandle, std::string(call) + ": not a live CUDA array");
  if (w_offset + width_bytes > a->pitch || h_offset + height > a->rows) {
    char buf[240];
    std::snprintf(buf, sizeof buf, "%s: %zu bytes x %zu rows at (%zu bytes, row %zu) do not fit the array (%zu bytes x %zu rows)",
                  call, width_bytes, height, w_offset, h_offset, a->pitch, a->rows);
    return refuse(cudaErrorInvalidValue, buf);
  }
  return cudaSuccess;
}

// One side of a cudaMemcpy3D: where its rows are and how far apart.
struct Side {
  unsigned char* base;
  size_t pitch;
  size_t rows_per_slice;
  size_t element_bytes;  // what pos.x counts: a texel of an array, a byte of memory
};
}  // namespace

bool array_is_live(const cudaArray* array) {
  std::lock_guard<std::mutex> lock(g_arrays_mutex);
  return g_arrays.count(array) != 0;
}
}  // namespace pplab::sim::detail

using namespace pplab::sim::detail;

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned int flags) {
  return allocate_array(array, desc, width, height, 0, flags, "cudaMallocArray");
}
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  return allocate_array(array, desc, extent.width, extent.height, extent.depth, flags, "cudaMalloc3DArray");
}
cudaError_t cudaFreeArray(cudaArray_t array) {
  if (!array) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(g_arrays_mutex);
    if (!g_arrays.erase(array))
      return refuse(cudaErrorInvalidValue, "cudaFreeArray: not an array from cudaMallocArray (or freed twice)");
  }
  cudaError_t e = cudaFree(array->data);  // waits for the work that may still read it
  delete array;
  return e;
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  if (!array_is_live(array)) return refuse(cudaErrorInvalidResourceHandle, "cudaArrayGetInfo: not a live CUDA array");
  if (desc) *desc = array->desc;
  if (extent) *extent = make_cudaExtent(array->width, array->height, array->depth);
  if (flags) *flags = array->flags;
  return cudaSuccess;
}
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (!desc || !array_is_live(array))
    return refuse(cudaErrorInvalidResourceHandle, "cudaGetChannelDesc: not a live CUDA array");
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t src_pitch,
                                size_t width_bytes, size_t height, cudaMemcpyKind kind) {
  if (cudaError_t e = array_region(dst, w_offset, h_offset, width_bytes, height, "cudaMemcpy2DToArray")) return e;
  return cudaMemcpy2D(dst->data + h_offset * dst->pitch + w_offset, dst->pitch, src, src_pitch, width_bytes, height,
                      kind);
}
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dst_pitch, cudaArray_const_t src, size_t w_offset,
                                  size_t h_offset, size_t width_bytes, size_t height, cudaMemcpyKind kind) {
  if (cudaError_t e = array_region(src, w_offset, h_offset, width_bytes, height, "cudaMemcpy2DFromArray")) return e;
  return cudaMemcpy2D(dst, dst_pitch, src->data + h_offset * src->pitch + w_offset, src->pitch, width_bytes, height,
                      kind);
}
// The deprecated flat forms: count bytes from (w_offset, h_offset) on, running on into
// the next rows.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                              cudaMemcpyKind kind) {
  if (cudaError_t e = array_region(dst, w_offset, h_offset, 0, 0, "cudaMemcpyToArray")) return e;
  const size_t start = h_offset * dst->pitch + w_offset;
  if (start + count > dst->pitch * dst->rows)
    return refuse(cudaErrorInvalidValue, "cudaMemcpyToArray: the copy runs past the end of the array");
  return cudaMemcpy(dst->data + start, src, count, kind);
}
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                cudaMemcpyKind kind) {
  if (cudaError_t e = array_region(src, w_offset, h_offset, 0, 0, "cudaMemcpyFromArray")) return e;
  const size_t start = h_offset * src->pitch + w_offset;
  if (start + count > src->pitch * src->rows)
    return refuse(cudaErrorInvalidValue, "cudaMemcpyFromArray: the copy runs past the end of the array");
  return cudaMemcpy(dst, src->data + start, count, kind);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (!p) return refuse(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
  if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr) || (!p->srcArray && !p->srcPtr.ptr) ||
      (!p->dstArray && !p->dstPtr.ptr))
    return refuse(cudaErrorInvalidValue, "cudaMemcpy3D: each side needs exactly one of an array and a pitched pointer");
  // The extent's width counts texels when either side is an array, bytes otherwise.
  const cudaArray* array = p->srcArray ? p->srcArray : p->dstArray;
  if (array && !array_is_live(array)) return refuse(cudaErrorInvalidResourceHandle, "cudaMemcpy3D: not a live CUDA array");
  if (p->srcArray && p->dstArray && p->srcArray->texel_bytes != p->dstArray->texel_bytes)
    return refuse(cudaErrorInvalidValue, "cudaMemcpy3D: the two arrays' texels differ in size");
  const size_t unit = array ? array->texel_bytes : 1;
  auto side = [](cudaArray* a, const cudaPitchedPtr& ptr) {
    if (a) return Side{a->data, a->pitch, a->height ? a->height : 1, a->texel_bytes};
    return Side{static_cast<unsigned char*>(ptr.ptr), ptr.pitch, ptr.ysize, 1};
  };
  const Side src = side(p->srcArray, p->srcPtr), dst = side(p->dstArray, p->dstPtr);
  const size_t width_bytes = p->extent.width * unit;
  for (const cudaArray* a : {static_cast<const cudaArray*>(p->srcArray), static_cast<const cudaArray*>(p->dstArray)}) {
    if (!a) continue;
    const cudaPos& pos = a == p->srcArray ? p->srcPos : p->dstPos;
    const size_t height = a->height ? a->height : 1, depth = a->depth ? a->depth : 1;
    if (pos.x + p->extent.width > a->width || pos.y + p->extent.height > height || pos.z + p->extent.depth > depth)
      return refuse(cudaErrorInvalidValue, "cudaMemcpy3D: the extent runs outside the array");
  }
  for (size_t z = 0; z < p->extent.depth; ++z) {
    auto at = [&](const Side& s, const cudaPos& pos) {
      return s.base + ((pos.z + z) * s.rows_per_slice + pos.y) * s.pitch + pos.x * s.element_bytes;
    };
    if (cudaError_t e = cudaMemcpy2D(at(dst, p->dstPos), dst.pitch, at(src, p->srcPos), src.pitch, width_bytes,
                                     p->extent.height, p->kind))
      return e;
  }
  return cudaSuccess;
}
