// Checked shared memory.
//
// Each worker owns one arena: a redzone, the launch's dynamic shared memory, a
// redzone, then each static __shared__ array of the running block followed by a
// redzone (placed by shared_place, see pplab/sim/shared_check.h); namespace-scope
// __shared__ arrays fill the arena's top end, each placed once per worker. Code compiled for
// the sim is built with GCC's -fsanitize=thread, which calls a __tsan_* function
// before every load and store; the functions below are those hooks (libtsan is not
// linked). A hook compares the address with the running block's arena and returns
// at once for everything else, so host, global and stack accesses cost one call.
//
// For an arena byte the hooks check, in order:
//   * bounds: the byte belongs to an array placed by this block (or to the dynamic
//     shared memory the launch asked for);
//   * initialisation: some thread of this block wrote it (plain or atomic); a read
//     of unwritten bytes is a warning, once per line, and the kernel goes on
//     (warn_uninit says why);
//   * races: a shadow record keeps the last plain write and up to two plain readers
//     of the current barrier interval, one record per 4-byte word while every
//     access to the word is the whole word, one per byte once any is not. Two accesses of different threads, one
//     a write, race unless a __syncthreads() lies between them (a new interval) or, in
//     one warp, a warp operation whose mask named both lanes (a small vector clock per
//     lane: seen[u][l] is the latest warp operation of lane l that lane u has synced
//     with, directly or through other lanes; a whole warp's operation is kept once for
//     the warp, see State::whole). Atomics never race.
// Times are per-worker counters, so nothing is cleared when a block starts: a record
// older than the block's start time is "not written by this block".
#include "pplab/sim/shared_check.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "internal.h"

namespace pplab::sim::detail {
namespace {

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
  std::uint32_t seen[kMaxThreads][32]; // see the file comment (with whole[])
  std::uint32_t whole[kMaxThreads / 32];
};

thread_local State* tls_state = nullptr;
// The hooks' fast test: [tls_lo, tls_lo + tls_len) is the running block's arena
// (tls_len 0 outside blocks and with checking off).
thread_local std::uintptr_t tls_lo = 0;
thread_local std::uintptr_t tls_len = 0;
// The instrumented code's return address of the last call into the hooks' slow
// part (check, the atomics), for the watchdog's "now at" line: shared_user_pc.
thread_local const void* tls_slow_pc = nullptr;
#define PPLAB_SIM_SLOW __attribute__((section("pplab_sim_slow")))

std::atomic<bool> g_check_on{true};  // PPLAB_SIM_CHECK, read below; set_shared_check() changes it

bool read_check_setting() {
  try {
    return settings::on_off(settings::kCheck, true);
  } catch (const std::invalid_argument& error) {
    fatal(error.what());
  }
}
const bool g_check_setting = [] {
  g_check_on.store(read_check_setting());
  return true;
}();

std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

// ---------------------------------------------------------------- reports ----
std::string line_of(const void* pc) {
  if (!pc) return "an unknown line";
  // The hook's return address is just after the call: the call itself is one byte back.
  std::string s = source_line(const_cast<char*>(static_cast<const char*>(pc)) - 1);
  return s.empty() ? "an unknown line (build with line tables: -g1)" : s;
}

std::string thread_name(const Worker& w, int t) {
  return "thread " + fmt_idx(w.idx[t]) + " (warp " + std::to_string(t / 32) + ", lane " + std::to_string(t % 32) + ")";
}

const Array* array_at(const State& s, std::uintptr_t a) {
  for (const Array& arr : s.arrays)
    if (a >= arr.lo && a < arr.hi) return &arr;
  return nullptr;
}
thread_local const Array* tls_last_array = nullptr;  // where the last access landed

std::string array_title(const Array& arr) {
  if (!arr.name) return "the dynamic shared memory (extern __shared__, " + std::to_string(arr.hi - arr.lo) + " bytes in this launch)";
  return "__shared__ " + std::string(arr.name) + " (" + std::to_string((arr.hi - arr.lo) / arr.elem) + " elements of " +
         std::to_string(arr.elem) + " bytes, declared at " + fmt_site(Site{arr.file, arr.line}) + ")";
}

// "tile[7]", or "byte 28 of the dynamic shared memory".
std::string element(const Array& arr, std::uintptr_t a) {
  const long long off = static_cast<long long>(a) - static_cast<long long>(arr.lo);
  if (!arr.name) return "byte " + std::to_string(off) + " of the dynamic shared memory";
  const long long e = static_cast<long long>(arr.elem);
  const long long idx = off >= 0 ? off / e : -((-off + e - 1) / e);
  std::string s = std::string(arr.name) + "[" + std::to_string(idx) + "]";
  if (off % e) s += " (byte " + std::to_string(off) + ")";
  return s;
}

const char* verb(bool write, bool present) {
  if (present) return write ? "writes" : "reads";
  return write ? "wrote" : "read";
}

// An uninitialised read is a warning, once per source line, and the kernel goes on:
// on a GPU the read gives whatever the memory held, and a read whose value never
// reaches a result is harmless (compute-sanitizer's initcheck watches global memory
// only). The read gives the poison every block's shared memory starts with, so a
// result that does depend on it comes out wrong, and the warning says why.
[[gnu::cold, gnu::noinline]] void warn_uninit(const Array& arr, std::uintptr_t a, int t, const void* pc) {
  static std::mutex lock;
  static std::set<const void*> pcs;       // reported, or the same line as one reported
  static std::set<std::string> lines;
  std::string line;
  {
    std::lock_guard<std::mutex> hold(lock);
    if (!pcs.insert(pc).second) return;
  }
  line = line_of(pc);  // addr2line: outside the lock
  {
    std::lock_guard<std::mutex> hold(lock);
    if (!lines.insert(line).second) return;
  }
  const Worker& w = *tls_worker;
  warn("uninitialised shared read in " + describe_kernel(w) + ", " + thread_name(w, t) + ":\n  reads " +
       element(arr, a) + " at " + line + "\n  in " + array_title(arr) +
       "\n  no thread of this block has written it: shared memory starts undefined in every block" +
       "\n  the kernel goes on, and the read gives the emulator's poison (every byte 0xff: NaN as a float, -1 as an "
       "int), so a result that depends on it is wrong; reported once per line");
}

[[gnu::cold, gnu::noinline]] void warn_pending() {
  State& s = *tls_state;
  s.pending = false;
  if (const Array* arr = array_at(s, s.pending_addr)) warn_uninit(*arr, s.pending_addr, s.pending_thread, s.pending_pc);
}

[[noreturn, gnu::cold, gnu::noinline]] void report_oob(std::uintptr_t a, std::size_t size, bool write, const void* pc) {
  const State& s = *tls_state;
  const Worker& w = *tls_worker;
  // An earlier read of unwritten memory may be what put this index out of range.
  const bool after_uninit = s.pending;
  if (s.pending) warn_pending();
  const int t = w.cur.load(std::memory_order_relaxed);
  // The array the access was meant for: the one it starts in (running past its
  // end), else the nearest one on either side.
  const Array* best = array_at(s, a);
  std::uintptr_t dist = ~std::uintptr_t{0};
  if (!best) {
    for (const Array& arr : s.arrays) {
      std::uintptr_t d = a >= arr.hi ? a - arr.hi : arr.lo - a;
      if (d < dist) dist = d, best = &arr;
    }
  }
  std::string msg = "shared memory out of bounds in " + describe_kernel(w) + ", " + thread_name(w, t) + ":\n  " +
                    verb(write, true) + " " + std::to_string(size) + (size == 1 ? " byte at " : " bytes at ");
  if (best) {
    msg += element(*best, a) + " at " + line_of(pc) + "\n  ";
    if (a < best->lo)
      msg += "that is before the start of " + array_title(*best);
    else if (a >= best->hi || a + size > best->hi)
      msg += "that is past the end of " + array_title(*best);
    else
      msg += "inside " + array_title(*best);
  } else {
    msg += "shared-memory offset " + std::to_string(a - tls_lo) + " at " + line_of(pc) +
           "\n  the block has no shared memory there (no __shared__ array, no dynamic shared memory)";
  }
  if (after_uninit)
    msg += "\n  earlier in this barrier interval a thread read uninitialised shared memory (the warning above): "
           "that value may be what put the index out of range";
  fatal(msg);
}

[[noreturn, gnu::cold, gnu::noinline]] void report_race(std::uintptr_t a, int t, bool t_write, const void* t_pc, int u,
                                                         bool u_write, const void* u_pc) {
  const State& s = *tls_state;
  const Worker& w = *tls_worker;
  const Array* arr = array_at(s, a);
  const std::string what = arr ? element(*arr, a) : "shared-memory offset " + std::to_string(a - tls_lo);
  // The two accesses come first: the harness keeps the first lines of a report.
  std::string msg = "data race on shared memory in " + describe_kernel(w) + ":\n  " + thread_name(w, u) + " " +
                    verb(u_write, true) + " " + what + " at " + line_of(u_pc) + "\n  " + thread_name(w, t) + " " +
                    verb(t_write, false) + " it at " + line_of(t_pc) + " since the last __syncthreads()\n  " +
                    (arr ? "in " + array_title(*arr) + "\n  " : std::string());
  if (t / 32 == u / 32 && w.n <= 32)
    msg += "nothing orders the two accesses: the lanes need a __syncthreads() (or, in a block of one warp, a "
           "__syncwarp()) between them";
  else if (t / 32 == u / 32)
    msg += "nothing orders the two accesses: they need a __syncthreads() between them (a __syncwarp() would "
           "order only these two lanes of one warp)";
  else
    msg += "nothing orders the two accesses: the threads are in different warps and need a __syncthreads() between them";
  fatal(msg);
}

// -------------------------------------------------------------- the check ----
enum Kind { plain_read, plain_write, atomic_read, atomic_write, atomic_rmw };

// The race and initialisation rules for one record (a word or a byte) at a.
// Returns whether a read found it written by this block.
[[gnu::always_inline]] inline bool check_record(Rec& x, std::uintptr_t a, Kind kind, const void* pc, int u,
                                                std::uint32_t now, std::uint32_t eu, const std::uint32_t* seen,
                                                const std::uint32_t* whole, std::uint32_t block_start) {
  const bool written = x.init == block_start;
  if (kind == plain_write || kind == atomic_write || kind == atomic_rmw) x.init = block_start;
  if (kind != plain_read && kind != plain_write) return written;
  // u's clock entry for lane t is seen[t & 31] raised to u's warp's *whole (State::whole).
  auto ordered = [&](int t, std::uint32_t et) {
    return t == u || ((t >> 5) == (u >> 5) && std::max(seen[t & 31], *whole) > et);
  };
  // A thread reading again what it read already in this interval: nothing new.
  if (kind == plain_read && x.rtime == now && x.r1 == u && x.e1 == eu && (x.wtime != now || x.wtid == u))
    return written;
  if (x.wtime == now && !ordered(x.wtid, x.we)) report_race(a, x.wtid, true, x.wpc, u, kind == plain_write, pc);
  if (kind == plain_write) {
    if (x.rtime == now) {
      if (!ordered(x.r1, x.e1)) report_race(a, x.r1, false, x.pc1, u, true, pc);
      if (x.r2 != kNone && !ordered(x.r2, x.e2)) report_race(a, x.r2, false, x.pc2, u, true, pc);
    }
    // Earlier readers are ordered before this write (else reported): later
    // accesses need only be ordered after the write.
    x.wtime = now, x.wtid = static_cast<std::uint16_t>(u), x.we = eu, x.wpc = pc;
    x.rtime = 0;
  } else if (x.rtime != now) {
    x.rtime = now, x.r1 = static_cast<std::uint16_t>(u), x.e1 = eu, x.pc1 = pc, x.r2 = kNone;
  } else if (x.r1 == u) {
    x.e1 = eu, x.pc1 = pc;
  } else if (x.r2 == kNone || x.r2 == u) {
    x.r2 = static_cast<std::uint16_t>(u), x.e2 = eu, x.pc2 = pc;
  }
  // A third reader is not kept: a later write by any thread but r1 or r2 is
  // reported against r1 or r2 already.
  return written;
}

// The summary check() keeps for read_fast, for whole word g after an access to it.
[[gnu::always_inline]] inline void note_fast(State& s, std::size_t g, Kind kind, std::uint32_t now, std::uint32_t bs) {
  const Rec& x = s.words[g];
  if (kind == plain_read && x.rtime == now && x.r2 != kNone && x.init == bs && x.wtime != now)
    s.fast[g] = now | std::uint64_t{x.r1} << 32 | std::uint64_t{x.r2} << 48;
  else
    s.fast[g] = 0;
}

PPLAB_SIM_SLOW [[gnu::noinline]] void check(std::uintptr_t a, std::size_t size, Kind kind, const void* pc) {
  tls_slow_pc = pc;
  State& s = *tls_state;
  // The common access, a plain read or write of one whole word in the array of the
  // last access: its record directly, without the loop below.
  if (const Array* arr = tls_last_array; size == 4 && (kind == plain_read || kind == plain_write) && arr &&
                                         a >= arr->lo && a + 4 <= arr->hi && !((a - tls_lo) & 3)) {
    const std::size_t g = (a - tls_lo) >> 2;
    if (!s.split[g]) {
      const int u = s.cur->load(std::memory_order_relaxed);
      const std::uint32_t now = s.now, bs = s.block_start;
      const bool written = check_record(s.words[g], a, kind, pc, u, now, s.e[u], s.seen[u], &s.whole[u >> 5], bs);
      note_fast(s, g, kind, now, bs);
      if (kind == plain_read && !written && !s.pending) {
        s.pending = true;
        s.pending_addr = a;
        s.pending_thread = u;
        s.pending_pc = pc;
      }
      return;
    }
  }
  Worker* w = tls_worker;
  if (!w) return;
  const bool reads = kind == plain_read || kind == atomic_read || kind == atomic_rmw;
  const bool writes = kind == plain_write || kind == atomic_write || kind == atomic_rmw;
  const Array* arr = tls_last_array;
  if (!arr || a < arr->lo || a >= arr->hi) tls_last_array = arr = array_at(s, a);
  if (!arr || a + size > arr->hi) report_oob(a, size, writes, pc);
  const int u = w->cur.load(std::memory_order_relaxed);
  const std::uint32_t now = s.now, eu = s.e[u], bs = s.block_start;
  const std::uint32_t* seen = s.seen[u];
  const std::uint32_t* whole = &s.whole[u >> 5];
  const std::size_t off = a - tls_lo, end = off + size;
  // Word records for whole aligned words; a word any access splits keeps one
  // record per byte until a whole-word write makes its bytes alike again.
  bool any = false;  // a byte read was written by this block
  for (std::size_t g = off >> 2; g < (end + 3) >> 2; ++g) {
    const std::size_t lo = std::max(off, g << 2), hi = std::min(end, (g << 2) + 4);
    if (lo == g << 2 && hi == lo + 4 && !s.split[g]) {
      any |= check_record(s.words[g], tls_lo + lo, kind, pc, u, now, eu, seen, whole, bs);
      if (kind != atomic_read) note_fast(s, g, kind, now, bs);
      continue;
    }
    s.fast[g] = 0;
    Rec* r = s.shadow + (g << 2);
    if (!s.split[g]) {
      r[0] = r[1] = r[2] = r[3] = s.words[g];
      s.split[g] = 1;
    }
    for (std::size_t i = lo; i < hi; ++i)
      any |= check_record(s.shadow[i], tls_lo + i, kind, pc, u, now, eu, seen, whole, bs);
    // After a whole-word plain write the four records agree in every field that
    // counts (the readers are cleared), so the word is whole again.
    if (kind == plain_write && hi - lo == 4) {
      s.words[g] = r[0];
      s.split[g] = 0;
    }
  }
  // Counted when none of the bytes was written: a struct copied whole may carry
  // padding nobody wrote, and that is not a bug. Reported at the next barrier
  // unless a race on those bytes is found first.
  if (reads && !any && !s.pending) {
    s.pending = true;
    s.pending_addr = a;
    s.pending_thread = u;
    s.pending_pc = pc;
  }
}

[[gnu::always_inline]] inline bool in_arena(const volatile void* p) {
  return reinterpret_cast<std::uintptr_t>(p) - tls_lo < tls_len;
}

// The common read of a tiled kernel: many threads read a word that was written in an
// earlier interval. Once two of them are on record (check() has noted it in
// State::fast), a read by any other thread would change no record and find no race,
// so it needs no check. `words` whole aligned words from p, inside the arena.
[[gnu::always_inline]] inline bool read_fast(const void* p, int words) {
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - tls_lo;
  if (off & 3) return false;
  const State& s = *tls_state;
  const std::uint64_t* f = s.fast + (off >> 2);
  const std::uint32_t u = static_cast<std::uint32_t>(s.cur->load(std::memory_order_relaxed));
  for (int i = 0; i < words; ++i) {
    const std::uint64_t v = f[i];
    if (static_cast<std::uint32_t>(v) != s.now || ((v >> 32) & 0xffff) == u || (v >> 48) == u) return false;
  }
  return true;
}

// Starts the worker's counters over (after about four billion barriers).
void reset_times(State& s) {
  std::memset(static_cast<void*>(s.shadow), 0, s.high * sizeof(Rec));
  std::memset(static_cast<void*>(s.shadow + s.ns_lo), 0, (kArenaBytes - s.ns_lo) * sizeof(Rec));
  std::memset(static_cast<void*>(s.words), 0, (s.high + 3) / 4 * sizeof(Rec));
  std::memset(static_cast<void*>(s.words + s.ns_lo / 4), 0, (kArenaBytes - s.ns_lo) / 4 * sizeof(Rec));
  std::memset(s.split, 0, kArenaBytes / 4);
  std::memset(s.fast, 0, kArenaBytes / 4 * sizeof *s.fast);
  std::memset(s.seen, 0, sizeof s.seen);
  std::memset(s.whole, 0, sizeof s.whole);
  s.now = 0;
  s.wseq = 0;
}

}  // namespace

unsigned char* shared_arena_create() {
  auto* s = new State;
  void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) fatal("cannot allocate shared memory");
  s->base = static_cast<unsigned char*>(p);
  {
    // Touched only where blocks place arrays: the pages stay unmapped otherwise.
    void* q = mmap(nullptr, kArenaBytes * sizeof(Rec), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (q == MAP_FAILED) fatal("cannot allocate the shared-memory shadow");
    s->shadow = static_cast<Rec*>(q);
    q = mmap(nullptr, kArenaBytes / 4 * sizeof(Rec) + kArenaBytes / 4, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (q == MAP_FAILED) fatal("cannot allocate the shared-memory shadow");
    s->words = static_cast<Rec*>(q);
    s->split = reinterpret_cast<unsigned char*>(s->words + kArenaBytes / 4);
    // One word more: read_fast looks at two words from the arena's last.
    q = mmap(nullptr, (kArenaBytes / 4 + 4) * sizeof *s->fast, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (q == MAP_FAILED) fatal("cannot allocate the shared-memory shadow");
    s->fast = static_cast<std::uint64_t*>(q);
  }
  std::memset(s->seen, 0, sizeof s->seen);
  std::memset(s->whole, 0, sizeof s->whole);
  tls_state = s;
  return s->base + kRedzone;
}

void shared_block_begin(int nthreads, std::size_t dyn) {
  State& s = *tls_state;
  if (s.now >= 0xfffffff0u || s.wseq >= 0xfffffff0u - 1024) reset_times(s);
  s.block_start = ++s.now;
  s.cur = &tls_worker->cur;
  ++s.wseq;
  s.nthreads = nthreads;
  for (int t = 0; t < nthreads; ++t) s.e[t] = s.wseq;
  s.dyn = dyn;
  s.pending = false;
  s.arrays.clear();
  tls_last_array = nullptr;
  if (dyn) s.arrays.push_back({reinterpret_cast<std::uintptr_t>(s.base + kRedzone),
                               reinterpret_cast<std::uintptr_t>(s.base + kRedzone + dyn), 1, nullptr, nullptr, 0});
  s.bump = kRedzone + round_up(dyn, 16) + kRedzone;
  s.static_bytes = 0;
  s.high = std::max(s.high, s.bump);
  // Namespace-scope arrays: in every block, unwritten again (their shadow records
  // are older than this block's start) and poisoned like the others.
  for (const Array& arr : s.ns_arrays) {
    std::memset(reinterpret_cast<void*>(arr.lo), 0xff, arr.hi - arr.lo);
    s.arrays.push_back(arr);
  }
  tls_shared_gen = ++s.gen;
  tls_lo = reinterpret_cast<std::uintptr_t>(s.base);
  tls_len = g_check_on.load(std::memory_order_relaxed) ? kArenaBytes : 0;
}

void shared_block_end() {
  if (tls_len && tls_state->pending) warn_pending();
  tls_shared_gen = kNoBlock;
  tls_len = 0;
}

void shared_barrier() {
  if (!tls_len) return;
  if (tls_state->pending) warn_pending();
  ++tls_state->now;
}

void shared_warp_sync(int base, unsigned group) {
  if (!tls_len) return;
  State& s = *tls_state;
  const std::uint32_t op = ++s.wseq;
  // A whole warp's operation, the common case: every lane has now synced with every
  // other at op, which is later than anything in their rows. The warp's `whole` says so
  // for all 32 rows at once (this was a sort's checks' busiest loop); each lane's own
  // last operation is op.
  if (group == 0xffffffffu) {
    s.whole[base >> 5] = op;
    std::fill(s.e + base, s.e + base + 32, op);
    return;
  }
  // After the operation each lane of the group has synced with every lane of the group
  // at this very operation (op), and with a lane the mask leaves out as far as any
  // member had: the maximum over the members, each row raised to the warp's `whole`.
  std::uint32_t merged[32];
  std::fill(std::begin(merged), std::end(merged), op);
  for (unsigned out = ~group; out; out &= out - 1) {
    const int l = __builtin_ctz(out);
    std::uint32_t latest = s.whole[base >> 5];
    for (unsigned g = group; g; g &= g - 1) latest = std::max(latest, s.seen[base + __builtin_ctz(g)][l]);
    merged[l] = latest;
  }
  for (unsigned g = group; g; g &= g - 1) {
    const int t = base + __builtin_ctz(g);
    std::memcpy(s.seen[t], merged, sizeof merged);
    s.e[t] = op;
  }
}


// What a GPU refuses: more than 48 KiB of static shared memory in a kernel (ptxas stops
// the build), or static and dynamic together above what the device lets a block opt
// into (the launch fails). The emulator learns a kernel's static arrays only as its
// threads reach them, so it reports either at the declaration that crosses the line.
void check_shared_limits(const State& s, const char* name, const char* file, int line) {
  constexpr std::size_t kStaticLimit = 48 * 1024;
  const DeviceProfile& gpu = device_profile();
  const std::string where = "__shared__ " + std::string(name) + " (declared at " + fmt_site(Site{file, line}) +
                            ") in " + describe_kernel(*tls_worker);
  if (s.static_bytes > kStaticLimit)
    fatal("too much static shared memory: " + where + " brings the block's __shared__ arrays to " +
          std::to_string(s.static_bytes) + " bytes, above the 48 KiB (49152 bytes) a kernel may declare; nvcc " +
          "refuses it. Above 48 KiB use extern __shared__ and cudaFuncSetAttribute");
  if (s.static_bytes + s.dyn > gpu.shared_optin)
    fatal("too much shared memory for the " + std::string(gpu.name) + " (PPLAB_SIM_DEVICE=" + gpu.key + "): " + where +
          " brings the block to " + std::to_string(s.static_bytes) + " static and " + std::to_string(s.dyn) +
          " dynamic bytes, above the " + std::to_string(gpu.shared_optin) +
          " a block may have there; the launch fails on that GPU");
}

void* shared_place(SharedSlot& slot, std::size_t size, std::size_t align, std::size_t elem, const char* name,
                   const char* file, int line) {
  if (!tls_worker || !tls_state || tls_shared_gen == kNoBlock) return nullptr;
  State& s = *tls_state;
  const std::size_t off = round_up(s.bump, std::max<std::size_t>(align, 16));
  if (off + size + kRedzone > s.ns_lo)
    fatal("too much shared memory in " + describe_kernel(*tls_worker) + ": __shared__ " + name + " (declared at " +
          fmt_site(Site{file, line}) + ") does not fit beside the block's other shared memory");
  s.bump = off + size + kRedzone;
  s.high = std::max(s.high, s.bump);
  s.static_bytes += size;
  check_shared_limits(s, name, file, line);
  unsigned char* p = s.base + off;
  // Poison values too, for runs with checking off: a read before any write shows
  // as NaN / -1, not as the last block's data.
  std::memset(p, 0xff, size);
  tls_last_array = nullptr;  // the vector may move
  s.arrays.push_back({reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p + size),
                      std::max<std::size_t>(elem, 1), name, file, line});
  slot.gen = tls_shared_gen;
  slot.ptr = p;
  return p;
}

void* shared_place_namespace(std::size_t size, std::size_t align, std::size_t elem, const char* name,
                             const char* file, int line) {
  if (!tls_state) pplab::sim::dynamic_smem();  // an OS thread that has not run a block yet: make its arena
  State& s = *tls_state;
  const std::size_t a = std::max<std::size_t>(align, 16);
  const std::size_t need = size + kRedzone;
  // Below it, room for the largest dynamic shared memory and this block's arrays.
  if (s.ns_lo < need || (s.ns_lo - need) / a * a < std::max(s.bump, 2 * kRedzone + kMaxDynSmem))
    fatal(std::string("too much shared memory: namespace-scope __shared__ ") + name + " (declared at " +
          fmt_site(Site{file, line}) + ") does not fit beside the other shared memory");
  s.ns_lo = (s.ns_lo - need) / a * a;
  unsigned char* p = s.base + s.ns_lo;
  std::memset(p, 0xff, size);
  const Array arr{reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p + size),
                  std::max<std::size_t>(elem, 1), name, file, line};
  s.ns_arrays.push_back(arr);
  if (tls_shared_gen != kNoBlock) {  // placed by a thread of the running block: part of it now
    tls_last_array = nullptr;
    s.arrays.push_back(arr);
  }
  return p;
}

}  // namespace pplab::sim::detail

namespace pplab::sim {
void set_shared_check(bool on) { detail::g_check_on.store(on); }
bool shared_check() { return detail::g_check_on.load(); }
}  // namespace pplab::sim

// The plain read/write hooks live in a section of their own so that a program
// counter sampled inside one (a kernel spinning on a shared flag) can be traced
// back to the kernel's line: they are leaves, so the return address is on top of
// the stack. The linker defines the section's bounds.
#define PPLAB_SIM_FAST_HOOK extern "C" __attribute__((section("pplab_sim_hooks"), used))
extern "C" char __start_pplab_sim_hooks[], __stop_pplab_sim_hooks[];

extern "C" char __start_pplab_sim_slow[], __stop_pplab_sim_slow[];

void* pplab::sim::detail::shared_user_pc(void* pc, void* sp) {
  char* p = static_cast<char*>(pc);
  if (p >= __start_pplab_sim_slow && p < __stop_pplab_sim_slow && tls_slow_pc) return const_cast<void*>(tls_slow_pc);
  if (p >= __start_pplab_sim_hooks && p < __stop_pplab_sim_hooks && sp) return *static_cast<void**>(sp);
  return pc;
}

// ------------------------------------------------------------------ hooks ----
// What GCC's -fsanitize=thread instrumentation calls. Only the sim's rewritten
// sources are instrumented; these are the whole runtime they need.
using pplab::sim::detail::check;
using pplab::sim::detail::in_arena;
using K = pplab::sim::detail::Kind;

#define PPLAB_SIM_HOOK(fn, n, kind)                                                                      \
  PPLAB_SIM_FAST_HOOK void fn(void* p) {                                                                 \
    if (__builtin_expect(in_arena(p), 0)) check(reinterpret_cast<std::uintptr_t>(p), n, kind, __builtin_return_address(0)); \
  }
// Whole-word reads try read_fast first.
#define PPLAB_SIM_READ_HOOK(fn, n)                                                                       \
  PPLAB_SIM_FAST_HOOK void fn(void* p) {                                                                 \
    if (__builtin_expect(in_arena(p), 0) && !pplab::sim::detail::read_fast(p, n / 4))                     \
      check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_read, __builtin_return_address(0));         \
  }
PPLAB_SIM_HOOK(__tsan_read1, 1, K::plain_read)
PPLAB_SIM_HOOK(__tsan_read2, 2, K::plain_read)
PPLAB_SIM_READ_HOOK(__tsan_read4, 4)
PPLAB_SIM_READ_HOOK(__tsan_read8, 8)
PPLAB_SIM_HOOK(__tsan_read16, 16, K::plain_read)
PPLAB_SIM_HOOK(__tsan_write1, 1, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write2, 2, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write4, 4, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write8, 8, K::plain_write)
PPLAB_SIM_HOOK(__tsan_write16, 16, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_read2, 2, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read4, 4, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read8, 8, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_read16, 16, K::plain_read)
PPLAB_SIM_HOOK(__tsan_unaligned_write2, 2, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write4, 4, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write8, 8, K::plain_write)
PPLAB_SIM_HOOK(__tsan_unaligned_write16, 16, K::plain_write)
#undef PPLAB_SIM_HOOK
#undef PPLAB_SIM_READ_HOOK

PPLAB_SIM_FAST_HOOK void __tsan_read_range(void* p, unsigned long n) {
  if (__builtin_expect(in_arena(p), 0) && n) check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_read, __builtin_return_address(0));
}
PPLAB_SIM_FAST_HOOK void __tsan_write_range(void* p, unsigned long n) {
  if (__builtin_expect(in_arena(p), 0) && n) check(reinterpret_cast<std::uintptr_t>(p), n, K::plain_write, __builtin_return_address(0));
}
extern "C" void __tsan_init() {}
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}

// Atomics: done for real (global memory is shared between workers); on shared
// memory they count for bounds and initialisation, never as a race.
namespace {
template <class T>
void atomic_check(const volatile T* p, K kind, const void* pc) {
  if (__builtin_expect(in_arena(p), 0)) check(reinterpret_cast<std::uintptr_t>(p), sizeof(T), kind, pc);
}
}  // namespace

// What every atomic hook does first: remember where the slow path was entered from
// (the faulting line of a report) and check the access. A macro, not a function, so
// that __builtin_return_address(0) is the hook's own caller.
#define PPLAB_SIM_ATOMIC_ENTRY(kind)                                \
  pplab::sim::detail::tls_slow_pc = __builtin_return_address(0); \
  atomic_check(a, kind, __builtin_return_address(0))
// __tsan_atomicN_fetch_<op>: __atomic_fetch_<op>, a read-modify-write.
#define PPLAB_SIM_ATOMIC_FETCH(bits, T, op)                                               \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_fetch_##op(volatile T* a, T v, int) { \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                \
    return __atomic_fetch_##op(a, v, __ATOMIC_SEQ_CST);                                   \
  }
// __tsan_atomicN_compare_exchange_strong and _weak: both done as a strong exchange.
#define PPLAB_SIM_ATOMIC_CAS(bits, T, strength)                                                                   \
  extern "C" PPLAB_SIM_SLOW int __tsan_atomic##bits##_compare_exchange_##strength(volatile T* a, T* c, T v, int, \
                                                                                  int) {                          \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                                        \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                       \
  }
#define PPLAB_SIM_ATOMICS(bits, T)                                                                        \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_load(const volatile T* a, int) {                      \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_read);                                                               \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                          \
  }                                                                                                       \
  extern "C" PPLAB_SIM_SLOW void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) {                \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_write);                                                              \
    /* A variable order would make GCC use seq_cst (an xchg); release is a plain store on x86 */          \
    if (mo == __ATOMIC_SEQ_CST) __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                 \
    else __atomic_store_n(a, v, __ATOMIC_RELEASE);                                                        \
  }                                                                                                       \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                   \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_write);                                                              \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                       \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, add)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, sub)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, and)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, or)                                                                     \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, xor)                                                                    \
  PPLAB_SIM_ATOMIC_FETCH(bits, T, nand)                                                                   \
  PPLAB_SIM_ATOMIC_CAS(bits, T, strong)                                                                   \
  PPLAB_SIM_ATOMIC_CAS(bits, T, weak)                                                                     \
  extern "C" PPLAB_SIM_SLOW T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) { \
    PPLAB_SIM_ATOMIC_ENTRY(K::atomic_rmw);                                                                \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    return c;                                                                                             \
  }
PPLAB_SIM_ATOMICS(8, std::uint8_t)
PPLAB_SIM_ATOMICS(16, std::uint16_t)
PPLAB_SIM_ATOMICS(32, std::uint32_t)
PPLAB_SIM_ATOMICS(64, std::uint64_t)
#undef PPLAB_SIM_ATOMICS
#undef PPLAB_SIM_ATOMIC_CAS
#undef PPLAB_SIM_ATOMIC_FETCH
#undef PPLAB_SIM_ATOMIC_ENTRY

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
