// The GPUs the emulator can present itself as: PPLAB_SIM_DEVICE=<key> (README.md,
// "Device profiles"). Each row holds the figures NVIDIA publishes for that GPU (the
// CUDA C++ Programming Guide's table of compute capabilities and the cards' data
// sheets); the runtime reports them (cudaGetDeviceProperties, cudaDeviceGetAttribute)
// and enforces the limits among them where that GPU would refuse a kernel.
//
// The one thing a profile does not set is the multiprocessor count: the emulator's
// multiprocessors are its worker threads, so a grid sized from the count fits the
// machine that runs it.
#pragma once

// __CUDA_ARCH__ of each device (major * 100 + minor * 10), by its key. The preprocessor
// needs these as macros: code compiled for a device tests them in #if (qualifiers.h).
#define PPLAB_SIM_ARCH_OF_v100 700
#define PPLAB_SIM_ARCH_OF_t4 750
#define PPLAB_SIM_ARCH_OF_a100 800
#define PPLAB_SIM_ARCH_OF_a10 860
#define PPLAB_SIM_ARCH_OF_l4 890
#define PPLAB_SIM_ARCH_OF_h100 900
#define PPLAB_SIM_ARCH_OF_h200 900

// X(key, name, shared per block opt-in, shared per multiprocessor, reserved per block,
//   threads per multiprocessor, blocks per multiprocessor, L2 bytes, memory bus bits,
//   memory clock kHz, clock kHz, memory bytes)
// Every device has 48 KiB of shared memory per block without opting in, 64 Ki registers
// per block and per multiprocessor, and 1024 threads per block.
#define PPLAB_SIM_DEVICES(X)                                                                                   \
  X(v100, "Tesla V100-SXM2-16GB", 98304, 98304, 0, 2048, 32, 6291456, 4096, 877000, 1530000, 17179869184ull) \
  X(t4, "Tesla T4", 65536, 65536, 0, 1024, 16, 4194304, 256, 5001000, 1590000, 16106127360ull)               \
  X(a100, "NVIDIA A100-SXM4-40GB", 166912, 167936, 1024, 2048, 32, 41943040, 5120, 1215000, 1410000,          \
    42949672960ull)                                                                                            \
  X(a10, "NVIDIA A10", 101376, 102400, 1024, 1536, 16, 6291456, 384, 6251000, 1695000, 25769803776ull)        \
  X(l4, "NVIDIA L4", 101376, 102400, 1024, 1536, 24, 50331648, 192, 6251000, 2040000, 25769803776ull)         \
  X(h100, "NVIDIA H100 80GB HBM3", 232448, 233472, 1024, 2048, 32, 52428800, 5120, 2619000, 1980000,          \
    85899345920ull)                                                                                            \
  X(h200, "NVIDIA H200", 232448, 233472, 1024, 2048, 32, 52428800, 6144, 3201000, 1980000, 151397597184ull)

// The device when PPLAB_SIM_DEVICE is not set, at build time or at run time.
#define PPLAB_SIM_DEFAULT_DEVICE h200

namespace pplab::sim {
/// The device the emulator presents itself as.
struct DeviceProfile {
  const char* key;   ///< as PPLAB_SIM_DEVICE names it: "t4"
  const char* name;  ///< as cudaDeviceProp::name gives it: "Tesla T4"
  int arch;          ///< __CUDA_ARCH__: 750
  unsigned long shared_optin, shared_per_sm, shared_reserved;
  int threads_per_sm, blocks_per_sm;
  int l2_bytes, bus_bits, memory_khz, clock_khz;
  unsigned long long memory_bytes;
};
/// The selected device: PPLAB_SIM_DEVICE at run time, else the one the program was
/// built for, else PPLAB_SIM_DEFAULT_DEVICE. A name the table lacks ends the program
/// with an error that lists the names.
const DeviceProfile& device_profile();
/// What a translation unit tells the runtime, as constants in named sections that the
/// runtime reads through the linker's start and stop symbols of each section, so that no code runs before
/// main (the grader refuses a lab object with a constructor of its own, and these notes are
/// in every student's object). A unit compiled for a device other than the default
/// (PPLAB_SIM_DEVICE at build time) puts its key in section pplab_sim_device_notes: the
/// device a run takes when the variable is unset. The rewriter puts an ArchNote in section
/// pplab_sim_arch_notes for each .cu whose device code tests __CUDA_ARCH__: that code was
/// compiled for `arch`, and a device with a lower compute capability cannot run it
/// (cudaErrorNoKernelImageForDevice, as on a GPU).
struct ArchNote {
  const char* file;
  int arch;
};
namespace detail {
/// Ends the program with a report naming the file and line when the selected device's compute
/// capability is below `arch`: `what` (an intrinsic) does not exist there.
void require_arch(int arch, const char* what, const char* file, int line);
}  // namespace detail
}  // namespace pplab::sim

// A translation unit built for a device other than the default makes it the default of
// the program it is linked into.
#ifdef PPLAB_SIM_DEVICE_BUILD
#define PPLAB_SIM_KEY_STR_(x) #x
#define PPLAB_SIM_KEY_STR(x) PPLAB_SIM_KEY_STR_(x)
namespace {
[[gnu::used, gnu::section("pplab_sim_device_notes")]] const char* const pplab_sim_build_device_note_ =
    PPLAB_SIM_KEY_STR(PPLAB_SIM_DEVICE_BUILD);
}
#endif
