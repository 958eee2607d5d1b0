// CUDA's pipeline primitives (sm_80 and later): copies from global to shared memory that
// run while the thread goes on, in batches ("stages") it commits and later waits for.
//
//   __pipeline_memcpy_async(dst_shared, src_global, size_and_align, zfill = 0)
//   __pipeline_commit()            closes the batch of copies issued since the last commit
//   __pipeline_wait_prior(prior)   waits until at most `prior` of the newest batches are pending
//
// Here a copy is only recorded when it is issued and carried out when a wait covers its
// batch, so code that reads the destination before waiting reads the block's fill
// pattern (or is reported by the shared-memory checks) instead of the data: the bug a
// GPU hides when the copy happens to be quick. A copy issued and never waited for is
// dropped when the block ends. Each CUDA thread has its own batches, as on a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "pplab/sim/fiber.h"
#include "pplab/sim/shared_check.h"

namespace pplab::sim::detail {

// A word of a copy, read and written through any type (the copy's element type is not known).
using SharedWord = std::uint32_t __attribute__((may_alias));

struct PendingCopy {
  unsigned char* dst;
  const unsigned char* src;
  std::size_t bytes;  // copied from src
  std::size_t zeros;  // then written as zero
  std::uint64_t batch;
};

// One CUDA thread's copies. `block` says which block they belong to: a new block's
// thread finds the last block's leftovers and drops them.
struct Pipeline {
  std::uint64_t block = kNoBlock;
  std::uint64_t committed = 0;  // batches closed so far; the open batch's number
  std::vector<PendingCopy> pending;
};

inline thread_local Pipeline tls_pipelines[kMaxThreads];

inline Pipeline& this_thread_pipeline() {
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  Pipeline& p = tls_pipelines[thread];
  if (p.block != ld(tls_shared_gen)) {
    p.block = ld(tls_shared_gen);
    p.committed = 0;
    p.pending.clear();
  }
  return p;
}

[[noreturn]] inline void pipeline_misuse(const char* what, std::size_t value) {
  std::fprintf(stderr, "pplab-sim: __pipeline_memcpy_async: %s (got %zu), thread (%u,%u,%u) of block (%u,%u,%u)\n",
               what, value, threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z);
  __builtin_trap();
}

}  // namespace pplab::sim::detail

inline void __pipeline_memcpy_async(void* __restrict__ dst_shared, const void* __restrict__ src_global,
                                    std::size_t size_and_align, std::size_t zfill = 0) {
  using namespace pplab::sim::detail;
  if (size_and_align != 4 && size_and_align != 8 && size_and_align != 16)
    pipeline_misuse("size_and_align must be 4, 8 or 16", size_and_align);
  if (zfill > size_and_align) pipeline_misuse("zfill must not exceed size_and_align", zfill);
  if (reinterpret_cast<std::uintptr_t>(dst_shared) % size_and_align != 0)
    pipeline_misuse("the shared-memory address must be aligned to size_and_align", size_and_align);
  if (reinterpret_cast<std::uintptr_t>(src_global) % size_and_align != 0)
    pipeline_misuse("the global-memory address must be aligned to size_and_align", size_and_align);
  Pipeline& p = this_thread_pipeline();
  p.pending.push_back({static_cast<unsigned char*>(dst_shared), static_cast<const unsigned char*>(src_global),
                       size_and_align - zfill, zfill, p.committed});
}

inline void __pipeline_commit() { ++pplab::sim::detail::this_thread_pipeline().committed; }

inline void __pipeline_wait_prior(std::size_t prior) {
  using namespace pplab::sim::detail;
  Pipeline& p = this_thread_pipeline();
  std::size_t kept = 0;
  for (const PendingCopy& copy : p.pending) {
    // Batch b is among the `prior` newest closed batches when b + prior >= committed; the
    // open batch (b == committed) always stays pending.
    if (copy.batch + prior >= p.committed) {
      p.pending[kept++] = copy;
      continue;
    }
    // In code the shared-memory checks instrument: the write is this thread's, now. By
    // 4-byte words where the copy has them (both ends are aligned to 4, 8 or 16), so
    // the checks keep one record per word; a zfill that is not whole words ends in bytes.
    std::size_t i = 0;
    for (; i + 4 <= copy.bytes; i += 4)
      *reinterpret_cast<SharedWord*>(copy.dst + i) = *reinterpret_cast<const SharedWord*>(copy.src + i);
    for (; i < copy.bytes; ++i) copy.dst[i] = copy.src[i];
    const std::size_t end = copy.bytes + copy.zeros;
    for (; i < end && i % 4 != 0; ++i) copy.dst[i] = 0;
    for (; i + 4 <= end; i += 4) *reinterpret_cast<SharedWord*>(copy.dst + i) = 0;
    for (; i < end; ++i) copy.dst[i] = 0;
  }
  p.pending.resize(kept);
}
