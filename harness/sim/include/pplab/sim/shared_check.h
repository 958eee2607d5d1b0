// Checked shared memory: where a block's static __shared__ arrays live.
//
// pplab-sim-rewrite turns a function-scope `__shared__ float tile[64];` into
//
//   static thread_local float pplab_sim_shared_tile[64];
//   static thread_local ::pplab::sim::SharedSlot pplab_sim_slot_tile;
//   auto& tile = ::pplab::sim::shared_static(pplab_sim_shared_tile, pplab_sim_slot_tile,
//                                            __alignof__(pplab_sim_shared_tile), "tile", __FILE__, __LINE__);
//
// all on the declaration's line. The thread_local variable only carries the type
// and alignment; the array itself is placed in the running block's shared-memory
// arena (next to the dynamic shared memory, with unused bytes between arrays), the
// first time a thread of the block reaches the declaration. The arena is what the
// checks in src/shared_check.cpp watch: poisoned at every block start, bounds
// between the arrays, and shadow records (per word, or per byte) for races.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "pplab/sim/fiber.h"

namespace pplab::sim {
// Where one declaration's array is for the block that placed it last on this worker.
struct SharedSlot {
  std::uint64_t gen;
  void* ptr;
};

namespace detail {
// The running block's number on this worker; never a slot's gen outside a block.
inline constexpr std::uint64_t kNoBlock = ~std::uint64_t{0};
inline thread_local std::uint64_t tls_shared_gen = kNoBlock;
// Places an array in the running block's arena; null outside a kernel.
void* shared_place(SharedSlot& slot, std::size_t size, std::size_t align, std::size_t elem, const char* name,
                   const char* file, int line);
// Places a namespace-scope array in this OS thread's arena for good: every block
// the thread runs from now on has it, poisoned and checked like the others.
void* shared_place_namespace(std::size_t size, std::size_t align, std::size_t elem, const char* name,
                             const char* file, int line);
}  // namespace detail

// Checked shared memory on or off for the blocks that start from now on: the
// PPLAB_SIM_CHECK setting (on unless "off" or "0") until this is called.
void set_shared_check(bool on);
bool shared_check();

template <class T>
[[gnu::always_inline]] inline T& shared_static(T& proto, SharedSlot& slot, std::size_t align, const char* name,
                                               const char* file, int line) {
  // ld: the slot is the sim's bookkeeping, not shared memory, so the checks'
  // instrumentation does not see these loads (pplab/sim/fiber.h).
  if (__builtin_expect(detail::ld(slot.gen) == detail::ld(detail::tls_shared_gen), 1))
    return *static_cast<T*>(detail::ld(slot.ptr));
  void* p = detail::shared_place(slot, sizeof(T), align, sizeof(std::remove_all_extents_t<T>), name, file, line);
  // Outside a kernel (a __shared__ variable in code the host calls) there is no block.
  return p ? *static_cast<T*>(p) : proto;
}
// A namespace-scope `__shared__ float tile[64];` becomes
//
//   static thread_local float pplab_sim_shared_tile[64];
//   static thread_local auto& tile = ::pplab::sim::shared_namespace(pplab_sim_shared_tile, ...);
//
// bound the first time an OS thread uses it (a worker runs one block at a time,
// so one place per worker is one per running block).
template <class T>
T& shared_namespace(T&, std::size_t align, const char* name, const char* file, int line) {
  return *static_cast<T*>(
      detail::shared_place_namespace(sizeof(T), align, sizeof(std::remove_all_extents_t<T>), name, file, line));
}
}  // namespace pplab::sim
