// Faults and what follows them, each from a program run as a subprocess: an
// out-of-bounds access in a kernel (the report, the sticky error, cudaDeviceReset), a
// fault while the block's other threads wait at a barrier, host code reading or writing
// device memory, memory the host may use, and a failed device assert.
#include <doctest/doctest.h>

#include <string>

#include "test_support.h"

using namespace simtest::support;

TEST_CASE("an out-of-bounds write names the kernel, block, thread, allocation and line") {
  // The first thread past the end depends on the order threads run in: pin it, so
  // the suite also passes when PPLAB_SIM_SCHEDULE is set for the labs around it.
  // CUDA's error model: the report, then the error is sticky from the next synchronising
  // call until cudaDeviceReset; the program's own verdict on it is its exit status 1.
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward " + program("pplab_sim_prog_oob")), Exit::with_error,
                            {"pplab-sim: error: out-of-bounds write in kernel 'fill'",
                             "block (3,0,0)",
                             "thread (232,0,0)",
                             "0 bytes past the end of a 4000-byte cudaMalloc allocation",
                             "oob.cu:13",
                             "the launch stops; the next synchronising call returns cudaErrorIllegalAddress",
                             "sync: cudaErrorIllegalAddress (an illegal memory access was encountered)",
                             "later: copy cudaErrorIllegalAddress, launch cudaErrorIllegalAddress",
                             "after cudaDeviceReset: cudaSuccess, out[0] = 0"});
  CHECK(r.status == 1);
  // Only the first fault is reported, though every later thread of the launch would fault too.
  CHECK(r.output.find("out-of-bounds") == r.output.rfind("out-of-bounds"));
}

TEST_CASE("a fault ends its block while the block's other threads wait at a barrier") {
  // The abandoned block's fibers are replaced: barriers work after the reset.
  const auto r = expect_run(run(program("pplab_sim_prog_oob") + " barrier"), Exit::with_error,
                            {"pplab-sim: error: out-of-bounds read in kernel 'staged'",
                             "block (1,0,0), thread (200,0,0)",
                             "0 bytes past the end of a 4096-byte cudaMalloc allocation",
                             "oob.cu:20",
                             "sync: cudaErrorIllegalAddress",
                             "after cudaDeviceReset: cudaSuccess, out[0] = 0"});
  CHECK(r.status == 1);
}

TEST_CASE("set_faults_end_process(true): the fault report ends the process") {
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward " + program("pplab_sim_prog_oob") + " end"),
                            Exit::with_error, {"pplab-sim: error: out-of-bounds write in kernel 'fill'", "oob.cu:13"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "the launch stops"));
  CHECK(!contains(r.output, "sync:"));
}

TEST_CASE("host code that writes a cudaMalloc buffer is reported as a host write of device memory, naming it") {
  const auto r = expect_run(run(program("pplab_sim_prog_host_device_access") + " write"), Exit::with_error,
                            {"pplab-sim: error: device memory written in host code at",
                             "(byte 12 of a 4000-byte cudaMalloc allocation at",
                             "a GPU's device memory is not the host's",
                             "copy it with cudaMemcpy",
                             "faulting source line: ",
                             "host_device_access.cu:29"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "unnoticed"));
}

TEST_CASE("host code that reads a cudaMalloc buffer after cudaDeviceSynchronize is reported as a host read") {
  const auto r = expect_run(run(program("pplab_sim_prog_host_device_access") + " read"), Exit::with_error,
                            {"pplab-sim: error: device memory read in host code at",
                             "(byte 20 of a 4000-byte cudaMalloc allocation at",
                             "host_device_access.cu:37"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "unnoticed"));
}

TEST_CASE("host reads of device memory through a library call, cudaMallocAsync buffers and host callbacks are reported") {
  // std::memcpy faults inside the C library: the report names the caller's line.
  expect_run(run(program("pplab_sim_prog_host_device_access") + " library"), Exit::with_error,
             {"pplab-sim: error: device memory read in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:44"});
  expect_run(run(program("pplab_sim_prog_host_device_access") + " async"), Exit::with_error,
             {"pplab-sim: error: device memory written in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:50"});
  // A host function on a stream is host code, on a GPU too: device memory stays closed to it.
  expect_run(run(program("pplab_sim_prog_host_device_access") + " callback"), Exit::with_error,
             {"pplab-sim: error: device memory read in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:14"});
}

TEST_CASE("managed and pinned host memory stay open to the host, and the runtime's copies of device memory work") {
  expect_run(run(program("pplab_sim_prog_host_device_access") + " open"), Exit::cleanly,
             {"managed and pinned memory from the host: ok", "copies of device memory: ok, memset 0, cudaSuccess"});
}

TEST_CASE("a failed device assert prints CUDA's line and leaves cudaErrorAssert sticky") {
  const auto r = expect_run(simcc_run("device_assert"), Exit::cleanly,
                            {"device_assert.cu:8: void check(int): block: [1,0,0], thread: [28,0,0] Assertion `i < n` failed.",
                             "thread: [31,0,0] Assertion"});
  CHECK(!contains(r.output, "thread: [27,0,0] Assertion"));
  expect_contains(r.output, {"pplab-sim: error: device assert failed in kernel 'check'",
                             "sync cudaErrorAssert, later cudaErrorAssert"});
}
