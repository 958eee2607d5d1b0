/// \file
/// \brief The checker's end of the runner: starts it, sends requests, and turns its
/// end into an exception that names what happened.
#pragma once
#include <stdexcept>
#include <string>

#include "pplab/result_channel.h"
#include "runner_choice.h"
#include "wire.h"

namespace pplab::remote {

/// The runner ended (a fault the emulator reported, a crash, exit() from lab code) or
/// broke the protocol while the checker waited for it. what() starts with kRunnerEnded,
/// then quotes the end of what the runner printed.
struct RunnerEnded : std::runtime_error {
  using std::runtime_error::runtime_error;
};
using channel::kRunnerEnded;

/// Sends one request and returns the reply's body. Starts a runner when none is running
/// (the first request, or the first after one ended). Throws RunnerEnded.
std::string request(Op op, const std::string& body = {});

/// cudaMemcpy from the device: the runner's bytes go from the socket straight into `to`
/// (a check's download at 2^24 is tens of MB). Returns the runner's CUDA error; throws
/// RunnerEnded, also when it sends a different number of bytes.
std::int32_t copy_to_host(std::uint64_t from, void* to, std::uint64_t count);

/// Like request(), but a runner that has ended is not started again (freeing memory).
bool request_if_running(Op op, const std::string& body, std::string& reply);

/// What a runner started later must be told again: the emulator's thread order and the
/// note it prints under a fault (remote_cuda.cpp sends them to the running one).
void remember_schedule(int kind, unsigned seed);
void remember_fault_note(const std::string& note);
/// The emulator's uninitialised-shared-read warnings among the lines the runner printed
/// since the last call (relayed so far), each with its detail lines.
std::string take_uninitialised_reads();

/// The backend the runner reports: "emulator" or "gpu" (asked once).
const std::string& backend();

/// A setting of the connection that holds while its object lives (never copied).
struct ScopedSetting {
  ScopedSetting() = default;
  ScopedSetting(const ScopedSetting&) = delete;
  ScopedSetting& operator=(const ScopedSetting&) = delete;
};

/// While one lives, each request also has the runner synchronise the device before it
/// answers, in the same round trip, so the checker's timer counts one request and one
/// reply around a timed run, as around its calibration. error() is the first failed
/// synchronise (cudaSuccess if none).
class SynchronizedRequests : ScopedSetting {
 public:
  SynchronizedRequests();
  ~SynchronizedRequests();
  int error() const;
};

/// While one lives, the checker waits for each reply by polling its socket rather than
/// asleep, so the time it measures around a request is not stretched by its own late
/// wake-up (the checker's timer holds one). On the emulator it does nothing: there the
/// runner's kernels need every core, and the time says nothing about a GPU anyway.
class BusyWaiting : ScopedSetting {
 public:
  BusyWaiting();
  ~BusyWaiting();

 private:
  bool was_ = false;
};

}  // namespace pplab::remote
