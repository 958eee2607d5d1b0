// State shared by the sim's translation units (not installed for user code).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include <boost/context/detail/fcontext.hpp>

#include "pplab/sim/settings.h"
#include "pplab/sim/sim.h"

namespace pplab::sim::detail {
namespace bc = boost::context::detail;

constexpr size_t kDefaultDynSmem = 48 * 1024;
constexpr size_t kMaxDynSmem = 227 * 1024;

bool same_site(const Site& a, const Site& b);
struct Worker;
Site last_rendezvous(const Worker& w, int thread);  // where a running thread last waited (file null: nowhere yet)



// One CUDA thread of the block a worker is running (the fields a rendezvous
// touches on every switch live in the Worker's flat arrays instead).
struct Thread {
  WarpOp wop = WarpOp::sync;
  BarrierOp bop = BarrierOp::plain;
  int pred = 0;
  unsigned mask = 0;
  int arg = 0;
  int width = 32;
  std::uint64_t value = 0;
  std::uint64_t result = 0;
  void* ended = nullptr;  // std::jmp_buf* in fiber_loop: where a failed device assert ends the thread
};

// One OS thread that runs blocks. The host thread that launches is one too.
struct Worker : Round {
  Site released_site;  // the last barrier released: where threads in state `barrier` that run now passed
  int index = 0;
  const LaunchDesc* launch = nullptr;
  uint3 block{0, 0, 0};
  int n = 0;  // threads in the block
  int nwarps = 0;
  Thread threads[kMaxThreads];
  int live = 0, exited = 0, at_warp = 0;
  bool bar_mixed = false;
  bool abandoned = false;  // a fault ended the running block (abandon_block)
  BarrierOp bar_op = BarrierOp::plain;
  std::uint64_t rng = 0;

  // Fibers: persistent, each with its own pooled stack, reused across blocks.
  Ctx main_ctx = nullptr;
  Ctx free_fibers[kMaxThreads + 1];
  int nfree = 0;
  int nfibers = 0;
  char* stacks = nullptr;
  size_t stacks_len = 0;

  unsigned char* smem = nullptr;  // dynamic shared memory, kMaxDynSmem bytes

  // Read by the watchdog from another thread.
  std::atomic<bool> busy{false};
  std::atomic<long long> block_linear{-1};
  std::atomic<void*> sampled_pc{nullptr};  // set by the watchdog's sampling signal
  unsigned long os_thread = 0;             // pthread_t of the thread running blocks
  dim3 shape_cached{0, 0, 0};
};

extern thread_local Worker* tls_worker;  // non-null only while running a block

// diagnostics.cpp
[[noreturn]] void fatal(const std::string& message);  // prints each line with the prefix, exits
void warn(const std::string& message);  // prints each line with "pplab-sim: warning: ", goes on
std::string describe_kernel(const Worker& w);        // "kernel 'k' (launched at f.cu:3), block (1,0,0)"
std::string fmt_site(const Site& s);
std::string fmt_idx(uint3 v);
void install_thread_handlers();  // alternate signal stack for this OS thread
// block_runner.cpp: ends the running block of this worker from a fault in its running
// thread (called from the fault handler); the block's other threads never run again.
[[noreturn]] void abandon_block(Worker& w);
bool block_can_be_abandoned(const Worker& w, const void* sp);  // sp: the faulting thread's stack pointer
void install_process_handlers();
// The fault handler for host accesses of device memory alone (the first cudaMalloc may
// come before the first launch, which installs the rest); other faults keep their
// default action until then.
void install_device_memory_handler();
void watchdog_launch_begin(const LaunchDesc* d);
void watchdog_launch_end();

// memory.cpp
struct AllocInfo {
  std::uintptr_t start = 0;
  size_t size = 0;
  std::uintptr_t map_base = 0;
  size_t map_len = 0;
  int kind = 0;  // 0 device, 1 managed, 2 host (pinned), 3 __device__ symbol
  // Between the guard pages: where a kind-0 allocation faults only while device
  // memory is closed to the host (see memory.cpp).
  bool in_data_pages(std::uintptr_t addr) const;
};
// Finds the allocation whose mapping (guard pages included) holds addr. Lock-free
// enough for a signal handler: it is only called once the process is going down.
bool find_alloc(std::uintptr_t addr, AllocInfo* out);
// The counted open and close behind pplab::sim::DeviceMemoryOpen (pplab/sim/device_memory.h).
void open_device_memory();
void close_device_memory();

// shared_arena.cpp, shared_clocks.cpp (shared_warp_sync), shared_hooks.cpp
// (shared_user_pc): checked shared memory (see shared_check_internal.h)
unsigned char* shared_arena_create();  // this OS thread's arena; returns its dynamic shared memory
void shared_block_begin(int nthreads, size_t dynamic_bytes);
void shared_block_end();
void shared_barrier();                            // a __syncthreads() released the block
void shared_warp_sync(int base, unsigned lanes);  // a warp operation released these lanes of the warp at base
std::string source_line(void* pc);                // "file:line" via addr2line, or empty (diagnostics.cpp)
void* shared_user_pc(void* pc, void* sp);        // a sampled pc inside a hook -> the kernel's pc
// worker_pool.cpp: false (and the last error set) for a configuration CUDA refuses.
bool launch_config_ok(const LaunchDesc& d);
// streams.cpp: the device's work queue. Tickets count queued operations from 1.
std::uint64_t enqueue(cudaStream_t stream, void (*fn)(void*), void* arg);
void wait_all();                       // every queued operation has run
void wait_stream(cudaStream_t stream); // the stream's queued operations have run
void wait_ticket(std::uint64_t ticket);
bool ticket_done(std::uint64_t ticket);
bool stream_idle(cudaStream_t stream);
// compat.cpp: CUDA's sticky error (set by a failed device assert or a memory fault in a
// kernel, cleared by cudaDeviceReset). set_sticky_error: false if one was set already.
cudaError_t sticky_error();
void clear_sticky_error();
bool set_sticky_error(cudaError_t e);
// compat.cpp: the grid-wide barrier of a cooperative launch of `blocks` blocks.
void cooperative_begin(int blocks);
void cooperative_end();

// devices.cpp: false (reported once) when code compiled for a newer architecture than
// the selected device's is linked in: launches then fail, as on a GPU.
bool kernel_image_ok();

// runtime.cpp
void set_last_error(cudaError_t e);
void count_launch();  // one more kernel launched (pplab::sim::traffic)
size_t max_dynamic_smem();
}  // namespace pplab::sim::detail
