// What the checked shared memory's files share (not installed for user code): the
// arena's layout, the shadow records, each worker's state, and the thread-local values
// the __tsan_* hooks test on every access.
//
// Each worker owns one arena: a redzone, the launch's dynamic shared memory, a
// redzone, then each static __shared__ array of the running block followed by a
// redzone (placed by shared_place, see pplab/sim/shared_check.h); namespace-scope
// __shared__ arrays fill the arena's top end, each placed once per worker. Code compiled for
// the sim is built with GCC's -fsanitize=thread, which calls a __tsan_* function
// before every load and store; the functions in shared_hooks.cpp are those hooks
// (libtsan is not linked).
//
// Times are per-worker counters, so nothing is cleared when a block starts: a record
// older than the block's start time is "not written by this block".
//
// The checks of an access (bounds, initialisation, races) are in shared_check.cpp,
// their reports in shared_reports.cpp, the arena's life with the blocks in
// shared_arena.cpp, and the warp operations' vector clocks in shared_clocks.cpp.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "internal.h"

namespace pplab::sim::detail {

constexpr std::size_t kRedzone = 256;
constexpr std::size_t kArenaBytes = 1u << 20;  // 227 KiB dynamic + static arrays + redzones, rounded up
constexpr std::uint16_t kNone = 0xffff;

struct Array {
  std::uintptr_t lo, hi;
  std::size_t elem;  // element size, for the index in reports
  const char* name;  // null: the dynamic shared memory
  const char* file;
  int line;
};

struct Rec {                 // one shared byte
  std::uint32_t init = 0;    // block start time of the block that wrote it last
  std::uint32_t wtime = 0;   // barrier interval of the last plain write
  std::uint32_t rtime = 0;   // barrier interval of the readers r1, r2
  std::uint16_t wtid = 0, r1 = 0, r2 = kNone;
  std::uint32_t we = 0, e1 = 0, e2 = 0;  // the accessing lane's warp epoch at the access
  const void* wpc = nullptr;
  const void* pc1 = nullptr;
  const void* pc2 = nullptr;
};

struct State {
  unsigned char* base = nullptr;
  Rec* shadow = nullptr;         // a record per byte, for the words in split[]
  Rec* words = nullptr;          // a record per 4-byte word
  // Per word, the read fast path's summary (read_fast): in interval `now` (low 32
  // bits) the word is whole, written by this block before this interval, and has two
  // readers r1, r2 (bits 32-47, 48-63). A read by a third thread then changes nothing.
  // Zero, or an older interval, otherwise: check() sets it and clears it on every write.
  std::uint64_t* fast = nullptr;
  const std::atomic<int>* cur = nullptr;  // the running thread: the worker's, kept here for read_fast
  unsigned char* split = nullptr;  // per word: its bytes' records are in shadow[]
  std::size_t dyn = 0;          // this launch's dynamic shared bytes
  std::size_t bump = 0;         // next free arena offset for a static array
  std::size_t static_bytes = 0;  // the running block's function-scope __shared__ arrays
  std::size_t high = 0;         // highest arena offset ever used (what a reset clears)
  std::size_t ns_lo = kArenaBytes;  // namespace-scope arrays fill the arena's top, downwards
  std::vector<Array> ns_arrays;     // every namespace-scope array placed on this worker
  std::uint64_t gen = 0;        // block number on this worker
  std::uint32_t now = 0;        // current barrier interval
  std::uint32_t block_start = 0;
  std::uint32_t wseq = 0;       // warp operations released
  int nthreads = 0;
  std::vector<Array> arrays;    // this block's
  // The first read of unwritten bytes in this interval, reported at the next barrier
  // unless a race on those bytes is found first: a read that runs ahead of another
  // thread's write is a missing barrier, and the race report says so.
  bool pending = false;
  std::uintptr_t pending_addr = 0;
  int pending_thread = 0;
  const void* pending_pc = nullptr;
  std::uint32_t e[kMaxThreads];        // each lane's last warp operation
  // A lane's clock is its row below raised to its warp's `whole`: the last operation of
  // all 32 lanes of the warp, after which every lane has synced with every other at that
  // operation. Kept once for the warp instead of written into 32 rows of 32 entries: a
  // radix sort ranks each key with ten whole-warp operations.
  std::uint32_t seen[kMaxThreads][32]; // see shared_clocks.cpp (with whole[])
  std::uint32_t whole[kMaxThreads / 32];
};

// The thread-local values are defined here, inline, so that every file reads them
// directly, as the hooks do (a thread_local defined in another file is read through a
// call that first runs its initialiser, if it has one).
inline thread_local State* tls_state = nullptr;
// The hooks' fast test: [tls_lo, tls_lo + tls_len) is the running block's arena
// (tls_len 0 outside blocks and with checking off).
inline thread_local std::uintptr_t tls_lo = 0;
inline thread_local std::uintptr_t tls_len = 0;
// The instrumented code's return address of the last call into the hooks' slow
// part (check, the atomics), for the watchdog's "now at" line: shared_user_pc.
inline thread_local const void* tls_slow_pc = nullptr;
inline thread_local const Array* tls_last_array = nullptr;  // where the last access landed
// The hooks' slow part (check, the atomics): shared_user_pc (shared_hooks.cpp) knows a
// sampled program counter in this section for one of theirs.
#define PPLAB_SIM_SLOW __attribute__((section("pplab_sim_slow")))

enum Kind { plain_read, plain_write, atomic_read, atomic_write, atomic_rmw };

inline const Array* array_at(const State& s, std::uintptr_t a) {
  for (const Array& arr : s.arrays)
    if (a >= arr.lo && a < arr.hi) return &arr;
  return nullptr;
}

// shared_check.cpp: the checks of an access of `size` bytes at a, an address in the
// running block's arena (the hooks' slow path; pc: the instrumented code's return
// address, for the reports).
void check(std::uintptr_t a, std::size_t size, Kind kind, const void* pc);

// shared_reports.cpp
// Warns of the uninitialised read held back since the last barrier (State::pending).
[[gnu::cold, gnu::noinline]] void warn_pending();
[[noreturn, gnu::cold, gnu::noinline]] void report_oob(std::uintptr_t a, std::size_t size, bool write, const void* pc);
[[noreturn, gnu::cold, gnu::noinline]] void report_race(std::uintptr_t a, int t, bool t_write, const void* t_pc, int u,
                                                         bool u_write, const void* u_pc);

}  // namespace pplab::sim::detail
