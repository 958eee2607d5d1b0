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
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "internal.h"

namespace pplab::sim::detail {
namespace {
constexpr size_t kPage = 4096;
constexpr size_t kPoisonLimit = size_t{1} << 30;

std::mutex g_mu;
std::map<std::uintptr_t, AllocInfo>& table() {  // keyed by map_base
  static auto* t = new std::map<std::uintptr_t, AllocInfo>;
  return *t;
}
}  // namespace

void* allocate(size_t size, int kind) {
  size_t data = (size + kPage - 1) / kPage * kPage;
  size_t len = kPage + data + kPage;
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto base = reinterpret_cast<std::uintptr_t>(p);
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
