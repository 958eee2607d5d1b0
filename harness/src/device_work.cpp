#include "pplab/device_work.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "pplab/todo_regions.h"

namespace pplab {
namespace {

// A name as the runner sent it, fit for one line of a report: the lab's code chose it
// (#line can name anything), so control characters become '?'.
std::string printable(const std::string& text) {
  std::string out = text.substr(0, 200);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

std::string file_name(const std::string& path) { return printable(path.substr(path.find_last_of('/') + 1)); }

// ", in TODO(01.3) (stretch)" for the TODO region of the file at `path` that holds `line`,
// ", outside every TODO step" for a line in given code; empty when the file has no regions
// or is not a source file here (a build on another machine; a device or a pipe).
std::string step_of(const std::string& path, std::uint32_t line) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) || std::filesystem::file_size(path, error) > (1u << 20) || error)
    return {};
  const std::string regions = detail::todo_regions(path);  // "01.1 lines 12-19, 01.2 (stretch) lines 23-46"
  if (regions.empty()) return {};
  std::istringstream entries(regions);
  for (std::string entry; std::getline(entries, entry, ',');) {
    if (!entry.empty() && entry.front() == ' ') entry.erase(0, 1);
    const std::size_t lines = entry.find(" lines ");
    const std::size_t dash = entry.find('-', lines == std::string::npos ? 0 : lines);
    if (lines == std::string::npos || dash == std::string::npos) continue;
    const unsigned long first = std::stoul(entry.substr(lines + 7, dash - lines - 7));
    const unsigned long last = std::stoul(entry.substr(dash + 1));
    if (first <= line && line <= last)
      return ", in TODO(" + entry.substr(0, entry.find(' ')) + ")" +
             (entry.find("(stretch)") != std::string::npos ? " (stretch)" : "");
  }
  return ", outside every TODO step";
}

// Where the call's copies to the host were made: ", with cudaMemcpy at saxpy.cu:58, in
// TODO(01.3)" for the line that copied the most during it (", 4096 of them with ..." when
// other copies add to `to_host`); empty when no line is known.
std::string copy_site(const DeviceTraffic& before, const DeviceTraffic& after, std::uint64_t to_host) {
  const auto key = [](const HostCopySite& site) {
    return site.function + '\n' + site.file + '\n' + std::to_string(site.line);
  };
  std::map<std::string, std::uint64_t> earlier_bytes;
  for (const HostCopySite& site : before.to_host_sites) earlier_bytes[key(site)] = site.to_host_bytes;
  const HostCopySite* most = nullptr;
  std::uint64_t most_bytes = 0;
  for (const HostCopySite& site : after.to_host_sites) {
    const auto earlier_it = earlier_bytes.find(key(site));
    const std::uint64_t earlier = earlier_it == earlier_bytes.end() ? 0 : earlier_it->second;
    if (site.to_host_bytes > earlier && site.to_host_bytes - earlier > most_bytes) {
      most = &site;
      most_bytes = site.to_host_bytes - earlier;
    }
  }
  if (!most) return {};
  std::ostringstream where;
  where << ", " << (most_bytes < to_host ? std::to_string(most_bytes) + " of them " : std::string()) << "with "
        << printable(most->function) << " at " << file_name(most->file) << ":" << most->line
        << step_of(most->file, most->line);
  return where.str();
}

}  // namespace

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
  if (launches == 0 && n >= 2) {  // one element may need only a copy or a memset
    why << entry << " launched no kernel for n = " << n << " elements";
    if (to_host > 0)  // with no kernel, where the input went
      why << "; it copied " << to_host << " bytes from the device to the host" << copy_site(before, after, to_host);
  } else if (to_host > kMaxResultBytes) {
    why << entry << " copied " << to_host << " bytes from the device to the host (and " << to_device
        << " back) for n = " << n << " elements" << copy_site(before, after, to_host)
        << "; only a small result (at most " << kMaxResultBytes << " bytes, e.g. a count) may come back";
  }
  if (why.str().empty()) return result;
  result.passed = false;
  result.report = "check failed: the work ran on the host: " + why.str() +
                  "\n  every lab computes on the device: launch kernels that read the input where it is "
                  "(device memory) and write the output there\n";
  return result;
}

}  // namespace pplab
