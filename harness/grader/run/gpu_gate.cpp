#include "gpu_gate.h"

namespace pplab::cli {

void GpuGate::enter_shared() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !exclusive_ && waiting_exclusive_ == 0; });
  ++shared_;
}
void GpuGate::leave_shared() {
  std::lock_guard<std::mutex> lock(mutex_);
  --shared_;
  changed_.notify_all();
}
void GpuGate::enter_exclusive() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_exclusive_;
  changed_.wait(lock, [&] { return !exclusive_ && shared_ == 0; });
  --waiting_exclusive_;
  exclusive_ = true;
}
void GpuGate::leave_exclusive() {
  std::lock_guard<std::mutex> lock(mutex_);
  exclusive_ = false;
  changed_.notify_all();
}

GpuGate::Hold::Hold(GpuGate* gate, Mode mode) : gate_(gate), mode_(mode) {
  if (gate_) mode_ == shared ? gate_->enter_shared() : gate_->enter_exclusive();
}
GpuGate::Hold::~Hold() {
  if (gate_) mode_ == shared ? gate_->leave_shared() : gate_->leave_exclusive();
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
