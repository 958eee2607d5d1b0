/// \file
/// \brief DeviceBuffer: an owned device array that frees itself, on either backend.
#pragma once
#include "pplab/cuda_check.h"
#include "pplab/poison.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pplab {

/// An array of `size()` elements of T in device memory (cudaMalloc), freed on
/// destruction. Move-only. A buffer of zero elements holds a null pointer.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `count` elements; the contents are undefined until written.
  explicit DeviceBuffer(std::size_t count) : size_(count) {
    if (count > 0) PPLAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  /// Allocates and uploads a copy of `host`.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);  // no throwing from a destructor; errors surface elsewhere
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

  /// Copies `host` (which must have size() elements) to the device.
  void upload(const std::vector<T>& host) {
    if (host.size() != size_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    if (size_ > 0) PPLAB_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  /// Copies the device contents back to a new host vector.
  std::vector<T> download() const {
    std::vector<T> host(size_);
    if (size_ > 0) PPLAB_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Fills every element with poison_value<T>(), so unwritten outputs can be spotted.
  void poison() { upload(std::vector<T>(size_, poison_value<T>())); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Whether `p` is 16-byte aligned: where the labs' vectorised paths (float4, int4 loads)
/// may run. cudaMalloc returns such addresses on a GPU; the emulator's do not always
/// start on one (each allocation ends at a guard page).
inline bool is_aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// A device copy of an input that starts where the checks choose: 16-byte aligned, or
/// sizeof(T) bytes past such an address. Checks run a lab once on the allocator's own
/// address and once on a PlacedCopy of the other kind, so a lab that picks a kernel by
/// alignment has both kernels checked on every backend. The copy lies inside a buffer a
/// few elements longer, whose slack is poisoned.
template <class T>
class PlacedCopy {
 public:
  static_assert(sizeof(T) < 16 && 16 % sizeof(T) == 0, "PlacedCopy places elements of 1, 2, 4 or 8 bytes");
  PlacedCopy(const std::vector<T>& host, bool aligned) : storage_(host.size() + kSlots) {
    // The latest start of the wanted kind, so the least slack follows the data.
    start_ = kSlots;
    for (std::size_t k = kSlots; k-- > 0;)
      if (is_aligned16(storage_.data() + k) == aligned) {
        start_ = k;
        break;
      }
    std::vector<T> filled(host.size() + kSlots, poison_value<T>());
    std::copy(host.begin(), host.end(), filled.begin() + std::ptrdiff_t(start_));
    storage_.upload(filled);
  }
  T* data() { return storage_.data() + start_; }
  std::size_t size() const { return storage_.size() - kSlots; }
  /// The copy's elements as they are now on the device.
  std::vector<T> download() const {
    const std::vector<T> all = storage_.download();
    return std::vector<T>(all.begin() + std::ptrdiff_t(start_), all.begin() + std::ptrdiff_t(start_ + size()));
  }
  /// "16-byte aligned" or "not 16-byte aligned", for check messages.
  std::string placement() const { return is_aligned16(storage_.data() + start_) ? "16-byte aligned" : "not 16-byte aligned"; }

 private:
  static constexpr std::size_t kSlots = 16 / sizeof(T);
  DeviceBuffer<T> storage_;
  std::size_t start_ = 0;
};

}  // namespace pplab
