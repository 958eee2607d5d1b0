// device_traffic() on a GPU: CUPTI's activity records of every kernel and every copy the
// process runs, whatever API issued them (the runtime, the driver, CUB). Records arrive
// in buffers; each reading synchronises the device and flushes them, so the totals
// cover everything issued so far.
#include "pplab/device_work.h"

#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#if PPLAB_HAVE_CUPTI
#include <cupti.h>
#endif

namespace pplab {
namespace {

std::atomic<std::uint64_t> g_launches{0}, g_to_host_bytes{0}, g_to_device_bytes{0};

#if PPLAB_HAVE_CUPTI
constexpr std::size_t kBufferBytes = std::size_t(1) << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      ++g_launches;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH) g_to_host_bytes += copy->bytes;
      if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD) g_to_device_bytes += copy->bytes;
    }
  }
  std::free(buffer);
}

std::string cupti_problem(const char* call, CUptiResult status) {
  const char* text = nullptr;
  cuptiGetResultString(status, &text);
  return std::string(call) + " failed: " + (text ? text : "unknown CUPTI error") +
         " (another profiler or compute-sanitizer may hold CUPTI)";
}

// Empty when counting works, else why not.
std::string start_counting() {
  CUptiResult status = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (status != CUPTI_SUCCESS) return cupti_problem("cuptiActivityRegisterCallbacks", status);
  status = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (status != CUPTI_SUCCESS) return cupti_problem("cuptiActivityEnable(CONCURRENT_KERNEL)", status);
  status = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  if (status != CUPTI_SUCCESS) return cupti_problem("cuptiActivityEnable(MEMCPY)", status);
  return {};
}
#else
std::string start_counting() { return "this build has no CUPTI (the CUDA toolkit's libcupti was not found)"; }
#endif

}  // namespace

DeviceTraffic device_traffic() {
  static const std::string problem = start_counting();
  DeviceTraffic traffic;
  if (!problem.empty()) {
    static std::once_flag said;
    std::call_once(said, [] { std::fprintf(stderr, "pplab: device work is not counted: %s\n", problem.c_str()); });
    traffic.counted = false;
    traffic.reason = problem;
    return traffic;
  }
  cudaDeviceSynchronize();
#if PPLAB_HAVE_CUPTI
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
#endif
  traffic.launches = g_launches.load();
  traffic.to_host_bytes = g_to_host_bytes.load();
  traffic.to_device_bytes = g_to_device_bytes.load();
  return traffic;
}

void set_fault_context(const std::string&) {}  // a GPU fault is a CUDA error the checks report

std::string take_uninitialised_reads() { return {}; }  // the emulator's warning; no GPU has one

}  // namespace pplab
