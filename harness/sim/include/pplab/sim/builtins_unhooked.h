// threadIdx, blockIdx, blockDim and gridDim as the instrumented code reads them.
//
// In a build with the shared-memory checks' instrumentation (-fsanitize=thread),
// every read of one of these thread_local variables would first call a hook, only
// for the hook to find that the address is not shared memory. Here each name reads
// its variable's fields in asm, which the instrumentation does not see (ld, in
// pplab/sim/fiber.h): a field read costs one load again. Included last by
// pplab/sim/sim.h, so the sim's own headers, which also write them, see the
// variables. The macro does not expand inside itself: `::threadIdx` is the variable.
#pragma once
#if defined(__SANITIZE_THREAD__) && defined(__x86_64__)
#include "pplab/sim/builtins.h"
#include "pplab/sim/fiber.h"

namespace pplab::sim::detail {
[[gnu::always_inline]] inline uint3 builtin_value(const uint3& v) { return uint3{ld(v.x), ld(v.y), ld(v.z)}; }
[[gnu::always_inline]] inline dim3 builtin_value(const dim3& v) { return dim3(ld(v.x), ld(v.y), ld(v.z)); }
}  // namespace pplab::sim::detail

#define threadIdx (::pplab::sim::detail::builtin_value(::threadIdx))
#define blockIdx (::pplab::sim::detail::builtin_value(::blockIdx))
#define blockDim (::pplab::sim::detail::builtin_value(::blockDim))
#define gridDim (::pplab::sim::detail::builtin_value(::gridDim))
#endif
