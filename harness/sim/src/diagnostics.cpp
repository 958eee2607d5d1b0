// Reports that end the process (and warnings that do not): fatal errors, faults in kernels (out-of-bounds
// accesses against the guard pages of cudaMalloc allocations), host code touching device
// memory (closed to it, as on a GPU: memory.cpp), and the watchdog that names a kernel
// that runs too long (a spin-wait deadlock, an endless loop).
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "internal.h"

namespace pplab::sim::detail {
std::vector<Worker*> all_workers();

namespace {
std::atomic<bool> g_dying{false};

void write_err(const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(2, s.data() + off, s.size() - off);
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
}

std::string prefixed(const std::string& message, const char* kind = "error") {
  std::string out;
  size_t start = 0;
  while (start <= message.size()) {
    size_t nl = message.find('\n', start);
    std::string line = message.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += std::string("pplab-sim: ") + kind + ": " + line + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

// What the program that runs the kernels asked to be printed under a fault report (the
// harness: the check's reproduce command). A fixed buffer: die() may run in a signal handler.
char g_fault_note[2048];
std::atomic<bool> g_has_fault_note{false};
std::atomic<bool> g_faults_end_process{false};  // set_faults_end_process
// Whether install_process_handlers ran: before it (a cudaMalloc but no launch yet) the
// fault handler takes only host accesses of device memory, and leaves every other
// signal to its default action, as it always did before the first launch.
std::atomic<bool> g_handlers_installed{false};

std::atomic<FaultNoteWriter> g_fault_note_writer{nullptr};

// The note under a report, through the writer the program set (set_fault_note_writer).
void write_fault_note(const std::string& report) {
  if (!g_has_fault_note.load()) return;
  const FaultNoteWriter writer = g_fault_note_writer.load();
  write_err(writer ? writer(report, g_fault_note) : std::string(g_fault_note));
}

[[noreturn]] void die(const std::string& message) {
  // Only the first report counts; a second thread failing at once just stops.
  if (g_dying.exchange(true)) {
    for (;;) pause();
  }
  std::fflush(stdout);
  write_err(prefixed(message));
  write_fault_note(message);
  _exit(1);
}

// Whether addr2line's "file:line" is in a header of the system (the C++ library, the
// toolchain's) or of the emulator (harness/sim/include), not in the program's own code.
bool library_header(const std::string& line) {
  return line.rfind("/usr/", 0) == 0 || line.find("/harness/sim/include/") != std::string::npos;
}

// Asks addr2line for the "file:line" of a code address. Best effort: needs the program
// built with line tables (simcc and pplab_sim_add_sources add -g1).
std::string addr2line(void* pc) {
  Dl_info info;
  if (!dladdr(pc, &info) || !info.dli_fname) return "";
  char offset[32];
  std::snprintf(offset, sizeof offset, "0x%lx",
                static_cast<unsigned long>(reinterpret_cast<char*>(pc) - static_cast<char*>(info.dli_fbase)));
  int fds[2];
  if (pipe(fds) != 0) return "";
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    int devnull = open("/dev/null", 0);
    if (devnull >= 0) dup2(devnull, 2);
    close(fds[0]);
    execlp("addr2line", "addr2line", "-C", "-i", "-e", info.dli_fname, offset, static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  if (pid > 0) waitpid(pid, nullptr, 0);
  // One "file:line" per inlined frame, innermost first. The innermost is the faulting line
  // unless it is in a header of the system or of the emulator: a kernel's atomicAdd or
  // std::min is inlined from those, and their line says nothing of the program's. Then
  // the innermost frame of the program's own code is the line to name.
  std::string first, own;
  std::istringstream frames(out);
  for (std::string frame; std::getline(frames, frame);) {
    if (frame.empty() || frame[0] == '?') continue;
    if (const size_t disc = frame.find(" (discriminator"); disc != std::string::npos) frame.erase(disc);
    if (first.empty()) first = frame;
    if (!library_header(frame)) {
      own = frame;
      break;
    }
  }
  return own.empty() ? first : own;
}

// Whether two code addresses lie in one loaded object (the program, libc, ...).
bool same_object(const void* a, const void* b) {
  Dl_info x, y;
  return dladdr(a, &x) && dladdr(b, &y) && x.dli_fbase == y.dli_fbase;
}

// The program itself (the emulator's runtime is a static library linked into it).
bool in_program(const void* pc) { return same_object(pc, reinterpret_cast<const void*>(&same_object)); }

// The first caller of `pc` that addr2line can name, outside pc's library when pc is in
// one (a memmove called on a device pointer: the line that called it), walking the
// faulting thread's stack from within its fault handler (the unwinder crosses the
// signal frame).
std::string nearest_caller_line(void* pc) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  int at = 0;
  while (at < n && frames[at] != pc) ++at;  // the frames before it are the handler's
  const bool library = !in_program(pc);
  for (int i = at + 1; i < n; ++i) {
    if (library && same_object(frames[i], pc)) continue;
    // A return address: the call is the instruction before it.
    std::string line = addr2line(static_cast<char*>(frames[i]) - 1);
    if (!line.empty()) return line;
  }
  return "";
}

std::string thread_context(const Worker* w) {
  if (!w || !w->launch) return "in host code";
  int cur = w->cur.load(std::memory_order_relaxed);
  std::string s = "in " + describe_kernel(*w);
  if (cur >= 0) {
    s += ", thread " + fmt_idx(w->idx[cur]);
    const Site last = last_rendezvous(*w, cur);
    if (last.file) s += "\n  last rendezvous this thread passed: " + fmt_site(last);
  }
  return s;
}

void fault_handler(int sig, siginfo_t* info, void* uctx) {
  auto* uc = static_cast<ucontext_t*>(uctx);
  void* pc = nullptr;
  void* sp = nullptr;
  bool write = false, write_known = false;
#if defined(__x86_64__)
  pc = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
  sp = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RSP]);
  write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  write_known = true;
#elif defined(__aarch64__)
  pc = reinterpret_cast<void*>(uc->uc_mcontext.pc);
  sp = reinterpret_cast<void*>(uc->uc_mcontext.sp);
#endif
  Worker* w = tls_worker;
  auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  std::string msg;
  char buf[256];
  // An invalid memory access in a kernel's thread follows CUDA: the launch stops and the
  // error is sticky. Anything else (host code, a stack overflow, a division by zero) ends
  // the process.
  bool sticky = false;
  bool host_touched_device = false;
  if (sig == SIGSEGV || sig == SIGBUS) {
    AllocInfo a;
    const bool in_alloc = find_alloc(addr, &a);
    if (in_alloc && a.kind == 0 && a.in_data_pages(addr)) {
      // A cudaMalloc allocation's data pages fault only while device memory is closed
      // (memory.cpp), and then no kernel or copy runs: this is host code, and on a GPU
      // the same access is a segmentation fault. It ends the process, as host faults do.
      host_touched_device = true;
      long long off = static_cast<long long>(addr) - static_cast<long long>(a.start);
      const char* how = !write_known ? "accessed" : write ? "written" : "read";
      if (off >= 0)
        std::snprintf(buf, sizeof buf, " at %p (byte %lld of a %zu-byte cudaMalloc allocation at %p)", info->si_addr,
                      off, a.size, reinterpret_cast<void*>(a.start));
      else
        std::snprintf(buf, sizeof buf, " at %p (%lld bytes before the start of a %zu-byte cudaMalloc allocation at %p)",
                      info->si_addr, -off, a.size, reinterpret_cast<void*>(a.start));
      msg = std::string("device memory ") + how + " " + thread_context(w) + buf;
      msg += "\n  a GPU's device memory is not the host's, and this is a segmentation fault there: copy it with "
             "cudaMemcpy (or allocate it with cudaMallocManaged, which the host may touch)";
    } else if (!g_handlers_installed.load()) {
      signal(sig, SIG_DFL);  // not ours yet: die of the signal, once this handler returns
      raise(sig);
      return;
    } else if (in_alloc && a.kind != 3) {
      msg = std::string("out-of-bounds ") + (write ? "write" : "read") + " " + thread_context(w) + "\n";
      long long off = static_cast<long long>(addr) - static_cast<long long>(a.start);
      const char* kind = a.kind == 0 ? "cudaMalloc" : a.kind == 1 ? "cudaMallocManaged" : "cudaMallocHost";
      if (off >= static_cast<long long>(a.size))
        std::snprintf(buf, sizeof buf,
                      "  address %p is %lld bytes past the end of a %zu-byte %s allocation at %p (byte offset %lld)",
                      info->si_addr, off - static_cast<long long>(a.size), a.size, kind,
                      reinterpret_cast<void*>(a.start), off);
      else
        std::snprintf(buf, sizeof buf, "  address %p is %lld bytes before the start of a %zu-byte %s allocation at %p",
                      info->si_addr, -off, a.size, kind, reinterpret_cast<void*>(a.start));
      msg += buf;
      msg += "\n  (a missing `if (i < n)` guard? each allocation ends right against an inaccessible page)";
      sticky = true;
    } else if (w && w->stacks && addr >= reinterpret_cast<std::uintptr_t>(w->stacks) &&
               addr < reinterpret_cast<std::uintptr_t>(w->stacks) + w->stacks_len) {
      msg = "stack overflow " + thread_context(w) +
            "\n  (large local arrays or deep recursion; raise PPLAB_SIM_STACK_KIB, default 128)";
    } else {
      std::snprintf(buf, sizeof buf, "invalid memory access at address %p ", info->si_addr);
      msg = buf + thread_context(w) + "\n  (not inside any live allocation: a freed, host or null pointer?)";
      sticky = true;
    }
  } else if (sig == SIGFPE) {
    msg = "arithmetic fault (integer division by zero?) " + thread_context(w);
  } else if (sig == SIGABRT) {
    msg = "abort (a failed assert?) " + thread_context(w);
  } else {
    msg = std::string("signal ") + strsignal(sig) + " " + thread_context(w);
  }
  if (pc && sig != SIGABRT) {
    std::string line = addr2line(pc);
    if (!line.empty())
      msg += "\n  faulting source line: " + line + " (from the program counter, via addr2line)";
    else
      msg += "\n  faulting source line unknown (no line table for the program counter; build with -g)";
    // Host code often touches device memory through a library call (std::copy of a
    // device pointer becomes memmove): name the program's line that made the call.
    if (host_touched_device && (line.empty() || !in_program(pc))) {
      const std::string caller = nearest_caller_line(pc);
      if (!caller.empty()) msg += "\n  called from: " + caller + " (the nearest caller with a line table, via addr2line)";
    }
  }
  if (!sticky || g_faults_end_process.load() || !w || !block_can_be_abandoned(*w, sp)) die(msg);
  // Only the first fault is reported (the blocks running on other workers at that moment
  // often make the same mistake); the context is unusable from here on, as on a GPU.
  if (set_sticky_error(cudaErrorIllegalAddress)) {
    std::fflush(stdout);
    write_err(prefixed(msg + "\n  the launch stops; the next synchronising call returns cudaErrorIllegalAddress"));
    write_fault_note(msg);
  }
  // The handler leaves through a jump, so the kernel does not block this signal for it.
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, sig);
  pthread_sigmask(SIG_UNBLOCK, &mask, nullptr);
  abandon_block(*w);
}

// The watchdog asks each busy worker where it is: the worker's handler stores
// its interrupted program counter.
constexpr int kSampleSignal = SIGURG;
void sample_handler(int, siginfo_t*, void* uctx) {
  Worker* w = tls_worker;
  if (!w) return;
  auto* uc = static_cast<ucontext_t*>(uctx);
#if defined(__x86_64__)
  w->sampled_pc.store(shared_user_pc(reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]),
                                     reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RSP])));
#elif defined(__aarch64__)
  w->sampled_pc.store(reinterpret_cast<void*>(uc->uc_mcontext.pc));
#else
  (void)uc;
#endif
}

// Watchdog state.
std::mutex g_wd_mu;
const LaunchDesc* g_wd_launch = nullptr;
std::chrono::steady_clock::time_point g_wd_start;
double g_wd_timeout = -1;

double timeout_seconds() {
  try {
    return settings::seconds(settings::kTimeout, 60.0);
  } catch (const std::invalid_argument& error) {
    fatal(error.what());
  }
}

void watchdog_main() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::lock_guard<std::mutex> lk(g_wd_mu);
    if (!g_wd_launch) continue;
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_wd_start).count();
    if (elapsed < g_wd_timeout) continue;
    const LaunchDesc& d = *g_wd_launch;
    std::vector<Worker*> busy;
    for (Worker* w : all_workers())
      if (w->busy.load()) {
        w->sampled_pc.store(nullptr);
        pthread_kill(static_cast<pthread_t>(w->os_thread), kSampleSignal);
        busy.push_back(w);
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::string msg = "kernel '" + std::string(d.name) + "' (launched at " + fmt_site(Site{d.file, d.line}) +
                      ") still running after " + std::to_string(static_cast<int>(elapsed)) +
                      " s (PPLAB_SIM_TIMEOUT): a deadlock (spin-wait on another thread or block?) or an endless loop";
    for (Worker* w : busy) {
      int cur = w->cur.load();
      long long b = w->block_linear.load();
      msg += "\n  worker " + std::to_string(w->index) + ": block " + fmt_idx(w->block) + " (linear " +
             std::to_string(b) + ")";
      if (cur >= 0) {
        msg += ", thread " + fmt_idx(w->idx[cur]);
        const Site s = last_rendezvous(*w, cur);
        msg += s.file ? ", last rendezvous passed: " + fmt_site(s) : ", has not reached any rendezvous yet";
      }
      if (void* pc = w->sampled_pc.load()) {
        std::string line = addr2line(pc);
        msg += "\n    now at " + (line.empty() ? std::string("an unknown line (build with -g)") : line) +
               " (sampled program counter, via addr2line)";
      }
    }
    die(msg);
  }
}
}  // namespace

void fatal(const std::string& message) { die(message); }
void warn(const std::string& message) {
  static std::mutex lock;  // one report at a time: two workers may warn at once
  std::lock_guard<std::mutex> hold(lock);
  std::fflush(stdout);
  write_err(prefixed(message, "warning"));
}
std::string source_line(void* pc) { return addr2line(pc); }

std::string fmt_site(const Site& s) {
  if (!s.file) return "?";
  return std::string(s.file) + ":" + std::to_string(s.line);
}

std::string fmt_idx(uint3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

void install_thread_handlers() {
  // Faults in a fiber may be stack overflows: the handler needs its own stack.
  static thread_local std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
}

// fault_handler for these signals, on the alternate stack.
static void install_fault_handler(std::initializer_list<int> signals) {
  struct sigaction sa{};
  sa.sa_sigaction = fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : signals) sigaction(sig, &sa, nullptr);
}

static void install_process_handlers_once() {
  g_handlers_installed.store(true);
  install_fault_handler({SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT});
  struct sigaction ss{};
  ss.sa_sigaction = sample_handler;
  ss.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&ss.sa_mask);
  sigaction(kSampleSignal, &ss, nullptr);
  g_wd_timeout = timeout_seconds();
  std::thread(watchdog_main).detach();
}

void install_process_handlers() {
  static std::once_flag once;
  std::call_once(once, install_process_handlers_once);
}

void install_device_memory_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!g_handlers_installed.load()) install_fault_handler({SIGSEGV, SIGBUS});
  });
}

void watchdog_launch_begin(const LaunchDesc* d) {
  std::lock_guard<std::mutex> lk(g_wd_mu);
  g_wd_launch = d;
  g_wd_start = std::chrono::steady_clock::now();
}

void watchdog_launch_end() {
  std::lock_guard<std::mutex> lk(g_wd_mu);
  g_wd_launch = nullptr;
}
}  // namespace pplab::sim::detail

namespace pplab::sim {
void set_faults_end_process(bool end) { detail::g_faults_end_process.store(end); }
void set_fault_note_writer(FaultNoteWriter writer) { detail::g_fault_note_writer.store(writer); }

void set_fault_note(const char* note) {
  detail::g_has_fault_note.store(false);
  const std::size_t length = note ? std::min(std::strlen(note), sizeof detail::g_fault_note - 1) : 0;
  if (length) std::memcpy(detail::g_fault_note, note, length);
  detail::g_fault_note[length] = '\0';
  detail::g_has_fault_note.store(length > 0);
}
}  // namespace pplab::sim
