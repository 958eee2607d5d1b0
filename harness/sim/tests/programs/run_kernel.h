// The main() of the emulator's test programs: a scratch array of ints for the kernel to
// write, one launch, and the synchronising call where the emulator reports what went
// wrong. The kernels stay in the program files, above main(), because the tests quote
// their file:line.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace pplab::sim_programs {

/// A launch of one of a program's kernels on the scratch array.
using Launch = void (*)(int* scratch);

/// A kernel a program with many can run, by the name its first argument gives.
struct Case {
  const char* name;
  Launch launch;
};

/// `ints` zeroed ints of device memory.
inline int* scratch(int ints) {
  int* d = nullptr;
  cudaMalloc(&d, ints * sizeof(int));
  cudaMemset(d, 0, ints * sizeof(int));
  return d;
}

/// Runs `launch` on `ints` ints and waits for it; 0 unless the emulator ends the process.
inline int run_kernel(int ints, Launch launch) {
  launch(scratch(ints));
  cudaDeviceSynchronize();
  return 0;
}

/// Runs the case argv[1] names on 1024 ints and prints "<name> finished: <first int>";
/// 2 when no case has that name.
inline int run_named_kernel(int argc, char** argv, std::initializer_list<Case> cases) {
  const char* which = argc > 1 ? argv[1] : "";
  for (const Case& c : cases) {
    if (std::strcmp(which, c.name) != 0) continue;
    int* d = scratch(1024);
    c.launch(d);
    int first = 0;
    cudaMemcpy(&first, d, sizeof first, cudaMemcpyDeviceToHost);
    std::printf("%s finished: %d\n", which, first);
    return 0;
  }
  return 2;
}

}  // namespace pplab::sim_programs

/// The main() of a program with many cases, written after its kernels: the cases by name,
/// run as run_named_kernel() runs them, e.g.
///   PPLAB_SIM_NAMED_KERNELS({"race", [](int* d) { race<<<1, 64>>>(d); }},
///                           {"clean", [](int* d) { clean<<<3, 256>>>(d); }})
#define PPLAB_SIM_NAMED_KERNELS(...)                                                  \
  int main(int argc, char** argv) {                                                   \
    return ::pplab::sim_programs::run_named_kernel(argc, argv, {__VA_ARGS__});        \
  }
