// The checks of one access to shared memory: the hooks' slow path, for every access
// inside the running block's arena that the hooks' read fast path cannot clear
// (shared_hooks.cpp).
//
// For an arena byte check() checks, in order:
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
//
// check_record applies the race and initialisation rules to one record; check() finds
// the records an access covers (its array's bounds first) and keeps, beside each whole
// word's record, the summary the read fast path reads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "internal.h"
#include "shared_check_internal.h"

namespace pplab::sim::detail {
namespace {

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

}  // namespace

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

}  // namespace pplab::sim::detail
