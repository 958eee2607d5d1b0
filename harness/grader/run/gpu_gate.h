/// \file
/// \brief Who holds the GPU while a batch grades: checks share it, timing has it alone;
/// and the reference's timings, taken once per batch under that gate.
#pragma once
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "timing.h"

namespace pplab::cli {

/// Serialises GPU timing across threads: checks may share the GPU, a timed case runs
/// alone (no check of any lab or submission, on the GPU or the emulator, runs beside
/// it). Checks hold it one process at a time, and a benchmark only while it times a case
/// (pplab/gpu_turn.h), so a timing waits for the processes running, not for whole labs.
///
/// Two kinds of sharers: those on the GPU (its checks, compute-sanitizer) and those that
/// only keep the CPUs busy (the emulator's checks, which the checker's timer would feel).
/// A timing that asks first waits for the GPU's sharers to leave, no new one starting,
/// while the CPU's sharers carry on (a compute-sanitizer process can take 20 s); only
/// then does it stop new CPU sharers and wait for the few running, so the CPUs are not
/// left idle behind a long GPU process.
class GpuGate {
 public:
  enum class Sharer { gpu, cpu };
  void enter_shared(Sharer sharer = Sharer::gpu);
  void leave_shared(Sharer sharer = Sharer::gpu);
  void enter_exclusive();
  void leave_exclusive();

  /// Holds `gate` (none: holds nothing) from construction to destruction, shared (on the
  /// GPU, or the CPUs alone) or alone, so a lab whose grading throws cannot leave it held
  /// for everyone else.
  class Hold {
   public:
    enum Mode { shared, shared_cpu, alone };
    Hold(GpuGate* gate, Mode mode);
    ~Hold();
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    GpuGate* gate_;
    Mode mode_;
  };

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int gpu_sharers_ = 0, cpu_sharers_ = 0, waiting_exclusive_ = 0;
  bool closing_ = false;  ///< a timing has the GPU's sharers gone and waits for the CPU's
  bool exclusive_ = false;
};

/// Runs each job it is given while holding `gate` (none: holding nothing) in `mode`: what
/// a check's or a tool's process holds while it runs (CheckOptions::around_each_case,
/// SanitizerSpread::guard).
inline std::function<void(const std::function<void()>&)> while_holding(GpuGate* gate, GpuGate::Hold::Mode mode) {
  return [gate, mode](const std::function<void()>& job) {
    const GpuGate::Hold hold(gate, mode);
    job();
  };
}

/// The reference's and the library's timings of each lab, taken once in a grading run:
/// the first submission to reach a lab's timing measures them, and every later one in
/// the batch is compared with the same figures. A class of N then costs N student
/// timings on the GPU rather than 2N, and all of it is judged against one reference run.
class ReferenceTimes {
 public:
  using Lab = ReferenceTiming;
  /// The lab's timings; `measure` takes them the first time. A second caller for the same
  /// lab waits for the first one's figures; one that threw leaves the next to measure.
  Lab get(const std::string& lab, const std::function<Lab()>& measure);

 private:
  struct Taken {
    std::once_flag once;
    Lab lab;
  };
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Taken>> labs_;
};

}  // namespace pplab::cli
