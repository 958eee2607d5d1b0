#include "gpu_gate.h"

namespace pplab::cli {

void GpuGate::enter_shared(Sharer sharer) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (sharer == Sharer::gpu) {
    changed_.wait(lock, [&] { return !exclusive_ && waiting_exclusive_ == 0; });
    ++gpu_sharers_;
  } else {
    changed_.wait(lock, [&] { return !exclusive_ && !closing_; });
    ++cpu_sharers_;
  }
}
void GpuGate::leave_shared(Sharer sharer) {
  std::lock_guard<std::mutex> lock(mutex_);
  --(sharer == Sharer::gpu ? gpu_sharers_ : cpu_sharers_);
  changed_.notify_all();
}
void GpuGate::enter_exclusive() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_exclusive_;
  // One timing at a time closes the gate: the others wait for it to open again.
  changed_.wait(lock, [&] { return !exclusive_ && !closing_ && gpu_sharers_ == 0; });
  closing_ = true;
  changed_.wait(lock, [&] { return cpu_sharers_ == 0; });
  closing_ = false;
  --waiting_exclusive_;
  exclusive_ = true;
}
void GpuGate::leave_exclusive() {
  std::lock_guard<std::mutex> lock(mutex_);
  exclusive_ = false;
  changed_.notify_all();
}

GpuGate::Hold::Hold(GpuGate* gate, Mode mode) : gate_(gate), mode_(mode) {
  if (!gate_) return;
  if (mode_ == alone) gate_->enter_exclusive();
  else gate_->enter_shared(mode_ == shared ? Sharer::gpu : Sharer::cpu);
}
GpuGate::Hold::~Hold() {
  if (!gate_) return;
  if (mode_ == alone) gate_->leave_exclusive();
  else gate_->leave_shared(mode_ == shared ? Sharer::gpu : Sharer::cpu);
}

ReferenceTimes::Lab ReferenceTimes::get(const std::string& lab, const std::function<Lab()>& measure) {
  std::shared_ptr<Taken> taken;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = labs_[lab];
    if (!slot) slot = std::make_shared<Taken>();
    taken = slot;
  }
  // Measured outside the map's lock, so other labs' figures are not held up.
  std::call_once(taken->once, [&] { taken->lab = measure(); });
  return taken->lab;
}

}  // namespace pplab::cli
