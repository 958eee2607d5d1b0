// The warp operations' vector clocks, by which the race check (shared_check.cpp)
// knows that a warp operation whose mask named two lanes orders their accesses, as a
// __syncthreads() orders those of the whole block. Each lane keeps a small vector
// clock: seen[u][l] is the latest warp operation of lane l that lane u has synced
// with, directly or through other lanes, and e[u] is u's own last one, recorded with
// each of its accesses. A whole warp's operation is kept once for the warp
// (State::whole). shared_warp_sync moves the clocks on as the scheduler releases a
// warp group (warps.cpp).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "internal.h"
#include "shared_check_internal.h"

namespace pplab::sim::detail {

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

}  // namespace pplab::sim::detail
