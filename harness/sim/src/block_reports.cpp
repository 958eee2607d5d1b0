// How the scheduler's reports describe a block: the kernel and block a report is
// about, where each thread waits (threads at the same place grouped into ranges), and
// the report of a __syncthreads() that cannot complete (a deadlock, barrier
// divergence). The fault handler and the watchdog (diagnostics.cpp) name a running
// thread's last rendezvous with the same words.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "internal.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

std::string where(const Worker& w, int i) {
  const Thread& t = w.threads[i];
  char buf[64];
  switch (w.state[i]) {
    case TState::barrier: return "waits at __syncthreads() at " + fmt_site(w.bar_site);
    case TState::barrier_elsewhere: return "waits at __syncthreads() at " + fmt_site(w.site[i]);
    case TState::warp:
      std::snprintf(buf, sizeof buf, "(mask 0x%08x)", t.mask);
      return std::string("waits at ") + warp_op_name(t.wop) + buf + " at " + fmt_site(w.site[i]);
    case TState::exited: return "has exited (returned from the kernel)";
    default: return "is running";
  }
}

namespace {

// Groups consecutive threads that are in the same place: "threads (0,0,0)..(127,0,0) [128] wait at ...".
std::string plural(std::string s) {
  if (s.rfind("waits ", 0) == 0) return "wait " + s.substr(6);
  if (s.rfind("has ", 0) == 0) return "have " + s.substr(4);
  if (s.rfind("is ", 0) == 0) return "are " + s.substr(3);
  return s;
}

// One line per place the block's threads are at: "threads (0,0,0)..(15,0,0)
// [16 threads] wait at __syncthreads() at f.cu:6", listing up to 4 ranges each.
std::string summarize_threads(const Worker& w) {
  struct Place {
    std::string where;
    int count = 0;
    std::vector<std::pair<int, int>> ranges;
  };
  std::vector<Place> places;
  for (int i = 0; i < w.n; ++i) {
    std::string here = where(w, i);
    auto it = std::find_if(places.begin(), places.end(), [&](const Place& p) { return p.where == here; });
    if (it == places.end()) {
      places.push_back(Place{here, 0, {}});
      it = places.end() - 1;
    }
    ++it->count;
    if (!it->ranges.empty() && it->ranges.back().second == i - 1)
      it->ranges.back().second = i;
    else
      it->ranges.push_back({i, i});
  }
  std::ostringstream out;
  for (const Place& p : places) {
    out << "  ";
    out << (p.count == 1 ? "thread " : "threads ");
    for (size_t r = 0; r < p.ranges.size() && r < 4; ++r) {
      if (r) out << ", ";
      out << fmt_idx(w.idx[p.ranges[r].first]);
      if (p.ranges[r].second != p.ranges[r].first) out << ".." << fmt_idx(w.idx[p.ranges[r].second]);
    }
    if (p.ranges.size() > 4) out << ", ...";
    if (p.count > 1) out << " [" << p.count << " threads]";
    out << " " << (p.count == 1 ? p.where : plural(p.where)) << "\n";
  }
  return out.str();
}

}  // namespace

[[noreturn]] void barrier_problem(Worker& w, const char* what) {
  fatal(std::string(what) + " in " + describe_kernel(w) + ":\n" + summarize_threads(w) +
        "  __syncthreads() must be reached by every thread of the block, at the same call.");
}

Site last_rendezvous(const Worker& w, int thread) {
  switch (w.state[thread]) {
    case TState::barrier: return w.released_site;  // it runs, so that barrier released it
    case TState::unstarted: return Site{};
    default: return w.site[thread];  // a warp op (state runnable once released), or nothing yet
  }
}

bool same_site(const Site& a, const Site& b) {
  return a.line == b.line && (a.file == b.file || (a.file && b.file && std::strcmp(a.file, b.file) == 0));
}

std::string describe_kernel(const Worker& w) {
  std::string s = "kernel '";
  s += w.launch ? w.launch->name : "?";
  s += "'";
  if (w.launch) s += " (launched at " + fmt_site(Site{w.launch->file, w.launch->line}) + ")";
  s += ", block " + fmt_idx(w.block);
  return s;
}

}  // namespace pplab::sim::detail
