/// \file
/// \brief How a benchmark that `pplab grade` started asks for the GPU to itself.
///
/// A grading batch runs many things on one GPU at once (checks, compute-sanitizer), and
/// only a timing needs it alone. Rather than keep every other job off the GPU for the
/// whole life of a benchmark process (starting, computing the CPU's expected outputs,
/// preparing inputs), the benchmark asks for its turn just before each timed case and
/// gives it back right after:
///
/// - `PPLAB_GPU_TURN_FDS` is "<ask>,<answer>": the write end of a pipe pplab reads and
///   a socket pplab answers on (a socket, so that answering a benchmark that has died
///   raises no SIGPIPE in pplab). The benchmark writes kAsk, reads kGranted (pplab
///   answers once no other job holds the GPU), times, and writes kDone.
/// - The harness marks both close-on-exec when it starts, so the runner that holds the
///   lab's code (harness/remote) never inherits them and cannot ask, hold or give back
///   a turn.
/// - pplab takes a turn back when the pipe closes (the benchmark ended or crashed while
///   holding it), so a turn is never left held.
///
/// Without the variable (`pplab bench`, a benchmark run by hand) a benchmark times at once.
#pragma once

namespace pplab::gpu_turn {

/// The environment variable that names the two descriptors, "<ask>,<answer>".
inline constexpr const char* kFdsVariable = "PPLAB_GPU_TURN_FDS";
/// The benchmark asks for a turn.
inline constexpr char kAsk = 'a';
/// pplab answers: the GPU is the benchmark's alone until it says kDone.
inline constexpr char kGranted = 'g';
/// The benchmark gives its turn back.
inline constexpr char kDone = 'd';

}  // namespace pplab::gpu_turn
