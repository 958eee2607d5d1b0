// The checker's CUDA runtime: the calls the checks make (allocate, copy, synchronise,
// read errors) go to the runner, which makes them on its backend. Device addresses are
// the runner's; the checker only passes them back. Nothing here runs a kernel.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "client.h"
#include "marshal.h"
#include "pplab/cuda_check.h"
#ifdef PPLAB_SIM
#include "pplab/sim/schedule_choice.h"
#endif
#include "pplab/device_work.h"

namespace {

using pplab::remote::Op;
using pplab::remote::Reader;
using pplab::remote::Writer;

std::uint64_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

cudaError_t error_reply(Op op, const Writer& body) {
  return cudaError_t(Reader(pplab::remote::request(op, body.bytes())).get<std::int32_t>());
}

// cudaGetErrorName/String return pointers that must stay valid: one copy per code.
const char* kept_text(Op op, cudaError_t code) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::string> texts;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(int(op), int(code));
  auto found = texts.find(key);
  if (found == texts.end()) {
    std::string text = "error " + std::to_string(int(code));
    try {
      text = Reader(pplab::remote::request(op, Writer().put<std::int32_t>(code).bytes())).get_text();
    } catch (const std::exception&) {
      // The runner is gone: the number is all there is.
    }
    found = texts.emplace(key, text.substr(0, 200)).first;
  }
  return found->second.c_str();
}

}  // namespace

cudaError_t cudaMalloc(void** ptr, size_t size) {
  Reader reply(pplab::remote::request(Op::malloc_device, Writer().put<std::uint64_t>(size).bytes()));
  const auto error = cudaError_t(reply.get<std::int32_t>());
  *ptr = reinterpret_cast<void*>(std::uintptr_t(reply.get<std::uint64_t>()));
  return error;
}

cudaError_t cudaFree(void* ptr) {
  // Called from destructors, also after the runner ended: never throws, never restarts it.
  std::string reply;
  if (!pplab::remote::request_if_running(Op::free_device, Writer().put<std::uint64_t>(address(ptr)).bytes(), reply))
    return cudaSuccess;
  return cudaError_t(Reader(reply).get<std::int32_t>());
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: {
      Writer body;
      body.put<std::uint64_t>(address(dst)).put_bytes(src, count);
      return error_reply(Op::copy_to_device, body);
    }
    case cudaMemcpyDeviceToHost: {
      return cudaError_t(pplab::remote::copy_to_host(address(src), dst, count));
    }
    case cudaMemcpyDeviceToDevice: {
      Writer body;
      body.put<std::uint64_t>(address(dst)).put<std::uint64_t>(address(src)).put<std::uint64_t>(count);
      return error_reply(Op::copy_on_device, body);
    }
    default:
      throw std::logic_error("the checks copy host-to-device, device-to-host or device-to-device only");
  }
}

cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  Writer body;
  body.put<std::uint64_t>(address(ptr)).put<std::int32_t>(value).put<std::uint64_t>(count);
  return error_reply(Op::memset_device, body);
}

cudaError_t cudaDeviceSynchronize() { return error_reply(Op::synchronize, Writer()); }
cudaError_t cudaGetLastError() { return error_reply(Op::last_error, Writer()); }
cudaError_t cudaPeekAtLastError() { return error_reply(Op::peek_error, Writer()); }
const char* cudaGetErrorName(cudaError_t code) { return kept_text(Op::error_name, code); }
const char* cudaGetErrorString(cudaError_t code) { return kept_text(Op::error_string, code); }

cudaError_t cudaGetDevice(int* device) {
  Reader reply(pplab::remote::request(Op::get_device));
  const auto error = cudaError_t(reply.get<std::int32_t>());
  *device = reply.get<std::int32_t>();
  return error;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  Reader reply(pplab::remote::request(
      Op::device_attribute, Writer().put<std::int32_t>(attribute).put<std::int32_t>(device).bytes()));
  const auto error = cudaError_t(reply.get<std::int32_t>());
  *value = reply.get<std::int32_t>();
  return error;
}

namespace pplab {

constexpr std::uint32_t kMaxHostCopySites = 1u << 16;

DeviceTraffic device_traffic() {
  Reader reply(remote::request(remote::Op::traffic));
  DeviceTraffic traffic;
  traffic.launches = reply.get<std::uint64_t>();
  traffic.to_host_bytes = reply.get<std::uint64_t>();
  traffic.to_device_bytes = reply.get<std::uint64_t>();
  traffic.counted = reply.get<std::uint8_t>() != 0;
  if (!traffic.counted) traffic.reason = reply.get_text();
  // One per line of the lab's code that copied to the host: a few, never this many.
  const std::uint32_t sites = reply.get<std::uint32_t>();
  if (sites > kMaxHostCopySites) throw remote::WireError("the runner's traffic names too many copy sites");
  for (std::uint32_t site_index = 0; site_index < sites; ++site_index) {
    HostCopySite site;
    site.function = reply.get_text();
    site.file = reply.get_text();
    site.line = reply.get<std::uint32_t>();
    site.to_host_bytes = reply.get<std::uint64_t>();
    traffic.to_host_sites.push_back(std::move(site));
  }
  return traffic;
}

std::string take_uninitialised_reads() { return remote::take_uninitialised_reads(); }

void set_fault_context(const std::string& lines) {
  remote::remember_fault_note(lines);
  std::string ignored;
  remote::request_if_running(remote::Op::set_fault_note, remote::Writer().put_text(lines).bytes(), ignored);
}

namespace remote {

std::string call_entry(const std::string& key, const std::string& arguments, const char* name) {
  Writer body;
  body.put_text(key).put_bytes(arguments.data(), arguments.size());
  const std::string reply = request(Op::call, body.bytes());
  Reader read(reply);
  const auto outcome = Outcome(read.get<std::uint8_t>());
  if (outcome == Outcome::returned) return std::string(read.get_bytes());
  // What the lab's code threw, thrown again here so the checks see the same type.
  const std::string what = read.get_text();
  switch (outcome) {
    case Outcome::invalid_argument: throw std::invalid_argument(what);
    case Outcome::logic_error: throw std::logic_error(what);
    case Outcome::cuda_error: throw CudaError(cudaErrorUnknown, what);
    case Outcome::runtime_error: throw std::runtime_error(what);
    case Outcome::other_exception: throw std::runtime_error(std::string(name) + " threw: " + what);
    default: throw RunnerEnded(std::string(kRunnerEnded) + ": it answered " + name + " with nonsense\n");
  }
}

}  // namespace remote
}  // namespace pplab

#ifdef PPLAB_SIM
// The emulator's thread order is the runner's; the checks choose it for each check.
namespace pplab::sim {
namespace {
// PPLAB_SIM_SCHEDULE picks the order to reproduce a failure in; the runner never sees
// the variable, so the checker reads it and tells every runner it starts.
struct Chosen {
  Schedule schedule = Schedule::forward;
  unsigned seed = 0;
  Chosen() {
    const auto choice = schedule_from_environment();
    if (!choice) return;
    schedule = choice->schedule;
    seed = choice->seed;
    remote::remember_schedule(int(schedule), seed);
  }
};
Chosen& chosen() {
  static Chosen state;
  return state;
}
// Read before main, so the first runner, whenever it starts, is told the order a report
// names: read on first use instead, a check that started its runner before asking for the
// order ran forward while its report printed the variable's order.
[[maybe_unused]] const bool chosen_before_main = (chosen(), true);
}  // namespace
void set_schedule(Schedule schedule, unsigned seed) {
  chosen().schedule = schedule;
  chosen().seed = seed;
  remote::remember_schedule(int(schedule), seed);
  std::string ignored;
  remote::request_if_running(
      remote::Op::set_schedule, remote::Writer().put<std::int32_t>(int(schedule)).put<std::uint32_t>(seed).bytes(),
      ignored);
}
Schedule schedule() { return chosen().schedule; }
unsigned schedule_seed() { return chosen().seed; }
}  // namespace pplab::sim
#endif
