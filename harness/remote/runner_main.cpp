// The runner: the lab's code, the backend runtime and this loop, nothing else. It
// answers the checker's requests on fd 3 until the checker closes it. It holds no
// expected values, no seed and no key, and what it prints is only ever quoted.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "define_entries.h"
#include "harness_entries.h"
#include "pplab/cuda_check.h"
#include "pplab/device_work.h"
#include "wire.h"

namespace {

using pplab::remote::Op;
using pplab::remote::Outcome;
using pplab::remote::Reader;
using pplab::remote::Writer;

template <class T>
T* at(std::uint64_t address) {
  return reinterpret_cast<T*>(std::uintptr_t(address));
}

std::string call(const std::unordered_map<std::string, pplab::remote::Entry>& entries, Reader& request) {
  const std::string key = request.get_text();
  Reader arguments(request.get_bytes());
  Writer reply;
  const auto found = entries.find(key);
  if (found == entries.end()) {
    reply.put(Outcome::logic_error).put_text("the runner has no entry point " + key);
    return reply.bytes();
  }
  // What the lab's code throws goes back by kind, so the checks see the same type.
  try {
    const std::string results = found->second.invoke(arguments);
    reply.put(Outcome::returned).put_bytes(results.data(), results.size());
  } catch (const std::invalid_argument& error) {
    reply.put(Outcome::invalid_argument).put_text(error.what());
  } catch (const std::logic_error& error) {
    reply.put(Outcome::logic_error).put_text(error.what());
  } catch (const pplab::CudaError& error) {
    reply.put(Outcome::cuda_error).put_text(error.what());
  } catch (const std::runtime_error& error) {
    reply.put(Outcome::runtime_error).put_text(error.what());
  } catch (const std::exception& error) {
    reply.put(Outcome::other_exception).put_text(error.what());
  } catch (...) {
    reply.put(Outcome::other_exception).put_text("an exception that is not a std::exception");
  }
  return reply.bytes();
}

std::string answer(const std::unordered_map<std::string, pplab::remote::Entry>& entries, Op op, Reader& request) {
  Writer reply;
  switch (op) {
    case Op::hello:
#ifdef PPLAB_SIM
      reply.put_text("emulator");
#else
      reply.put_text("gpu");
#endif
      break;
    case Op::malloc_device: {
      void* p = nullptr;
      const cudaError_t error = cudaMalloc(&p, std::size_t(request.get<std::uint64_t>()));
      reply.put<std::int32_t>(error).put<std::uint64_t>(std::uintptr_t(p));
      break;
    }
    case Op::free_device:
      reply.put<std::int32_t>(cudaFree(at<void>(request.get<std::uint64_t>())));
      break;
    case Op::copy_to_device: {
      void* to = at<void>(request.get<std::uint64_t>());
      const std::string_view bytes = request.get_bytes();
      reply.put<std::int32_t>(cudaMemcpy(to, bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
      break;
    }
    case Op::copy_to_host: {
      // Straight from the device into the reply: a check's download at 2^24 is 64 MB, and
      // each extra copy of it is time the GPU is held for nothing.
      const void* from = at<void>(request.get<std::uint64_t>());
      const auto size = std::size_t(request.get<std::uint64_t>());
      reply.put<std::int32_t>(cudaSuccess);
      const cudaError_t error = cudaMemcpy(reply.put_space(size), from, size, cudaMemcpyDeviceToHost);
      if (error != cudaSuccess) {
        reply = Writer();
        reply.put<std::int32_t>(error).put_bytes(nullptr, 0);
      }
      break;
    }
    case Op::copy_on_device: {
      void* to = at<void>(request.get<std::uint64_t>());
      const void* from = at<void>(request.get<std::uint64_t>());
      reply.put<std::int32_t>(cudaMemcpy(to, from, std::size_t(request.get<std::uint64_t>()), cudaMemcpyDeviceToDevice));
      break;
    }
    case Op::memset_device: {
      void* to = at<void>(request.get<std::uint64_t>());
      const int value = request.get<std::int32_t>();
      reply.put<std::int32_t>(cudaMemset(to, value, std::size_t(request.get<std::uint64_t>())));
      break;
    }
    case Op::synchronize: reply.put<std::int32_t>(cudaDeviceSynchronize()); break;
    case Op::last_error: reply.put<std::int32_t>(cudaGetLastError()); break;
    case Op::peek_error: reply.put<std::int32_t>(cudaPeekAtLastError()); break;
    case Op::error_name: reply.put_text(cudaGetErrorName(cudaError_t(request.get<std::int32_t>()))); break;
    case Op::error_string: reply.put_text(cudaGetErrorString(cudaError_t(request.get<std::int32_t>()))); break;
    case Op::get_device: {
      int device = 0;
      const cudaError_t error = cudaGetDevice(&device);
      reply.put<std::int32_t>(error).put<std::int32_t>(device);
      break;
    }
    case Op::device_attribute: {
      const auto attribute = cudaDeviceAttr(request.get<std::int32_t>());
      const int device = request.get<std::int32_t>();
      int value = 0;
      const cudaError_t error = cudaDeviceGetAttribute(&value, attribute, device);
      reply.put<std::int32_t>(error).put<std::int32_t>(value);
      break;
    }
    case Op::traffic: {
      const pplab::DeviceTraffic traffic = pplab::device_traffic();
      reply.put<std::uint64_t>(traffic.launches).put<std::uint64_t>(traffic.to_host_bytes);
      reply.put<std::uint64_t>(traffic.to_device_bytes).put<std::uint8_t>(traffic.counted);
      if (!traffic.counted) reply.put_text(traffic.reason);
      reply.put<std::uint32_t>(static_cast<std::uint32_t>(traffic.to_host_sites.size()));
      for (const pplab::HostCopySite& site : traffic.to_host_sites) {
        reply.put_text(site.function).put_text(site.file);
        reply.put<std::uint32_t>(site.line).put<std::uint64_t>(site.to_host_bytes);
      }
      break;
    }
    case Op::set_schedule: {
      const int kind = request.get<std::int32_t>();
      const unsigned seed = request.get<std::uint32_t>();
#ifdef PPLAB_SIM
      pplab::sim::set_schedule(pplab::sim::Schedule(kind), seed);
#else
      (void)kind, (void)seed;
#endif
      break;
    }
    case Op::set_fault_note: pplab::set_fault_context(request.get_text()); break;
    case Op::call: return call(entries, request);
    case Op::synchronized: {
      const auto inner = Op(request.get<std::uint32_t>());
      if (inner == Op::synchronized) throw pplab::remote::WireError("a synchronized request inside another");
      Reader inner_request(request.get_bytes());
      const std::string inner_reply = answer(entries, inner, inner_request);
      reply.put_bytes(inner_reply.data(), inner_reply.size()).put<std::int32_t>(cudaDeviceSynchronize());
      break;
    }
    default: throw pplab::remote::WireError("unknown request " + std::to_string(int(op)));
  }
  return reply.bytes();
}

}  // namespace

int main() {
  constexpr int kChecker = 3;  // the socket the checker gave us
  pplab::remote::keep_freed_memory();
#ifndef PPLAB_SIM
  // A synchronise spins rather than sleeps, so it returns as soon as the device is done
  // (the checker's timer counts until it returns), whatever the number of CPUs.
  cudaSetDeviceFlags(cudaDeviceScheduleSpin);
  // Freed cudaMallocAsync memory stays in the pool, so code timed through the runner
  // pays for mapping its scratch once, as it does in the in-process benchmark.
  {
    cudaMemPool_t pool;
    std::uint64_t keep_all = UINT64_MAX;
    if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess)
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all);
    cudaGetLastError();  // no device: the checks will say so
  }
#endif
  std::vector<pplab::remote::Entry> table = pplab::remote::lab_entries();
  {
    auto& entries = table;  // the name PPLAB_RUNNER_FUNCTION appends to
    PPLAB_HARNESS_ENTRIES(PPLAB_RUNNER_FUNCTION)
  }
  std::unordered_map<std::string, pplab::remote::Entry> entries;
  for (auto& entry : table) entries.emplace(entry.key, std::move(entry));
  // What the lab prints goes out before each answer, so the checker shows it in order.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
#ifdef PPLAB_SIM
  // A kernel's invalid memory access ends the runner with the emulator's report, rather
  // than CUDA's sticky error: the checker judges a fault from how the runner ended.
  pplab::sim::set_faults_end_process(true);
#endif
  try {
    Op op{};
    std::string body;
    while (pplab::remote::receive_frame(kChecker, op, body)) {
      Reader request(body);
      const std::string reply = answer(entries, op, request);
      std::fflush(stdout);
      pplab::remote::send_frame(kChecker, op, reply);
#ifndef PPLAB_SIM
      // The checker's timer sends its timed request microseconds after the untimed
      // synchronise before it: a runner asleep on its socket would wake late and add
      // that to the lab's time.
      pplab::remote::spin_until_readable(kChecker, std::chrono::microseconds(300));
#endif
    }
  } catch (const pplab::remote::WireError& error) {
    std::fprintf(stderr, "pplab runner: %s\n", error.what());
    return 3;
  }
  return 0;
}
