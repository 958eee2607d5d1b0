/// \file
/// \brief DeviceBuffer: an owned device array that frees itself, on either backend.
#pragma once
#include "pplab/cuda_check.h"
#include "pplab/poison.h"

#include <cstddef>
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

}  // namespace pplab
