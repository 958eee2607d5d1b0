#include "pplab/cuda_check.h"

#include <sstream>

namespace pplab {

void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  std::ostringstream message;
  message << "CUDA error " << cudaGetErrorName(code) << " (" << cudaGetErrorString(code) << ")\n  in "
          << call << "\n  at " << file << ":" << line;
  throw CudaError(code, message.str());
}

void cuda_check_launch(const char* what, const char* file, int line) {
  // A bad launch configuration shows up in cudaGetLastError; a fault inside the kernel
  // shows up when we wait for it.
  cuda_check(cudaGetLastError(), what, file, line);
  cuda_check(cudaDeviceSynchronize(), what, file, line);
}

}  // namespace pplab
