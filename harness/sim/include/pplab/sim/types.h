// CUDA's built-in vector types, dim3 and their make_* helpers, with CUDA's alignment
// (float2 is 8-byte aligned, float4 16-byte aligned, so vector loads behave alike).
#pragma once
#include <cstddef>

#define PPLAB_SIM_VEC2(T, N, A)                                                  \
  struct __attribute__((aligned(A))) N##2 { T x, y; };                           \
  inline constexpr N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define PPLAB_SIM_VEC3(T, N)                                                     \
  struct N##3 { T x, y, z; };                                                    \
  inline constexpr N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define PPLAB_SIM_VEC4(T, N, A)                                                  \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };                     \
  inline constexpr N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define PPLAB_SIM_VEC1(T, N)                                                     \
  struct N##1 { T x; };                                                          \
  inline constexpr N##1 make_##N##1(T x) { return N##1{x}; }
#define PPLAB_SIM_VECS(T, N, A2, A4)                                             \
  PPLAB_SIM_VEC1(T, N) PPLAB_SIM_VEC2(T, N, A2) PPLAB_SIM_VEC3(T, N) PPLAB_SIM_VEC4(T, N, A4)

PPLAB_SIM_VECS(signed char, char, 2, 4)
PPLAB_SIM_VECS(unsigned char, uchar, 2, 4)
PPLAB_SIM_VECS(short, short, 4, 8)
PPLAB_SIM_VECS(unsigned short, ushort, 4, 8)
PPLAB_SIM_VECS(int, int, 8, 16)
PPLAB_SIM_VECS(unsigned int, uint, 8, 16)
PPLAB_SIM_VECS(long, long, 16, 16)
PPLAB_SIM_VECS(unsigned long, ulong, 16, 16)
PPLAB_SIM_VECS(long long, longlong, 16, 16)
PPLAB_SIM_VECS(unsigned long long, ulonglong, 16, 16)
PPLAB_SIM_VECS(float, float, 8, 16)
PPLAB_SIM_VECS(double, double, 16, 16)

// CUDA 13 spells the 4-element 8-byte types with their alignment: *_16a keeps the
// old 16-byte alignment, *_32a is 32-byte aligned (the plain name is deprecated there).
#define PPLAB_SIM_VEC4A(T, N, A)                                                 \
  struct __attribute__((aligned(A))) N { T x, y, z, w; };                        \
  inline constexpr N make_##N(T x, T y, T z, T w) { return N{x, y, z, w}; }
PPLAB_SIM_VEC4A(long, long4_16a, 16)
PPLAB_SIM_VEC4A(long, long4_32a, 32)
PPLAB_SIM_VEC4A(unsigned long, ulong4_16a, 16)
PPLAB_SIM_VEC4A(unsigned long, ulong4_32a, 32)
PPLAB_SIM_VEC4A(long long, longlong4_16a, 16)
PPLAB_SIM_VEC4A(long long, longlong4_32a, 32)
PPLAB_SIM_VEC4A(unsigned long long, ulonglong4_16a, 16)
PPLAB_SIM_VEC4A(unsigned long long, ulonglong4_32a, 32)
PPLAB_SIM_VEC4A(double, double4_16a, 16)
PPLAB_SIM_VEC4A(double, double4_32a, 32)
#undef PPLAB_SIM_VEC4A
#undef PPLAB_SIM_VECS
#undef PPLAB_SIM_VEC1
#undef PPLAB_SIM_VEC2
#undef PPLAB_SIM_VEC3
#undef PPLAB_SIM_VEC4

// dim3: unspecified components are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
