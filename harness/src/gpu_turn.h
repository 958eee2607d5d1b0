// A benchmark's side of the GPU turns of pplab/gpu_turn.h.
#pragma once

namespace pplab::detail {

/// Holds the GPU alone from construction to destruction when `pplab grade` started this
/// process (otherwise does nothing). Nested holds are one turn: the outermost asks and
/// gives back. Throws when pplab cannot be asked (its end of the pipe is gone).
class GpuTurn {
 public:
  GpuTurn();
  ~GpuTurn();
  GpuTurn(const GpuTurn&) = delete;
  GpuTurn& operator=(const GpuTurn&) = delete;
};

}  // namespace pplab::detail
