// The PPLAB_SIM_ settings a run reads, each refusing a value it does not accept, and
// the device profiles PPLAB_SIM_DEVICE chooses at build and at run time: each GPU's
// name, shared-memory limits and __CUDA_ARCH__, code built for a newer GPU than the one
// it runs on, and what a GPU below sm_80 lacks.
#include <doctest/doctest.h>

#include <string>

#include "test_support.h"

using namespace simtest::support;

namespace {
// A simcc program built for a device (PPLAB_SIM_DEVICE when compiling) and run with `env`.
RunResult simcc_run_for(const std::string& device, const std::string& name, const std::string& args = "",
                        const std::string& env = "") {
  const std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/" + name + ".cu";
  const std::string exe = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/nvcc_like_" + name + "_" + device;
  RunResult built = run("PPLAB_SIM_DEVICE=" + device + " " + PPLAB_SIM_SIMCC + " " + src + " -o " + exe);
  if (built.status != 0) return built;
  return run("env -u PPLAB_SIM_DEVICE " + env + exe + " " + args);
}

struct ProfileFacts {
  const char *key, *name;
  int arch, optin;
};
// From NVIDIA's tables: the most dynamic shared memory a block may opt into, by GPU.
const ProfileFacts kProfileFacts[] = {
    {"v100", "Tesla V100-SXM2-16GB", 700, 98304}, {"t4", "Tesla T4", 750, 65536},
    {"a100", "NVIDIA A100-SXM4-40GB", 800, 166912}, {"a10", "NVIDIA A10", 860, 101376},
    {"l4", "NVIDIA L4", 890, 101376},   {"h100", "NVIDIA H100 80GB HBM3", 900, 232448},
    {"h200", "NVIDIA H200", 900, 232448}};
}  // namespace

TEST_CASE("every PPLAB_SIM_ setting refuses a value it does not accept, naming it, instead of changing it quietly") {
  // Each used to be read its own way: a bad timeout became 60 s, a bad thread count 1,
  // a small stack 16 KiB, with nothing said (settings.h).
  const struct {
    const char* setting;
    const char* says;
  } bad[] = {
      {"PPLAB_SIM_TIMEOUT=soon", "PPLAB_SIM_TIMEOUT='soon' is not a number of seconds greater than 0"},
      {"PPLAB_SIM_TIMEOUT=0", "PPLAB_SIM_TIMEOUT='0' is not a number of seconds greater than 0"},
      {"PPLAB_SIM_THREADS=0", "PPLAB_SIM_THREADS='0' is not a whole number from 1 to 256"},
      {"PPLAB_SIM_THREADS=4x", "PPLAB_SIM_THREADS='4x' is not a whole number from 1 to 256"},
      {"PPLAB_SIM_STACK_KIB=8", "PPLAB_SIM_STACK_KIB='8' is not a whole number from 16 to 1048576"},
      {"PPLAB_SIM_SCHEDULE=backwards",
       "PPLAB_SIM_SCHEDULE='backwards' is not one of forward, reverse, random, random:<seed>"},
      {"PPLAB_SIM_DEVICE=k80", "PPLAB_SIM_DEVICE 'k80' is not a device the emulator knows"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.setting);
    const auto r = run(std::string(b.setting) + " " + program("pplab_sim_prog_shared_checks") + " clean");
    CHECK(r.status == 1);
    CHECK(contains(r.output, std::string("pplab-sim: error: ") + b.says));
  }
  // And a good value of each is taken.
  expect_run(run("PPLAB_SIM_TIMEOUT=2.5 PPLAB_SIM_THREADS=3 PPLAB_SIM_STACK_KIB=256 PPLAB_SIM_SCHEDULE=random:4 " +
                 program("pplab_sim_prog_shared_checks") + " clean"),
             Exit::cleanly, {"clean finished"});
}

TEST_CASE("each device profile reports its GPU, lets a block opt into its shared memory and no more, and sets __CUDA_ARCH__") {
  for (const ProfileFacts& gpu : kProfileFacts) {
    INFO(gpu.key);
    const std::string optin = std::to_string(gpu.optin), above = std::to_string(gpu.optin + 1);
    const std::string cc = std::to_string(gpu.arch / 100) + "." + std::to_string(gpu.arch % 100 / 10);
    expect_run(simcc_run_for(gpu.key, "device_profile"), Exit::cleanly,
               {std::string("device: ") + gpu.name + " (pplab CPU emulator", "; " + cc + " (attribute",
                "opt-in " + optin + ", per SM",
                "opt-in " + optin + " bytes: cudaSuccess, launch cudaSuccess, __CUDA_ARCH__ " + std::to_string(gpu.arch),
                "opt-in " + above + " bytes: cudaErrorInvalidValue, launch cudaErrorInvalidValue; 1025 threads: "
                "cudaErrorInvalidValue",
                "warp sum 32"});
  }
}

TEST_CASE("PPLAB_SIM_DEVICE at run time picks the device; code built for a newer one gets no kernel image") {
  // Built for the T4, run as an H200: the older architecture's code runs (as its PTX would).
  expect_run(simcc_run_for("t4", "device_profile", "", "PPLAB_SIM_DEVICE=h200 "), Exit::cleanly,
             {"device: NVIDIA H200", "launch cudaSuccess, __CUDA_ARCH__ 750"});
  // Built for the H200, run as a T4: its device code tests __CUDA_ARCH__, so it cannot run.
  expect_run(simcc_run_for("h200", "device_profile", "", "PPLAB_SIM_DEVICE=T4 "), Exit::cleanly,
             {"device: Tesla T4", "launch cudaErrorNoKernelImageForDevice",
              "device_profile.cu was compiled for sm_90 (its device code tests __CUDA_ARCH__), and the Tesla T4 "
              "(PPLAB_SIM_DEVICE=t4) is sm_75"});
  const RunResult unknown = simcc_run_for("h200", "device_profile", "", "PPLAB_SIM_DEVICE=rtx9000 ");
  CHECK(unknown.status != 0);
  CHECK(contains(unknown.output, "PPLAB_SIM_DEVICE 'rtx9000' is not a device the emulator knows; it knows v100, t4"));
}

TEST_CASE("static shared memory above 48 KiB, and static plus dynamic above the device's limit, are reported") {
  expect_run(simcc_run_for("h200", "device_profile", "static"), Exit::with_error,
             {"too much static shared memory: __shared__ big (declared at", "device_profile.cu:26",
              "49156 bytes, above the 48 KiB (49152 bytes) a kernel may declare"});
  expect_run(simcc_run_for("t4", "device_profile", "static_and_dynamic"), Exit::with_error,
             {"too much shared memory for the Tesla T4 (PPLAB_SIM_DEVICE=t4): __shared__ fixed", "device_profile.cu:33",
              "40960 static and 49152 dynamic bytes, above the 65536"});
  expect_run(simcc_run_for("h200", "device_profile", "static_and_dynamic"), Exit::cleanly, {});
}

TEST_CASE("__reduce_*_sync does not compile for a GPU below sm_80, and is reported with its line when run on one") {
  const RunResult built_for_t4 = simcc_run_for("t4", "warp_reduce");
  CHECK(built_for_t4.status != 0);
  CHECK(contains(built_for_t4.output, "warp_reduce.cu:12:19:   required from here"));
  CHECK(contains(built_for_t4.output, "__reduce_*_sync needs compute capability 8.0 (sm_80)"));
  expect_run(simcc_run_for("a100", "warp_reduce", "", "PPLAB_SIM_DEVICE=t4 "), Exit::with_error,
             {"pplab-sim: error: __reduce_*_sync at", "warp_reduce.cu:12 in kernel 'reduce'",
              "needs compute capability 8.0 (sm_80), and the Tesla T4 (PPLAB_SIM_DEVICE=t4) is sm_75"});
}
