// Texture objects and texture references: what the runtime keeps for each, the checks
// CUDA makes when one is created or bound, and the entry points of the fetches
// (pplab/sim/textures.h), which hand the sampling to texture_sampling.cpp.
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

#include "internal.h"
#include "textures_internal.h"

namespace pplab::sim::detail {
bool find_alloc_locked(std::uintptr_t addr, AllocInfo* out);  // memory.cpp

bool texel_format(const cudaChannelFormatDesc& desc, TexelFormat* out) {
  const int bits[4] = {desc.x, desc.y, desc.z, desc.w};
  int channels = 0;
  while (channels < 4 && bits[channels] != 0) ++channels;
  for (int c = channels; c < 4; ++c)
    if (bits[c] != 0) return false;  // a gap: y absent, z present
  if (channels == 0) return false;
  for (int c = 1; c < channels; ++c)
    if (bits[c] != bits[0]) return false;
  const int width = bits[0];
  if (desc.f == cudaChannelFormatKindFloat ? width != 16 && width != 32
                                           : width != 8 && width != 16 && width != 32)
    return false;
  if (desc.f != cudaChannelFormatKindSigned && desc.f != cudaChannelFormatKindUnsigned &&
      desc.f != cudaChannelFormatKindFloat)
    return false;
  *out = TexelFormat{desc.f, channels, width};
  return true;
}

cudaError_t check_texture(const TextureSource& source, const Sampler& sampler) {
  const TexelFormat& f = source.format;
  const bool integer = f.kind != cudaChannelFormatKindFloat;
  // Linear filtering interpolates, which needs a float result.
  if (sampler.filter == cudaFilterModeLinear && integer && sampler.read == cudaReadModeElementType)
    return cudaErrorInvalidFilterSetting;
  // Normalised reads exist for 8- and 16-bit integers.
  if (sampler.read == cudaReadModeNormalizedFloat && integer && f.channel_bits == 32)
    return cudaErrorInvalidNormSetting;
  return cudaSuccess;
}

namespace {

cudaError_t refuse(cudaError_t e, const std::string& why) {
  std::fflush(stdout);
  std::fprintf(stderr, "pplab-sim: error: %s\n", why.c_str());
  set_last_error(e);
  return e;
}

struct TextureRecord {
  cudaResourceDesc resource;
  cudaTextureDesc desc;
  TextureSource source;
  Sampler sampler;
  std::atomic<bool> live{true};
};

// Every texture ever created, by handle (1, 2, ...): kernels look handles up on every
// fetch without a lock, so a record is never moved, and never freed (a destroyed
// texture stays a record marked dead, so a fetch through it is reported, not a crash).
constexpr unsigned long long kChunk = 1024, kChunks = 4096;
std::atomic<std::atomic<TextureRecord*>*> g_chunks[kChunks];
std::mutex g_create_mutex;
unsigned long long g_next_handle = 1;

cudaTextureObject_t store(TextureRecord* record) {
  std::lock_guard<std::mutex> lock(g_create_mutex);
  const unsigned long long handle = g_next_handle;
  if (handle / kChunk >= kChunks) return 0;
  auto* chunk = g_chunks[handle / kChunk].load(std::memory_order_acquire);
  if (!chunk) {
    chunk = new std::atomic<TextureRecord*>[kChunk]();
    g_chunks[handle / kChunk].store(chunk, std::memory_order_release);
  }
  chunk[handle % kChunk].store(record, std::memory_order_release);
  ++g_next_handle;
  return handle;
}

TextureRecord* find(cudaTextureObject_t handle) {
  if (handle == 0 || handle / kChunk >= kChunks) return nullptr;
  auto* chunk = g_chunks[handle / kChunk].load(std::memory_order_acquire);
  if (!chunk) return nullptr;
  TextureRecord* r = chunk[handle % kChunk].load(std::memory_order_acquire);
  return r && r->live.load(std::memory_order_relaxed) ? r : nullptr;
}

// The memory a resource description names, or an error saying why CUDA would refuse it.
cudaError_t resolve(const cudaResourceDesc& res, TextureSource* out, std::string* why) {
  TextureSource s;
  switch (res.resType) {
    case cudaResourceTypeArray: {
      const cudaArray* a = res.res.array.array;
      if (!array_is_live(a)) return *why = "the resource's array is not a live CUDA array", cudaErrorInvalidResourceHandle;
      texel_format(a->desc, &s.format);
      s.base = a->data;
      s.dims = a->depth ? 3 : a->height ? 2 : 1;
      s.extent[0] = a->width;
      s.extent[1] = a->height ? a->height : 1;
      s.extent[2] = a->depth ? a->depth : 1;
      s.row_pitch = a->pitch;
      s.slice_pitch = a->pitch * s.extent[1];
      s.one_row_2d = s.dims == 1;
      break;
    }
    case cudaResourceTypeLinear:
      if (!res.res.linear.devPtr) return *why = "linear memory at a null pointer", cudaErrorInvalidValue;
      if (!texel_format(res.res.linear.desc, &s.format))
        return *why = "the channel descriptor is not a texel format", cudaErrorInvalidChannelDescriptor;
      s.base = static_cast<const unsigned char*>(res.res.linear.devPtr);
      s.dims = 1;
      s.extent[0] = res.res.linear.sizeInBytes / s.format.bytes();
      s.linear_memory = true;
      if (s.extent[0] == 0) return *why = "linear memory smaller than one texel", cudaErrorInvalidValue;
      break;
    case cudaResourceTypePitch2D:
      if (!res.res.pitch2D.devPtr) return *why = "pitched memory at a null pointer", cudaErrorInvalidValue;
      if (!texel_format(res.res.pitch2D.desc, &s.format))
        return *why = "the channel descriptor is not a texel format", cudaErrorInvalidChannelDescriptor;
      if (res.res.pitch2D.width == 0 || res.res.pitch2D.height == 0 ||
          res.res.pitch2D.pitchInBytes < res.res.pitch2D.width * s.format.bytes())
        return *why = "pitched memory needs a width, a height and a pitch of at least a row", cudaErrorInvalidValue;
      s.base = static_cast<const unsigned char*>(res.res.pitch2D.devPtr);
      s.dims = 2;
      s.extent[0] = res.res.pitch2D.width;
      s.extent[1] = res.res.pitch2D.height;
      s.row_pitch = res.res.pitch2D.pitchInBytes;
      s.slice_pitch = s.row_pitch * s.extent[1];
      break;
    default:
      return *why = "mipmapped arrays are not emulated", cudaErrorNotSupported;
  }
  *out = s;
  return cudaSuccess;
}

Sampler sampler_of(const cudaTextureDesc& d) {
  Sampler s;
  for (int k = 0; k < 3; ++k) s.address[k] = d.addressMode[k];
  s.filter = d.filterMode;
  s.read = d.readMode;
  s.normalized_coords = d.normalizedCoords != 0;
  for (int k = 0; k < 4; ++k) s.border[k] = d.borderColor[k];
  return s;
}

// A fetch that cannot go on: named with the kernel and thread that made it.
[[noreturn]] void bad_fetch(const std::string& what) {
  std::string where;
  if (Worker* w = tls_worker) where = " in " + describe_kernel(*w) + ", thread " + fmt_idx(w->idx[w->cur.load()]);
  fatal(what + where);
}

const TextureRecord& object_or_report(cudaTextureObject_t handle) {
  const TextureRecord* r = find(handle);
  if (!r)
    bad_fetch("texture fetch through texture object " + std::to_string(handle) +
              ", which cudaCreateTextureObject did not return or cudaDestroyTextureObject destroyed");
  return *r;
}

// What a texture reference reads now: its binding, with the settings it holds.
const TextureRecord& binding_or_report(const textureReference& ref) {
  const TextureRecord* r = find(ref.pplab_binding);
  if (!r) bad_fetch("texture fetch through a texture reference that is not bound (cudaBindTexture*)");
  return *r;
}
Sampler reference_sampler(const textureReference& ref, cudaTextureReadMode mode) {
  Sampler s;
  for (int k = 0; k < 3; ++k) s.address[k] = ref.addressMode[k];
  s.filter = ref.filterMode;
  s.read = mode;
  s.normalized_coords = ref.normalized != 0;
  return s;
}

cudaError_t bind(const textureReference* ref, const cudaResourceDesc& res, const char* call) {
  if (!ref) return refuse(cudaErrorInvalidTexture, std::string(call) + ": null texture reference");
  auto* record = new TextureRecord{};
  record->resource = res;
  std::string why;
  if (cudaError_t e = resolve(res, &record->source, &why)) {
    delete record;
    return refuse(e, std::string(call) + ": " + why);
  }
  const cudaTextureObject_t handle = store(record);
  if (!handle) {
    delete record;
    return refuse(cudaErrorMemoryAllocation, std::string(call) + ": too many textures");
  }
  auto& writable = const_cast<textureReference&>(*ref);
  if (TextureRecord* old = find(writable.pplab_binding)) old->live = false;
  writable.pplab_binding = handle;
  return cudaSuccess;
}

}  // namespace
}  // namespace pplab::sim::detail

using namespace pplab::sim::detail;

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* desc, const cudaResourceViewDesc* view) {
  if (!texture || !resource || !desc)
    return refuse(cudaErrorInvalidValue, "cudaCreateTextureObject: null texture, resource or texture description");
  if (view) return refuse(cudaErrorNotSupported, "cudaCreateTextureObject: resource views are not emulated");
  auto* record = new TextureRecord{};
  record->resource = *resource;
  record->desc = *desc;
  record->sampler = sampler_of(*desc);
  std::string why;
  cudaError_t e = resolve(*resource, &record->source, &why);
  if (!e && (e = check_texture(record->source, record->sampler)))
    why = e == cudaErrorInvalidFilterSetting ? "linear filtering of integer texels needs cudaReadModeNormalizedFloat"
                                             : "normalised reads need 8- or 16-bit integer texels";
  if (e) {
    delete record;
    return refuse(e, "cudaCreateTextureObject: " + why);
  }
  *texture = store(record);
  if (!*texture) {
    delete record;
    return refuse(cudaErrorMemoryAllocation, "cudaCreateTextureObject: too many textures");
  }
  return cudaSuccess;
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture) {
  TextureRecord* r = find(texture);
  if (!r) {
    if (texture == 0) return cudaSuccess;
    return refuse(cudaErrorInvalidValue, "cudaDestroyTextureObject: not a live texture object");
  }
  r->live = false;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture) {
  const TextureRecord* r = find(texture);
  if (!r || !resource) return refuse(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc: not a live texture object");
  *resource = r->resource;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t texture) {
  const TextureRecord* r = find(texture);
  if (!r || !desc) return refuse(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc: not a live texture object");
  *desc = r->desc;
  return cudaSuccess;
}

// --- texture references ----------------------------------------------------------
cudaError_t cudaBindTexture(size_t* offset, const textureReference* ref, const void* dev_ptr,
                            const cudaChannelFormatDesc* desc, size_t size) {
  if (!desc) return refuse(cudaErrorInvalidChannelDescriptor, "cudaBindTexture: null channel descriptor");
  // Without a size (CUDA's default is UINT_MAX) the binding runs to the allocation's end.
  AllocInfo a;
  const auto addr = reinterpret_cast<std::uintptr_t>(dev_ptr);
  if (dev_ptr && find_alloc_locked(addr, &a) && addr >= a.start && addr < a.start + a.size &&
      (size == UINT_MAX || size > a.start + a.size - addr))
    size = a.start + a.size - addr;
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = const_cast<void*>(dev_ptr);
  res.res.linear.desc = *desc;
  res.res.linear.sizeInBytes = size;
  if (offset) *offset = 0;  // every allocation is aligned as a texture needs
  return bind(ref, res, "cudaBindTexture");
}
cudaError_t cudaBindTexture2D(size_t* offset, const textureReference* ref, const void* dev_ptr,
                              const cudaChannelFormatDesc* desc, size_t width, size_t height, size_t pitch) {
  if (!desc) return refuse(cudaErrorInvalidChannelDescriptor, "cudaBindTexture2D: null channel descriptor");
  cudaResourceDesc res{};
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = const_cast<void*>(dev_ptr);
  res.res.pitch2D.desc = *desc;
  res.res.pitch2D.width = width;
  res.res.pitch2D.height = height;
  res.res.pitch2D.pitchInBytes = pitch;
  if (offset) *offset = 0;
  return bind(ref, res, "cudaBindTexture2D");
}
cudaError_t cudaBindTextureToArray(const textureReference* ref, cudaArray_const_t array,
                                   const cudaChannelFormatDesc*) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = const_cast<cudaArray_t>(array);
  return bind(ref, res, "cudaBindTextureToArray");
}
cudaError_t cudaUnbindTexture(const textureReference* ref) {
  if (!ref) return refuse(cudaErrorInvalidTexture, "cudaUnbindTexture: null texture reference");
  auto& writable = const_cast<textureReference&>(*ref);
  if (TextureRecord* r = find(writable.pplab_binding)) r->live = false;
  writable.pplab_binding = 0;
  return cudaSuccess;
}
cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, const textureReference*) {
  if (offset) *offset = 0;
  return cudaSuccess;
}

// --- fetches --------------------------------------------------------------------
namespace pplab::sim {
TexelValue texture_object_sample(cudaTextureObject_t texture, int, float x, float y, float z) {
  const TextureRecord& r = object_or_report(texture);
  const float coords[3] = {x, y, z};
  return detail::sample(r.source, r.sampler, coords);
}
TexelValue texture_object_fetch(cudaTextureObject_t texture, int index) {
  const TextureRecord& r = object_or_report(texture);
  return detail::fetch_index(r.source, r.sampler, index);
}
TexelValue texture_reference_sample(const textureReference& ref, cudaTextureReadMode mode, int, float x, float y,
                                    float z) {
  const TextureRecord& r = binding_or_report(ref);
  const Sampler s = reference_sampler(ref, mode);
  if (cudaError_t e = check_texture(r.source, s))
    bad_fetch(std::string("texture fetch through a reference whose settings CUDA refuses: ") + cudaGetErrorString(e));
  const float coords[3] = {x, y, z};
  return detail::sample(r.source, s, coords);
}
TexelValue texture_reference_fetch(const textureReference& ref, cudaTextureReadMode mode, int index) {
  const TextureRecord& r = binding_or_report(ref);
  return detail::fetch_index(r.source, reference_sampler(ref, mode), index);
}
}  // namespace pplab::sim
