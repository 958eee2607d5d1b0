/// \file
/// \brief Did the lab's call do its work on the device? Kernel launches and copies
/// between device and host, counted by the backend across one call of a lab's entry
/// point, and the check that judges them.
///
/// A lab whose entry point copies its input to the host, computes there and writes
/// the answer back gives right answers and teaches nothing. Around each call of a
/// lab's entry point the checks count, through the backend (the emulator's runtime, or
/// CUPTI's activity records on a GPU), the kernels it launched and the bytes it copied
/// from device to host. For a non-empty input, no kernel at all, or more than
/// kMaxResultBytes copied to the host, fails the check with "the work ran on the host".
/// What this cannot see: on the emulator device memory is host memory, so host code
/// that reads a device pointer directly is not counted (on a GPU it faults).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pplab/check.h"

namespace pplab {

/// A line of the lab's code that copied from device to host memory, and how much in all.
struct HostCopySite {
  std::string function;          ///< the runtime call, e.g. "cudaMemcpy"
  std::string file;              ///< the source file, as its build named it (an absolute path)
  std::uint32_t line = 0;        ///< the line of the call
  std::uint64_t to_host_bytes = 0;
};

/// Totals since the process started (or since counting began on a GPU).
struct DeviceTraffic {
  std::uint64_t launches = 0;         ///< kernels launched
  std::uint64_t to_host_bytes = 0;    ///< copied from device memory to host memory
  std::uint64_t to_device_bytes = 0;  ///< copied from host memory to device memory
  bool counted = true;                ///< false when the backend cannot count (see reason)
  std::string reason;                 ///< why counting is not available
  /// Where the copies to the host were made, per line: the emulator knows each copy call
  /// of the lab's code; on a GPU, empty.
  std::vector<HostCopySite> to_host_sites;
};

/// A lab's entry point may bring this much back to the host (a count, an index, a
/// flag) without computing on the host.
inline constexpr std::uint64_t kMaxResultBytes = 16;

/// The current totals. On a GPU every device-side operation issued so far is complete
/// and counted (the call synchronises the device).
DeviceTraffic device_traffic();

/// Lines the emulator prints under a fault report while a lab's call runs (the call and
/// the reproduce command; empty: none). On a GPU a fault surfaces as a CUDA error
/// instead, reported by the check that caught it.
void set_fault_context(const std::string& lines);

/// The emulator's warnings of an uninitialised shared read printed since the last call
/// (each warning's lines; empty: none), so a check fails on one even when the answer came
/// out right. Only a check binary, whose lab runs in a runner it relays, has them; on a GPU
/// or in process: always empty.
std::string take_uninitialised_reads();

/// How the report of a check failed on such a read begins (after "check failed: "):
/// pplab gives that check its own verdict.
inline constexpr const char* kUninitialisedRead = "uninitialised shared read";

/// Judges one call of `entry` (e.g. "reduce") on an input of `n` elements from the
/// totals before and after it. It fails when the call copied more than kMaxResultBytes
/// to the host, or, for n >= 2, launched no kernel (one element may need only a copy).
/// Where the traffic names the line that copied the most to the host during the call,
/// the report names it, and the TODO step of its file that holds it
/// ("... with cudaMemcpy at saxpy.cu:60, in TODO(01.3) (stretch)"); a call that launched
/// no kernel names the copies it made to the host, however small.
CheckResult check_ran_on_device(const std::string& entry, std::size_t n, const DeviceTraffic& before,
                                const DeviceTraffic& after);

}  // namespace pplab
