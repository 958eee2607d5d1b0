/// \file
/// \brief Turning CUDA error codes into exceptions with a readable message.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace pplab {

/// Thrown when a CUDA runtime call fails; the message names the call, file and line.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The CUDA error code that was returned.
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

/// Throws CudaError when `code` is not cudaSuccess.
void cuda_check(cudaError_t code, const char* call, const char* file, int line);

/// Checks for errors from the most recent kernel launch and waits for it to finish,
/// so a failing kernel is reported at the call that launched it.
void cuda_check_launch(const char* what, const char* file, int line);

}  // namespace pplab

/// Wrap a CUDA runtime call: `PPLAB_CUDA_CHECK(cudaMalloc(&p, bytes));`
#define PPLAB_CUDA_CHECK(call) ::pplab::cuda_check((call), #call, __FILE__, __LINE__)
/// After a launch: `PPLAB_CHECK_LAUNCH("saxpy");` reports launch and execution errors.
#define PPLAB_CHECK_LAUNCH(what) ::pplab::cuda_check_launch((what), __FILE__, __LINE__)
