// The device's work queue: launches, asynchronous copies, event records and host
// callbacks run in the order they were queued, on one device thread, while the host
// goes on. One queue serves every stream, which keeps each stream in order (CUDA
// allows streams to run concurrently but never requires it). Synchronising calls
// wait for a ticket: the last one queued on a stream, by an event, or overall.
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "internal.h"

namespace pplab::sim::detail {
namespace {
struct Op {
  std::uint64_t ticket;
  void (*fn)(void*);
  void* arg;
};
struct Queue {
  std::mutex mu;
  std::condition_variable wake, done;
  std::deque<Op> ops;
  std::uint64_t queued = 0, completed = 0;
  std::map<cudaStream_t, std::uint64_t> last;  // the last ticket queued on each stream
  bool started = false;
};
Queue& queue() {
  static auto* q = new Queue;  // never destroyed: the device thread runs until the process exits
  return *q;
}

thread_local bool t_device_thread = false;

void device_main() {
  t_device_thread = true;
  Queue& q = queue();
  for (;;) {
    Op op;
    {
      std::unique_lock<std::mutex> lk(q.mu);
      q.wake.wait(lk, [&] { return !q.ops.empty(); });
      op = q.ops.front();
    }
    op.fn(op.arg);
    std::lock_guard<std::mutex> lk(q.mu);
    q.ops.pop_front();
    q.completed = op.ticket;
    q.done.notify_all();
  }
}
// A program that returns from main without synchronising still sees its kernels
// finish (and their printf output), as it would have when launches were synchronous.
void drain_at_exit() { wait_all(); }
}  // namespace

std::uint64_t enqueue(cudaStream_t stream, void (*fn)(void*), void* arg) {
  Queue& q = queue();
  std::lock_guard<std::mutex> lk(q.mu);
  if (!q.started) {
    q.started = true;
    std::thread(device_main).detach();
    std::atexit(drain_at_exit);
  }
  const std::uint64_t t = ++q.queued;
  q.ops.push_back(Op{t, fn, arg});
  q.last[stream] = t;
  q.wake.notify_one();
  return t;
}

void wait_ticket(std::uint64_t ticket) {
  // A host callback (or a kernel) calling a synchronising API would wait for itself;
  // CUDA forbids it, and here it returns rather than hang.
  if (t_device_thread) return;
  Queue& q = queue();
  std::unique_lock<std::mutex> lk(q.mu);
  q.done.wait(lk, [&] { return q.completed >= ticket; });
}
bool ticket_done(std::uint64_t ticket) {
  Queue& q = queue();
  std::lock_guard<std::mutex> lk(q.mu);
  return q.completed >= ticket;
}
void wait_all() {
  std::uint64_t t;
  {
    Queue& q = queue();
    std::lock_guard<std::mutex> lk(q.mu);
    t = q.queued;
  }
  wait_ticket(t);
}
static std::uint64_t last_ticket(cudaStream_t stream) {
  Queue& q = queue();
  std::lock_guard<std::mutex> lk(q.mu);
  // The legacy default stream waits for every stream, and every stream for it.
  if (stream == nullptr || stream == cudaStreamLegacy) return q.queued;
  auto it = q.last.find(stream);
  return it == q.last.end() ? 0 : it->second;
}
void wait_stream(cudaStream_t stream) { wait_ticket(last_ticket(stream)); }
bool stream_idle(cudaStream_t stream) { return ticket_done(last_ticket(stream)); }
}  // namespace pplab::sim::detail

namespace pplab::sim {
using namespace detail;

namespace {
struct QueuedLaunch {
  LaunchDesc* desc;
  void (*destroy)(void*);
  void* owner;
};
void run_queued_launch(void* p) {
  auto* l = static_cast<QueuedLaunch*>(p);
  launch(*l->desc);
  l->destroy(l->owner);
  delete l;
}
}  // namespace

void launch_async(LaunchDesc* d, void (*destroy)(void*), void* owner, cudaStream_t stream) {
  // From device code (dynamic parallelism) or with a bad configuration: launch()
  // reports it now, as CUDA's launch returns the error.
  if (tls_worker || !launch_config_ok(*d) || sticky_error() != cudaSuccess) {
    launch(*d);
    destroy(owner);
    return;
  }
  count_launch();  // counted when issued, so traffic() is right before the launch runs
  d->counted = true;
  enqueue(stream, run_queued_launch, new QueuedLaunch{d, destroy, owner});
}
}  // namespace pplab::sim
