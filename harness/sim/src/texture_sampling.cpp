// Texture sampling as NVIDIA's texture unit computes it, so that a fetch gives the GPU's
// bits, not an ideal interpolation. The rules, each matched against fetches measured on
// an H100 (tests/programs/textures/texture_fetches.expected):
//
// * Normalised coordinates are cut to 16 fractional bits (towards minus infinity)
//   before they are scaled by the size: 0.2f on 5 texels is 0.99999... texels, texel 0,
//   not texel 1 as a float multiply gives. (The measurements fix the cut between 14
//   and 23 bits.)
// * Point filtering takes texel floor(t).
// * Linear filtering takes t - 0.5 and splits it into a texel i = floor(t - 0.5) and a
//   fraction, which becomes a weight in 1/256 units, rounded to nearest: 9-bit fixed
//   point with 8 fractional bits. In clamp mode the coordinate is first clamped to the
//   texel centres at the edges, [0.5, n - 0.5], so outside them the fraction is 0
//   (measured at the low edge; the high edge is taken to match).
// * The corner weights are not the products of those weights: the unit splits a total
//   of 256 axis by axis, rounding one part of each split to 1/256 (half up) and giving
//   the other part the rest. A 3D fetch splits by z first (256 - wz for the lower
//   layer, wz for the upper); each layer's total T is split by x (X1 = round(T wx /
//   256), X0 = T - X1); each of those by y, rounding the part whose y index equals its
//   x index (w11 = round(X1 wy / 256), w00 = round(X0 (256 - wy) / 256); w10 and w01
//   the rest). A 2D fetch is one layer with T = 256, which gives w11 = round(wx wy),
//   w10 = wx - w11, w01 = wy - w11, w00 = 1 - wx - wy + w11.
// * 8-bit unsigned texels read as normalised floats are filtered as 16-bit values
//   (v * 257), rounded to an integer N (half up) and returned as N / 65535; 16-bit
//   signed ones as N / 32767, clamped to -1.
// * Wrap and mirror exist with normalised coordinates only; with texel coordinates
//   they address as clamp, as CUDA documents.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "textures_internal.h"

namespace pplab::sim::detail {
namespace {

constexpr int kWeightOne = 256;      // a weight of 1 in the filter's fixed point
constexpr double kCoordinateScale = 65536.0;  // normalised coordinates keep 16 fractional bits

float half_to_float(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v;
  if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}

// How a channel's values are filtered: floats as they are; integers read as normalised
// floats in the unit's integer domain (unsigned as 16-bit, so 8-bit values are scaled
// by 257), with `scale` the value that stands for 1.0.
struct Domain {
  bool floating;
  double scale;
};
Domain domain_of(const TexelFormat& f, cudaTextureReadMode read) {
  if (f.kind == cudaChannelFormatKindFloat) return {true, 1.0};
  if (read == cudaReadModeElementType) return {false, 1.0};
  if (f.kind == cudaChannelFormatKindUnsigned) return {false, 65535.0};
  return {false, f.channel_bits == 8 ? 127.0 : 32767.0};
}

// Channel c of the texel at p, in the filter's domain.
double channel_value(const unsigned char* p, const TexelFormat& f, const Domain& d, int c) {
  const unsigned char* q = p + static_cast<size_t>(c) * f.channel_bits / 8;
  switch (f.kind) {
    case cudaChannelFormatKindFloat:
      if (f.channel_bits == 16) {
        std::uint16_t h;
        std::memcpy(&h, q, 2);
        return half_to_float(h);
      } else {
        float v;
        std::memcpy(&v, q, 4);
        return v;
      }
    case cudaChannelFormatKindUnsigned: {
      std::uint32_t v = 0;
      std::memcpy(&v, q, f.channel_bits / 8);
      // An 8-bit unsigned normalised value widens to 16 bits by repeating its byte.
      if (d.scale == 65535.0 && f.channel_bits == 8) return v * 257.0;
      return v;
    }
    default: {
      if (f.channel_bits == 8) return static_cast<std::int8_t>(*q);
      if (f.channel_bits == 16) {
        std::int16_t v;
        std::memcpy(&v, q, 2);
        return v;
      }
      std::int32_t v;
      std::memcpy(&v, q, 4);
      return v;
    }
  }
}

// The border colour in the filter's domain.
double border_value(const Sampler& s, const Domain& d, int c) {
  if (d.floating || d.scale == 1.0) return s.border[c];
  return std::nearbyint(static_cast<double>(s.border[c]) * d.scale);
}

// A texel index along one dimension after addressing, or -1 for the border.
long long address(long long i, long long n, cudaTextureAddressMode mode) {
  switch (mode) {
    case cudaAddressModeBorder:
      return i >= 0 && i < n ? i : -1;
    case cudaAddressModeWrap: {
      long long m = i % n;
      return m < 0 ? m + n : m;
    }
    case cudaAddressModeMirror: {
      long long m = i % (2 * n);
      if (m < 0) m += 2 * n;
      return m < n ? m : 2 * n - 1 - m;
    }
    default:
      return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

// The texel coordinate along dimension d, as the unit holds it.
double texel_coordinate(float c, size_t n, bool normalized) {
  if (!normalized) return c;
  return std::floor(static_cast<double>(c) * kCoordinateScale) / kCoordinateScale * static_cast<double>(n);
}

// The result in the caller's terms: floats (float textures, normalised reads) or integers.
TexelValue finish(const TexelFormat& f, const Domain& d, const double sum[4], int weight_total) {
  TexelValue out{};
  out.floating = d.floating || d.scale != 1.0;
  for (int c = 0; c < f.channels; ++c) {
    if (d.floating) {
      out.f[c] = static_cast<float>(sum[c] / weight_total);
    } else if (d.scale != 1.0) {
      const double n = std::floor(sum[c] / weight_total + 0.5);  // to the unit's integer, half up
      const float v = static_cast<float>(n) / static_cast<float>(d.scale);
      out.f[c] = v < -1.0f ? -1.0f : v;
    } else {
      out.i[c] = static_cast<int>(static_cast<long long>(sum[c] / weight_total));
    }
  }
  return out;
}

struct Axes {
  int n = 1;               // dimensions filtered
  long long size[3] = {1, 1, 1};
  cudaTextureAddressMode mode[3] = {cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp};
};

Axes axes_of(const TextureSource& src, const Sampler& s) {
  Axes a;
  a.n = src.dims;
  for (int d = 0; d < 3; ++d) {
    a.size[d] = static_cast<long long>(src.extent[d]);
    a.mode[d] = s.address[d];
    // Wrap and mirror need normalised coordinates; otherwise the unit clamps.
    if (!s.normalized_coords && (a.mode[d] == cudaAddressModeWrap || a.mode[d] == cudaAddressModeMirror))
      a.mode[d] = cudaAddressModeClamp;
  }
  return a;
}

// Adds weight times the texel at idx (already addressed; -1 in any axis: the border).
void accumulate(const TextureSource& src, const Sampler& s, const Domain& dom, const long long idx[3], long long weight,
                double sum[4]) {
  bool border = false;
  for (int d = 0; d < 3; ++d) border |= idx[d] < 0;
  const unsigned char* p =
      border ? nullptr : src.base + idx[2] * src.slice_pitch + idx[1] * src.row_pitch + idx[0] * src.format.bytes();
  for (int c = 0; c < src.format.channels; ++c)
    sum[c] += static_cast<double>(weight) * (border ? border_value(s, dom, c) : channel_value(p, src.format, dom, c));
}

// The part of `total` that `weight` (in 1/256 units) gives, rounded half up to 1/256.
long long rounded_share(long long total, long long weight) {
  return (2 * total * weight + kWeightOne) / (2 * kWeightOne);
}

}  // namespace

TexelValue sample(const TextureSource& src, const Sampler& s, const float coords[3]) {
  const Domain dom = domain_of(src.format, s.read);
  Axes axes = axes_of(src, s);
  double sum[4] = {0, 0, 0, 0};
  double t[3] = {0, 0, 0};
  for (int d = 0; d < axes.n; ++d) t[d] = texel_coordinate(coords[d], src.extent[d], s.normalized_coords);

  if (s.filter == cudaFilterModePoint) {
    long long idx[3] = {0, 0, 0};
    for (int d = 0; d < axes.n; ++d)
      idx[d] = address(static_cast<long long>(std::floor(t[d])), axes.size[d], axes.mode[d]);
    accumulate(src, s, dom, idx, 1, sum);
    return finish(src.format, dom, sum, 1);
  }

  // A 1D array is filtered as one row of a 2D texture, at y = 0.
  if (src.one_row_2d && axes.n == 1) {
    axes.n = 2;
    axes.size[1] = 1;
    axes.mode[1] = axes.mode[0];
    t[1] = 0.0;
  }
  long long first[3] = {0, 0, 0}, weight[3] = {0, 0, 0};
  for (int d = 0; d < axes.n; ++d) {
    double at = t[d];
    // Clamp mode clamps the coordinate to the edge texels' centres before it is split.
    if (axes.mode[d] == cudaAddressModeClamp) {
      const double last = static_cast<double>(axes.size[d]) - 0.5;
      at = at < 0.5 ? 0.5 : at > last ? last : at;
    }
    const double shifted = at - 0.5;
    const double base = std::floor(shifted);
    first[d] = static_cast<long long>(base);
    weight[d] = static_cast<long long>(std::floor((shifted - base) * kWeightOne + 0.5));
  }
  // The total of 256 split by z into layers, each layer's share by x, each of those by y.
  const int layers = axes.n == 3 ? 2 : 1;
  for (int z = 0; z < layers; ++z) {
    const long long layer = axes.n == 3 ? (z ? weight[2] : kWeightOne - weight[2]) : kWeightOne;
    long long w[4];  // corner (x, y) at index x + 2 y
    w[1] = rounded_share(layer, weight[0]);
    w[0] = layer - w[1];
    if (axes.n >= 2) {
      w[3] = rounded_share(w[1], weight[1]);
      w[2] = w[0] - rounded_share(w[0], kWeightOne - weight[1]);
      w[0] -= w[2];
      w[1] -= w[3];
    } else {
      w[2] = w[3] = 0;
    }
    for (int corner = 0; corner < 4; ++corner) {
      if (w[corner] == 0) continue;
      const long long offset[3] = {corner & 1, corner >> 1, z};
      long long idx[3] = {0, 0, 0};
      for (int d = 0; d < axes.n; ++d) idx[d] = address(first[d] + offset[d], axes.size[d], axes.mode[d]);
      accumulate(src, s, dom, idx, w[corner], sum);
    }
  }
  return finish(src.format, dom, sum, kWeightOne);
}

TexelValue fetch_index(const TextureSource& src, const Sampler& s, long long index) {
  const Domain dom = domain_of(src.format, s.read);
  double sum[4] = {0, 0, 0, 0};
  if (index >= 0 && index < static_cast<long long>(src.extent[0])) {
    const long long idx[3] = {index, 0, 0};
    accumulate(src, s, dom, idx, 1, sum);
  }
  return finish(src.format, dom, sum, 1);
}

}  // namespace pplab::sim::detail
