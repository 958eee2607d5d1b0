// An error-name switch like the one in cuda-samples' helper_cuda.h: it names errors of
// every range of CUDA 13's cudaError_t, and each has CUDA's name and text.
#include <cstdio>

static const char* spelled(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorStubLibrary: return "cudaErrorStubLibrary";
    case cudaErrorDeviceNotLicensed: return "cudaErrorDeviceNotLicensed";
    case cudaErrorUnsupportedPtxVersion: return "cudaErrorUnsupportedPtxVersion";
    case cudaErrorJitCompilationDisabled: return "cudaErrorJitCompilationDisabled";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorGraphExecUpdateFailure: return "cudaErrorGraphExecUpdateFailure";
    case cudaErrorApiFailureBase: return "cudaErrorApiFailureBase";
    default: return "other";
  }
}

int main() {
  for (cudaError_t e : {cudaErrorStubLibrary, cudaErrorUnsupportedPtxVersion, cudaErrorGraphExecUpdateFailure,
                        cudaErrorApiFailureBase})
    std::printf("%d %s %s: %s\n", static_cast<int>(e), spelled(e), cudaGetErrorName(e), cudaGetErrorString(e));
  return 0;
}
