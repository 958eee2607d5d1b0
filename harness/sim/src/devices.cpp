// The device the emulator presents itself as (pplab/sim/devices.h): which profile a
// run takes, and the architecture checks that follow from it.
#include <cctype>
#include <cstdlib>
#include <string>

#include "internal.h"

namespace pplab::sim {
namespace {
#define PPLAB_SIM_PROFILE_ROW(key, name, optin, per_sm, reserved, threads, blocks, l2, bus, memory_khz, clock_khz, \
                              memory)                                                                              \
  DeviceProfile{#key, name, PPLAB_SIM_ARCH_OF_##key, optin, per_sm, reserved, threads, blocks, l2, bus, memory_khz, \
                clock_khz, memory},
constexpr DeviceProfile kProfiles[] = {PPLAB_SIM_DEVICES(PPLAB_SIM_PROFILE_ROW)};
#undef PPLAB_SIM_PROFILE_ROW

// The arena holds the largest dynamic shared memory any profile allows.
static_assert([] {
  for (const DeviceProfile& p : kProfiles)
    if (p.shared_optin > detail::kMaxDynSmem) return false;
  return true;
}());

// The notes of every translation unit linked in (pplab/sim/devices.h); weak, so a
// program without any links too, the bounds then null.
extern "C" {
extern const char* const __start_pplab_sim_device_notes[] __attribute__((weak));
extern const char* const __stop_pplab_sim_device_notes[] __attribute__((weak));
extern const ArchNote __start_pplab_sim_arch_notes[] __attribute__((weak));
extern const ArchNote __stop_pplab_sim_arch_notes[] __attribute__((weak));
}

const char* build_device() {
  if (__start_pplab_sim_device_notes == __stop_pplab_sim_device_notes) return nullptr;
  return __start_pplab_sim_device_notes[0];
}

// The note with the highest architecture, or none.
const ArchNote* highest_arch_note() {
  const ArchNote* highest = nullptr;
  for (const ArchNote* note = __start_pplab_sim_arch_notes; note != __stop_pplab_sim_arch_notes; ++note)
    if (!highest || note->arch > highest->arch) highest = note;
  return highest;
}

std::string known_keys() {
  std::string keys;
  for (const DeviceProfile& p : kProfiles) keys += std::string(keys.empty() ? "" : ", ") + p.key;
  return keys;
}

const DeviceProfile& find_profile(const std::string& key, const char* where) {
  std::string lower;
  for (char c : key) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const DeviceProfile& p : kProfiles)
    if (lower == p.key) return p;
  detail::fatal(std::string(where) + " '" + key + "' is not a device the emulator knows; it knows " + known_keys() +
                " (harness/sim/README.md, device profiles)");
}

#define PPLAB_SIM_STR_(x) #x
#define PPLAB_SIM_STR(x) PPLAB_SIM_STR_(x)
const DeviceProfile& select_profile() {
  if (const auto chosen = settings::text(settings::kDevice)) return find_profile(*chosen, settings::kDevice);
  if (const char* key = build_device()) return find_profile(key, "the device this program was built for,");
  return find_profile(PPLAB_SIM_STR(PPLAB_SIM_DEFAULT_DEVICE), "the default device");
}

std::string sm(int arch) { return "sm_" + std::to_string(arch / 10); }
}  // namespace

const DeviceProfile& device_profile() {
  static const DeviceProfile& selected = select_profile();
  return selected;
}

namespace detail {
bool kernel_image_ok() {
  const DeviceProfile& device = device_profile();
  static const ArchNote* const highest = highest_arch_note();
  if (!highest || highest->arch <= device.arch) return true;
  static const bool reported = [&] {
    warn(std::string(highest->file) + " was compiled for " + sm(highest->arch) + " (its device code tests __CUDA_ARCH__), " +
         "and the " + device.name + " (PPLAB_SIM_DEVICE=" + device.key + ") is " + sm(device.arch) +
         ": no kernel image for this device, so every launch fails with cudaErrorNoKernelImageForDevice, as on " +
         "the GPU.\nBuild for this device: PPLAB_SIM_DEVICE=" + device.key +
         " when compiling (simcc, or cmake -DPPLAB_SIM_DEVICE=" + device.key + ").");
    return true;
  }();
  (void)reported;
  return false;
}

void require_arch(int arch, const char* what, const char* file, int line) {
  const DeviceProfile& device = device_profile();
  if (device.arch >= arch) return;
  const std::string where = tls_worker ? " in " + describe_kernel(*tls_worker) : std::string();
  fatal(std::string(what) + " at " + fmt_site(Site{file, line}) + where + " needs compute capability " +
        std::to_string(arch / 100) + "." + std::to_string(arch % 100 / 10) + " (" + sm(arch) + "), and the " +
        device.name + " (PPLAB_SIM_DEVICE=" + device.key + ") is " + sm(device.arch) +
        ": nvcc refuses this code for that GPU. Keep a path for older GPUs under #if __CUDA_ARCH__ >= " +
        std::to_string(arch) + ".");
}
}  // namespace detail
}  // namespace pplab::sim
