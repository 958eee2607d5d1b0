/// \file
/// \brief Poison values: what an output element holds before a kernel writes it.
///
/// Outputs are filled with a poison value before every checked run, so an element
/// the kernel never wrote is reported as "never written" rather than as a wrong number.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pplab {

/// The poison value of type T: a NaN with a recognisable payload for floating point,
/// the byte pattern 0xCD repeated for integers.
template <class T>
T poison_value() {
  // (memcpy rather than std::bit_cast: benchmarks include this from C++17 CUDA files)
  if constexpr (std::is_same_v<T, float>) {
    const std::uint32_t bits = 0x7FBADBADu;
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  } else if constexpr (std::is_same_v<T, double>) {
    const std::uint64_t bits = 0x7FF7BADBADBADBADull;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  } else {
    static_assert(std::is_integral_v<T>, "poison_value: add a pattern for this type");
    T value;
    std::memset(&value, 0xCD, sizeof value);
    return value;
  }
}

/// True when `value` is bit-for-bit the poison value of its type.
template <class T>
bool is_poison(const T& value) {
  T poison = poison_value<T>();
  return std::memcmp(&value, &poison, sizeof(T)) == 0;
}

}  // namespace pplab
