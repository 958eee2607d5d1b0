// What the CUDA arrays, the texture objects and the sampler share (not installed for
// user code): a texel format, the memory a texture reads, and how it reads it.
#pragma once
#include <cstddef>

#include "pplab/sim/sim.h"

// The runtime's CUDA array: rows of texels, `pitch` bytes apart, slices of `rows`
// rows one after another, in a cudaMalloc allocation (so copies to it are device copies
// and kernels read it as device memory).
struct cudaArray {
  cudaChannelFormatDesc desc;
  size_t width, height, depth;  // height and depth 0 where the array has fewer dimensions
  unsigned int flags;
  size_t texel_bytes;
  size_t pitch;  // bytes a row
  size_t rows;   // rows in all: height (at least 1) times depth (at least 1)
  unsigned char* data;
};

namespace pplab::sim::detail {

// A texel's layout, from a channel descriptor.
struct TexelFormat {
  cudaChannelFormatKind kind = cudaChannelFormatKindNone;
  int channels = 0;
  int channel_bits = 0;
  size_t bytes() const { return static_cast<size_t>(channels) * channel_bits / 8; }
};
// False where CUDA refuses the descriptor: channels of different widths, a gap
// (y absent but z present), widths other than 8, 16 or 32 (16 or 32 for floats).
bool texel_format(const cudaChannelFormatDesc& desc, TexelFormat* out);

// The memory a texture reads.
struct TextureSource {
  const unsigned char* base = nullptr;
  TexelFormat format;
  int dims = 1;                  // 1, 2 or 3
  size_t extent[3] = {1, 1, 1};  // texels along x, y, z
  size_t row_pitch = 0;          // bytes from one row to the next
  size_t slice_pitch = 0;        // bytes from one slice to the next
  bool linear_memory = false;    // cudaResourceTypeLinear: tex1Dfetch reads it
  // A 1D CUDA array: the texture unit filters it as a 2D texture one row high,
  // sampled at y = 0, so linear filtering weighs in the row above it (measured on an
  // H100: in border mode a 1D linear fetch comes out at half weight).
  bool one_row_2d = false;
};

// How it reads it.
struct Sampler {
  cudaTextureAddressMode address[3] = {cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp};
  cudaTextureFilterMode filter = cudaFilterModePoint;
  cudaTextureReadMode read = cudaReadModeElementType;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};
};

// texture_sampling.cpp: a fetch at coordinates (tex1D/2D/3D), and one at an integer
// index (tex1Dfetch: out of range gives zero, as on a GPU).
TexelValue sample(const TextureSource& source, const Sampler& sampler, const float coords[3]);
TexelValue fetch_index(const TextureSource& source, const Sampler& sampler, long long index);

// textures.cpp: the reasons CUDA refuses a texture, or cudaSuccess.
cudaError_t check_texture(const TextureSource& source, const Sampler& sampler);
// cuda_arrays.cpp: a live array (not freed, made by cudaMallocArray or cudaMalloc3DArray).
bool array_is_live(const cudaArray* array);
}  // namespace pplab::sim::detail
