// The checked shared memory's arena and its life with the blocks: made for each
// worker; when a block starts, a new start time (so every record of an earlier block
// reads as unwritten), the launch's dynamic shared memory and the namespace-scope
// arrays poisoned and placed; a new barrier interval at each __syncthreads(); each
// static __shared__ array placed the first time a thread of the block reaches its
// declaration, with the limits a GPU sets on them. The PPLAB_SIM_CHECK setting
// (set_shared_check) decides, block by block, whether the hooks check the arena.
#include "pplab/sim/shared_check.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "internal.h"
#include "pplab/sim/devices.h"
#include "shared_check_internal.h"

namespace pplab::sim::detail {
namespace {

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
