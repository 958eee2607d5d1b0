/// \file
/// \brief Running a check under several thread orders on the CPU emulator.
///
/// On the sim, threads of a block run in an order chosen by the schedule (forward,
/// reverse, random). Code that forgets a __syncthreads gives a right answer in one
/// order and a wrong one in another, so checks run once per order. On a GPU the
/// hardware picks the order and each check runs once.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace pplab {

/// Runs `body` once per schedule (sim) or once (gpu). `body` receives a short name
/// of the schedule ("forward", "reverse", "random:7", or "gpu") for messages.
/// Stops after the first schedule in which a check failed (see note_check_failed).
/// When PPLAB_SIM_SCHEDULE is set, only that schedule runs, to reproduce a failure.
void for_each_schedule(const std::function<void(const std::string& schedule)>& body);

/// Inputs of up to this many elements run under every order. A larger input runs under
/// one: with checked shared memory a missing barrier is a data race under every order
/// (harness/sim/README.md), so the other orders only repeat the work, and the large
/// inputs of one check take the three orders in turn, so each order still meets them.
inline constexpr std::size_t kEveryOrderUpTo = 4096;

/// for_each_schedule() for a check of `elements` elements: every order up to
/// kEveryOrderUpTo, else the next order in turn. The report names the order that ran,
/// and its reproduce line runs that one.
void for_each_schedule(std::size_t elements, const std::function<void(const std::string& schedule)>& body);

/// Called by PPLAB_EXPECT when a check fails.
void note_check_failed();

/// The name of the schedule currently in force ("gpu" on the GPU backend).
std::string current_schedule_name();

}  // namespace pplab
