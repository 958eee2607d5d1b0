/// \file
/// \brief Poison values: what an output element holds before a kernel writes it.
///
/// Outputs are filled with a poison value before every checked run, so an element
/// the kernel never wrote is reported as "never written" rather than as a wrong number.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pplab {

/// The poison value of type T: a NaN with a recognisable payload for floating point,
/// the byte pattern 0xCD repeated for integers.
template <class T>
T poison_value() {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(std::uint32_t{0x7FBADBADu});
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(std::uint64_t{0x7FF7BADBADBADBADull});
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
