// Warp operations: what __syncwarp, the votes, the shuffles, __match_any_sync, the
// __reduce_*_sync and __activemask give each lane, and the reports of an operation
// that cannot be met (a mask without the calling lane, a lane the mask names at
// another operation, a shuffle from a lane the mask leaves out). A warp operation is a
// rendezvous: its lanes wait (warp_op, scheduler.cpp) until the round ends, and then
// the groups whose lanes have all arrived are released here, each lane with its
// result, computed from the values all of them brought.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "internal.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::shfl: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::match_any: return "__match_any_sync";
    case WarpOp::active: return "__activemask";
    case WarpOp::reduce_add: return "__reduce_add_sync";
    case WarpOp::reduce_min: return "__reduce_min_sync";
    case WarpOp::reduce_max: return "__reduce_max_sync";
    case WarpOp::reduce_and: return "__reduce_and_sync";
    case WarpOp::reduce_or: return "__reduce_or_sync";
    case WarpOp::reduce_xor: return "__reduce_xor_sync";
  }
  return "warp op";
}

namespace {

unsigned exist_mask(const Worker& w, int warp) {
  int lanes = std::min(32, w.n - warp * 32);
  return lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1);
}

// The value every lane of `group` gets from a __reduce_*_sync: the 32-bit values of
// the group's lanes combined, min and max compared signed when `is_signed`.
std::uint64_t warp_reduction(const Worker& w, int base, unsigned group, WarpOp op, bool is_signed) {
  std::uint32_t acc = 0;
  bool first = true;
  for (unsigned g = group; g; g &= g - 1) {
    const auto v = static_cast<std::uint32_t>(w.threads[base + __builtin_ctz(g)].value);
    const bool less = is_signed ? static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) : v < acc;
    if (first) acc = v;
    else if (op == WarpOp::reduce_add) acc += v;
    else if (op == WarpOp::reduce_min) acc = less ? v : acc;
    else if (op == WarpOp::reduce_max) acc = less ? acc : v;
    else if (op == WarpOp::reduce_and) acc &= v;
    else if (op == WarpOp::reduce_or) acc |= v;
    else acc ^= v;
    first = false;
  }
  return acc;
}

}  // namespace

// Resolves complete warp groups; returns how many threads it released. A group
// whose lanes are elsewhere may still complete once another group moves on, so it
// is only diagnosed (diagnose = true) when nothing at all can make progress.
int resolve_warps(Worker& w, bool diagnose) {
  int released = 0;
  for (int wi = 0; wi < w.nwarps; ++wi) {
    int base = wi * 32;
    int lanes = std::min(32, w.n - base);
    unsigned waiting = 0;
    for (int l = 0; l < lanes; ++l)
      if (w.state[base + l] == TState::warp) waiting |= 1u << l;
    while (waiting) {
      int leader = __builtin_ctz(waiting);
      Thread& lt = w.threads[base + leader];
      if (lt.wop == WarpOp::active) {
        // Everything else in the warp has exited or waits elsewhere: the lanes at
        // this same __activemask() call are the converged ones.
        unsigned group = 0;
        for (unsigned g = waiting; g; g &= g - 1) {
          int l = __builtin_ctz(g);
          if (w.threads[base + l].wop == WarpOp::active && same_site(w.site[base + l], w.site[base + leader]))
            group |= 1u << l;
        }
        for (unsigned g = group; g; g &= g - 1) {
          int l = __builtin_ctz(g);
          w.threads[base + l].result = group;
          w.state[base + l] = TState::runnable;
          --w.at_warp;
          ++released;
        }
        waiting &= ~group;
        continue;
      }
      unsigned group = lt.mask & exist_mask(w, wi);
      char buf[160];
      if (!(group & (1u << leader))) {
        std::snprintf(buf, sizeof buf, "%s at %s: mask 0x%08x does not include the calling lane %d",
                      warp_op_name(lt.wop), fmt_site(w.site[base + leader]).c_str(), lt.mask, leader);
        fatal(std::string("bad warp mask in ") + describe_kernel(w) + ", thread " + fmt_idx(w.idx[base + leader]) + ": " + buf);
      }
      bool complete = true;
      for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        Thread& o = w.threads[base + l];
        if (w.state[base + l] == TState::warp && o.wop == lt.wop && o.mask == lt.mask) continue;
        if (!diagnose) {
          complete = false;
          break;
        }
        std::snprintf(buf, sizeof buf, "%s(mask 0x%08x) at %s", warp_op_name(lt.wop), lt.mask,
                      fmt_site(w.site[base + leader]).c_str());
        fatal(std::string("warp operation cannot complete in ") + describe_kernel(w) + ":\n  thread " +
              fmt_idx(w.idx[base + leader]) + " (lane " + std::to_string(leader) + " of warp " + std::to_string(wi) +
              ") waits at " + buf + "\n  but lane " + std::to_string(l) + " named in the mask (thread " +
              fmt_idx(w.idx[base + l]) + ") " + where(w, base + l) +
              "\n  every lane named in the mask must reach the same warp operation with the same mask.");
      }
      if (!complete) {
        waiting &= ~(1u << leader);
        continue;
      }
      // All lanes arrived: compute CUDA's results. The vote only for the votes: this
      // loop is a fifth of a warp-heavy kernel's time when run for every operation.
      const bool votes = lt.wop == WarpOp::ballot || lt.wop == WarpOp::any || lt.wop == WarpOp::all;
      unsigned ballot = 0;
      for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        ballot |= unsigned{w.threads[base + l].value != 0} << l;  // no branch: the votes are data
      }
      // A reduction gives every lane the same value: combined once for the group.
      const bool reduces = lt.wop == WarpOp::reduce_add || lt.wop == WarpOp::reduce_min ||
                           lt.wop == WarpOp::reduce_max || lt.wop == WarpOp::reduce_and ||
                           lt.wop == WarpOp::reduce_or || lt.wop == WarpOp::reduce_xor;
      const std::uint64_t reduced = reduces ? warp_reduction(w, base, group, lt.wop, lt.arg != 0) : 0;
      for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        Thread& t = w.threads[base + l];
        int width = t.width;
        if (width <= 0 || width > 32 || (width & (width - 1))) width = 32;
        int seg = l & ~(width - 1);
        int src = -1;
        switch (lt.wop) {  // every lane's (checked above); the leader's is read once
          case WarpOp::sync: t.result = 0; break;
          case WarpOp::ballot: t.result = ballot; break;
          case WarpOp::any: t.result = ballot != 0; break;
          case WarpOp::all: t.result = ballot == group; break;
          case WarpOp::match_any: {
            unsigned same = 0;
            for (unsigned h = group; h; h &= h - 1) {
              const int m = __builtin_ctz(h);
              if (w.threads[base + m].value == t.value) same |= 1u << m;
            }
            t.result = same;
            break;
          }
          case WarpOp::reduce_add:
          case WarpOp::reduce_min:
          case WarpOp::reduce_max:
          case WarpOp::reduce_and:
          case WarpOp::reduce_or:
          case WarpOp::reduce_xor: t.result = reduced; break;
          case WarpOp::shfl: src = seg + (t.arg & (width - 1)); break;
          case WarpOp::shfl_up:
            src = (static_cast<unsigned>(l - seg) >= static_cast<unsigned>(t.arg)) ? l - t.arg : l;
            break;
          case WarpOp::shfl_down:
            src = (static_cast<unsigned>(l - seg) + static_cast<unsigned>(t.arg) < static_cast<unsigned>(width))
                      ? l + t.arg : l;
            break;
          case WarpOp::shfl_xor: {
            int x = l ^ t.arg;
            src = (x >= 0 && x < seg + width && x < 32) ? x : l;  // later segments: own value
            break;
          }
        }
        if (src >= 0) {
          // Reading a lane of the block that the mask leaves out is undefined in CUDA
          // (a GPU returns whatever that lane's register holds): report it. A lane past
          // the block's last thread (a partial warp) gives the caller's own value.
          if (!((group >> src) & 1u) && ((exist_mask(w, wi) >> src) & 1u)) {
            std::snprintf(buf, sizeof buf, "%s at %s (mask 0x%08x): lane %d reads lane %d, which the mask leaves out",
                          warp_op_name(t.wop), fmt_site(w.site[base + l]).c_str(), t.mask, l, src);
            fatal(std::string("undefined shuffle in ") + describe_kernel(w) + ", thread " + fmt_idx(w.idx[base + l]) +
                  ": " + buf + "\n  a shuffle's source lane must be named in its mask (CUDA leaves the result undefined).");
          }
          t.result = ((group >> src) & 1u) ? w.threads[base + src].value : t.value;
        }
        w.state[base + l] = TState::runnable;
      }
      shared_warp_sync(base, group);
      const int members = __builtin_popcount(group);
      w.at_warp -= members;
      released += members;
      waiting &= ~group;
    }
  }
  return released;
}

}  // namespace pplab::sim::detail
