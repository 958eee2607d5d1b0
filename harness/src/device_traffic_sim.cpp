// device_traffic() on the CPU emulator: its runtime counts every launch and copy (and
// the bytes copied to the host per line of the lab's code that asked for them); and
// the lines it prints under a fault report.
#include "pplab/device_work.h"
#include "pplab/todo_regions.h"

#include <cuda_runtime.h>

namespace pplab {

DeviceTraffic device_traffic() {
  const sim::Traffic totals = sim::traffic();
  DeviceTraffic traffic;
  traffic.launches = totals.launches;
  traffic.to_host_bytes = totals.to_host_bytes;
  traffic.to_device_bytes = totals.to_device_bytes;
  for (const sim::CopySite& site : sim::to_host_sites())
    traffic.to_host_sites.push_back(
        {site.function, site.file, static_cast<std::uint32_t>(site.line), site.to_host_bytes});
  return traffic;
}

// The note's step: line then names the one TODO that holds the report's line.
void set_fault_context(const std::string& lines) {
  sim::set_fault_note_writer(&detail::name_fault_step);
  sim::set_fault_note(lines.c_str());
}

// In process the emulator's warnings go straight to stderr: nothing relays them.
std::string take_uninitialised_reads() { return {}; }

}  // namespace pplab
