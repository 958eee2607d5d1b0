// device_traffic() on the CPU emulator: its runtime counts every launch and copy; and
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
