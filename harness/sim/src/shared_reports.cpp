// The checked shared memory's reports. An access outside every array of the block
// (report_oob) and a race between two threads' accesses (report_race) end the
// process; a read of bytes no thread of the block has written is a warning
// (warn_uninit says why), held back until the next barrier (warn_pending) so that a
// race on those bytes is reported as the race it is. Each names the kernel, the
// thread, the element and its array, and the source line of each access, found from
// the hook's return address.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

#include "internal.h"
#include "shared_check_internal.h"

namespace pplab::sim::detail {
namespace {

std::string line_of(const void* pc) {
  if (!pc) return "an unknown line";
  // The hook's return address is just after the call: the call itself is one byte back.
  std::string s = source_line(const_cast<char*>(static_cast<const char*>(pc)) - 1);
  return s.empty() ? "an unknown line (build with line tables: -g1)" : s;
}

std::string thread_name(const Worker& w, int t) {
  return "thread " + fmt_idx(w.idx[t]) + " (warp " + std::to_string(t / 32) + ", lane " + std::to_string(t % 32) + ")";
}

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

}  // namespace

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

}  // namespace pplab::sim::detail
