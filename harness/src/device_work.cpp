#include "pplab/device_work.h"

#include <sstream>

namespace pplab {

CheckResult check_ran_on_device(const std::string& entry, std::size_t n, const DeviceTraffic& before,
                                const DeviceTraffic& after) {
  CheckResult result;
  if (n == 0) return result;
  if (!before.counted || !after.counted) {
    // Said in the output of every check, so a report shows the check did not run.
    result.report = "note: whether " + entry + " ran on the device was not checked: " + after.reason;
    return result;
  }
  const std::uint64_t launches = after.launches - before.launches;
  const std::uint64_t to_host = after.to_host_bytes - before.to_host_bytes;
  const std::uint64_t to_device = after.to_device_bytes - before.to_device_bytes;
  std::ostringstream why;
  if (launches == 0 && n >= 2)  // one element may need only a copy or a memset
    why << entry << " launched no kernel for n = " << n << " elements";
  else if (to_host > kMaxResultBytes)
    why << entry << " copied " << to_host << " bytes from the device to the host (and " << to_device
        << " back) for n = " << n << " elements; only a small result (at most " << kMaxResultBytes
        << " bytes, e.g. a count) may come back";
  if (why.str().empty()) return result;
  result.passed = false;
  result.report = "check failed: the work ran on the host: " + why.str() +
                  "\n  every lab computes on the device: launch kernels that read the input where it is "
                  "(device memory) and write the output there\n";
  return result;
}

}  // namespace pplab
