// Device allocations with guard pages.
//
// Each allocation gets its own mapping whose END lies exactly against a PROT_NONE
// page, so the first access past the end (element n of an n-element array) faults
// and the fault handler can name the allocation. The start is therefore aligned
// only to the largest power of two dividing the size, capped at 256 bytes (e.g. a
// 4000-byte allocation starts 32-byte aligned), which still covers every vector
// type of the element size the buffer was sized for. A guard page sits before the
// start too. New allocations are filled with 0xff bytes (NaN floats, -1 ints) so
// reading memory nobody wrote shows up, as it can on a GPU.
//
// Device memory is closed to the host. On a GPU, host code that dereferences a
// cudaMalloc pointer gets a segmentation fault; here the memory is the host's, so a
// submission that reads and writes device pointers on the host would pass on the
// emulator and fail on a GPU. So the data pages of every cudaMalloc/cudaMallocAsync
// allocation (kind 0) are PROT_NONE while nothing opens them, and the fault handler
// reports a fault there as host code touching device memory (diagnostics.cpp).
// Managed memory, pinned host memory and __device__ symbols stay open: the host may
// touch those on a GPU too. Protection is per process, not per thread (this CPU has no
// protection keys to give the device thread a view of its own), so device memory is
// opened for everyone while the device thread runs a launch or a copy, and while the
// runtime copies on the host thread (symbol copies); DeviceMemoryOpen counts the
// users, so overlapping ones nest and the last one closes it. The cost: two mprotect
// calls per live allocation per launch or copy, a few microseconds for the handful
// of buffers a lab holds. The gap: host code that touches device memory while a
// kernel or a copy is running is not caught.
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "internal.h"
#include "pplab/sim/device_memory.h"

namespace pplab::sim::detail {
namespace {
constexpr size_t kPage = 4096;
constexpr size_t kPoisonLimit = size_t{1} << 30;
constexpr size_t kHugePage = size_t{2} << 20;  // x86-64's and arm64's (4 KiB granule) transparent huge page

std::mutex g_mu;
std::map<std::uintptr_t, AllocInfo>& table() {  // keyed by map_base
  static auto* t = new std::map<std::uintptr_t, AllocInfo>;
  return *t;
}

// DeviceMemoryOpen scopes alive now (guarded by g_mu): device memory is open while
// this is above 0.
int g_open_scopes = 0;

// Opens or closes one allocation's data pages (the guard pages stay PROT_NONE).
void protect_data(const AllocInfo& a, int prot) {
  if (a.map_len > 2 * kPage) mprotect(reinterpret_cast<void*>(a.map_base + kPage), a.map_len - 2 * kPage, prot);
}

void protect_device_memory(int prot) {
  for (const auto& [base, a] : table())
    if (a.kind == 0) protect_data(a, prot);
}
}  // namespace

bool AllocInfo::in_data_pages(std::uintptr_t addr) const {
  return kind != 3 && addr >= map_base + kPage && addr < map_base + map_len - kPage;
}

void open_device_memory() {
  std::lock_guard<std::mutex> lk(g_mu);
  if (g_open_scopes++ == 0) protect_device_memory(PROT_READ | PROT_WRITE);
}

void close_device_memory() {
  std::lock_guard<std::mutex> lk(g_mu);
  if (--g_open_scopes == 0) protect_device_memory(PROT_NONE);
}

void* allocate(size_t size, int kind) {
  // Host code may touch device memory before the first launch installs the fault handler.
  if (kind == 0) install_device_memory_handler();
  size_t data = (size + kPage - 1) / kPage * kPage;
  size_t len = kPage + data + kPage;
  // Device memory of a huge page or more ends on a huge-page boundary and asks for
  // transparent huge pages: opening and closing it (every launch and copy) then changes
  // one page-table entry per 2 MiB rather than 512 (64 MiB: 6 us instead of 1.6 ms).
  const bool huge = kind == 0 && data >= kHugePage;
  const size_t slack = huge ? kHugePage : 0;
  void* p = mmap(nullptr, len + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto base = reinterpret_cast<std::uintptr_t>(p);
  if (huge) {
    // Keep the len bytes whose data ends on a boundary; give back the slack around them.
    const std::uintptr_t mapped = base;
    const std::uintptr_t end = (mapped + kPage + data + kHugePage - 1) & ~static_cast<std::uintptr_t>(kHugePage - 1);
    base = end - data - kPage;
    if (base > mapped) munmap(p, base - mapped);
    if (mapped + len + slack > base + len) munmap(reinterpret_cast<void*>(base + len), mapped + len + slack - (base + len));
    p = reinterpret_cast<void*>(base);
    madvise(reinterpret_cast<void*>(base + kPage), data, MADV_HUGEPAGE);
  }
  mprotect(p, kPage, PROT_NONE);
  mprotect(reinterpret_cast<void*>(base + kPage + data), kPage, PROT_NONE);
  // end is page aligned; size is a multiple of its lowest set bit, so start keeps
  // that alignment (capped at 256: larger powers of two are page multiples anyway
  // or need no more).
  std::uintptr_t end = base + kPage + data;
  std::uintptr_t start = end - size;
  size_t align = size ? (size & (~size + 1)) : 256;
  if (align > 256) align = 256;
  start &= ~(static_cast<std::uintptr_t>(align) - 1);  // no-op by construction; keeps the promise explicit
  if (size <= kPoisonLimit) std::memset(reinterpret_cast<void*>(start), 0xff, size);
  AllocInfo a{start, size, base, len, kind};
  std::lock_guard<std::mutex> lk(g_mu);
  // Poisoned above while still open; now device memory takes the state all the others are in.
  if (kind == 0 && g_open_scopes == 0) protect_data(a, PROT_NONE);
  table()[base] = a;
  return reinterpret_cast<void*>(start);
}

// __device__ variables are ordinary globals; cudaGetSymbolAddress registers them so
// copies to their addresses count as copies to device memory.
void register_symbol(const void* ptr, size_t size) {
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard<std::mutex> lk(g_mu);
  table()[p] = AllocInfo{p, size, p, size, 3};
}

bool release(void* ptr, int* kind_out) {
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard<std::mutex> lk(g_mu);
  auto& t = table();
  auto it = t.upper_bound(p);
  if (it == t.begin()) return false;
  --it;
  if (it->second.start != p || it->second.kind == 3) return false;
  if (kind_out) *kind_out = it->second.kind;
  munmap(reinterpret_cast<void*>(it->second.map_base), it->second.map_len);
  t.erase(it);
  return true;
}

bool find_alloc(std::uintptr_t addr, AllocInfo* out) {
  auto& t = table();
  auto it = t.upper_bound(addr);
  if (it == t.begin()) return false;
  --it;
  if (addr >= it->second.map_base + it->second.map_len) return false;
  *out = it->second;
  return true;
}

bool find_alloc_locked(std::uintptr_t addr, AllocInfo* out) {
  std::lock_guard<std::mutex> lk(g_mu);
  return find_alloc(addr, out);
}

void free_all() {
  std::lock_guard<std::mutex> lk(g_mu);
  for (auto& [base, a] : table())
    if (a.kind != 3) munmap(reinterpret_cast<void*>(a.map_base), a.map_len);
  table().clear();
}
}  // namespace pplab::sim::detail

namespace pplab::sim {
DeviceMemoryOpen::DeviceMemoryOpen() { detail::open_device_memory(); }
DeviceMemoryOpen::~DeviceMemoryOpen() { detail::close_device_memory(); }
}  // namespace pplab::sim
