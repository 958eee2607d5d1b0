// The step recorder behind pplab/trace.h.
#include "pplab/trace.h"
#include "pplab/trace_ending.h"
#include "pplab/sim/device_memory.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

namespace pplab::trace {
namespace {
std::size_t g_pointer_bytes = 0;
void on_thread_start() { tracer().thread_start(); }
void on_thread_exit() { tracer().thread_end(); }
}

std::vector<int> Step::active() const {
  std::vector<int> threads;
  for (const Write& w : writes) threads.push_back(w.thread);
  for (const Lane& l : lanes) threads.push_back(l.thread);
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  return threads;
}

const Lane* Step::lane(int thread) const {
  for (const Lane& l : lanes)
    if (l.thread == thread) return &l;
  return nullptr;
}

Tracer& tracer() {
  static Tracer t;
  return t;
}

void set_pointer_bytes(std::size_t bytes) { g_pointer_bytes = bytes; }

void Tracer::begin(std::size_t element_bytes) {
  // One worker: the block runs on this thread, so the array's address stays valid
  // after the launch returns and end_launch() can read it.
  setenv("PPLAB_SIM_THREADS", "1", 1);
  ::pplab::sim::set_schedule(::pplab::sim::Schedule::forward);
  ::pplab::sim::set_thread_observers(&on_thread_start, &on_thread_exit);
  watching_global_ = false;
  element_bytes_ = element_bytes;
  stopped_ = false;
  array_ = nullptr;
  current_.clear();
  step_start_.clear();
  pending_.clear();
  steps_.clear();
  arrived_ = 0;
  pending_lanes_.clear();
  ended_ = 0;
  block_ = -1;
  launch_ = 0;
  launch_done_ = false;
}

// watch(), rearm() and end_launch() run on the host thread and read the watched array,
// which may be cudaMalloc memory: the emulator closes that to host code (as a GPU does)
// unless it is opened, as here. Everything else runs inside kernels, where it is open.
void Tracer::watch(const void* device_ptr, std::size_t bytes) {
  const sim::DeviceMemoryOpen open;
  watching_global_ = true;
  array_ = static_cast<const std::uint8_t*>(device_ptr);
  current_.assign(array_, array_ + bytes);
  step_start_ = current_;
  pending_.clear();
}

std::uint64_t Tracer::value(const std::vector<std::uint8_t>& snapshot, std::size_t i) const {
  std::uint64_t bits = 0;
  // A student's kernel can leave fewer steps, or other arrays, than the trace program
  // expects; an index past the snapshot reads as 0 rather than past its end.
  if ((i + 1) * element_bytes_ > snapshot.size()) return bits;
  std::memcpy(&bits, snapshot.data() + i * element_bytes_, element_bytes_);
  return bits;
}

void Tracer::record_writes(int thread) {
  const std::size_t n = current_.size() / element_bytes_;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* now = array_ + i * element_bytes_;
    std::uint8_t* seen = current_.data() + i * element_bytes_;
    if (std::memcmp(now, seen, element_bytes_) == 0) continue;
    Write w;
    w.thread = thread;
    w.block = static_cast<int>(block_);
    w.index = i;
    std::memcpy(&w.before, seen, element_bytes_);
    std::memcpy(&w.after, now, element_bytes_);
    pending_.push_back(w);
    std::memcpy(seen, now, element_bytes_);
  }
}

namespace {
int this_thread() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
long long this_block() {
  return static_cast<long long>(blockIdx.x) +
         static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
}
int block_threads() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }
}  // namespace

void Tracer::note_block() {
  const long long b = this_block();
  if (launch_done_ || block_ < 0) {  // the first event of a launch
    if (launch_done_) ++launch_;
    launch_done_ = false;
    block_ = b;
    ended_ = 0;
    arrived_ = 0;
    // What the host wrote into a watched global array between launches (a memset, a
    // copy) is nobody's write: start from the array as the launch finds it.
    if (watching_global_ && array_ && pending_.empty()) {
      std::memcpy(current_.data(), array_, current_.size());
      step_start_ = current_;
    }
  } else if (b != block_) {
    block_ = b;
    ended_ = 0;
    arrived_ = 0;
  }
}

Step& Tracer::push_step(const char* file, int line, const char* op, const std::vector<std::uint8_t>& before) {
  Step s{file, line, op, before, current_};
  s.block = static_cast<int>(block_);
  s.launch = launch_;
  steps_.push_back(std::move(s));
  return steps_.back();
}

void Tracer::close_step(const char* file, int line, const char* op) {
  push_step(file, line, op, step_start_).writes = std::exchange(pending_, {});
  step_start_ = current_;
}

void Tracer::thread_start() {
  if (!stopped_) note_block();  // the first thread of a launch: the array as the host left it
}

void Tracer::thread_end() {
  if (stopped_) return;
  note_block();
  if (watching_global_) record_writes(this_thread());
  if (++ended_ < block_threads()) return;
  // The block's last thread has returned: what it wrote after its last barrier is a step.
  if (watching_global_ && !pending_.empty()) close_step(nullptr, 0, "block end");
  ended_ = 0;
  const long long blocks = static_cast<long long>(gridDim.x) * gridDim.y * gridDim.z;
  if (this_block() == blocks - 1) launch_done_ = true;
}

void Tracer::arrive(const void* array, std::size_t bytes, const char* file, int line, const char* op) {
  if (stopped_) return;
  note_block();
  if (watching_global_) {
    array = array_;  // the watched global array, whatever shared array is in scope
    bytes = current_.size();
  }
  if (bytes == 0) bytes = g_pointer_bytes;
  if (!array || bytes == 0) return;
  const auto* p = static_cast<const std::uint8_t*>(array);
  if (!watching_global_ && (p != array_ || current_.size() != bytes)) {
    // First rendezvous of a launch. Static shared arrays start zeroed in a fresh
    // worker; what a step "before" shows for them is that start.
    array_ = p;
    if (current_.size() != bytes) current_.assign(bytes, 0);  // a fresh static is zeroed
    step_start_ = current_;
    arrived_ = 0;
  }
  record_writes(this_thread());
  if (++arrived_ < block_threads()) return;
  // The last thread is here: the rendezvous releases now.
  close_step(file, line, op);
  arrived_ = 0;
}

void Tracer::exchange(const char* file, int line, const char* op, int participants, std::uint64_t sent) {
  if (stopped_) return;
  note_block();
  if (watching_global_) record_writes(this_thread());
  Lane l;
  l.thread = this_thread();
  l.block = static_cast<int>(block_);
  l.sent = sent;
  pending_lanes_.push_back(l);
  if (static_cast<int>(pending_lanes_.size()) < participants) return;
  // Everyone taking part is here: the exchange happens now. The array is as last seen.
  push_step(file, line, op, current_).lanes = std::exchange(pending_lanes_, {});
}

void Tracer::exchange_result(std::uint64_t received) {
  if (stopped_) return;
  const int thread = this_thread();
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    if (it->lanes.empty()) continue;
    for (Lane& l : it->lanes)
      if (l.thread == thread) {
        l.received = received;
        return;
      }
    return;
  }
}

void Tracer::rearm() {
  const sim::DeviceMemoryOpen open;
  stopped_ = false;
  if (watching_global_) {
    // A watched global array holds the program's own data: take it as it is now.
    if (array_) std::memcpy(current_.data(), array_, current_.size());
    step_start_ = current_;
  } else if (array_ && !current_.empty()) {
    std::memset(const_cast<std::uint8_t*>(array_), 0xff, current_.size());
    std::fill(current_.begin(), current_.end(), std::uint8_t{0xff});
    step_start_ = current_;
  }
  pending_.clear();
  pending_lanes_.clear();
  steps_.clear();
  arrived_ = 0;
  ended_ = 0;
  block_ = -1;
  launch_ = 0;
  launch_done_ = false;
}

bool Tracer::unwritten(std::uint64_t bits) const {
  const std::uint64_t all = element_bytes_ >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * element_bytes_)) - 1;
  return bits == all;
}

void Tracer::end_launch() {
  const sim::DeviceMemoryOpen open;
  if (array_ && !stopped_) {
    record_writes(-1);
    if (!pending_.empty()) {
      Step s;
      s.op = "kernel end";
      s.before = step_start_;
      s.after = current_;
      s.writes = std::move(pending_);
      steps_.push_back(std::move(s));
      step_start_ = current_;
    }
  }
  pending_.clear();
  arrived_ = 0;
}

std::vector<int> match_handout(const Tracer& tracer, const std::vector<HandoutStep>& handout, int launch,
                               const std::function<bool(const Step&)>& considered) {
  const auto& steps = tracer.steps();
  std::vector<int> matched(steps.size(), -1);
  std::size_t next = 0;  // handout steps before this one are used up
  for (std::size_t k = 0; k < steps.size() && next < handout.size(); ++k) {
    const Step& s = steps[k];
    if ((launch >= 0 && s.launch != launch) || (considered && !considered(s))) continue;
    for (std::size_t j = next; j < handout.size(); ++j) {
      const HandoutStep& h = handout[j];
      const bool by_lanes = !h.sent.empty() || !h.received.empty();
      bool same = true;
      if (!s.lanes.empty() && by_lanes) {
        for (std::size_t t = 0; t < h.sent.size() && same; ++t) {
          const Lane* l = s.lane(static_cast<int>(t));
          same = l && l->sent == h.sent[t];
        }
        for (std::size_t t = 0; t < h.received.size() && same; ++t) {
          const Lane* l = s.lane(static_cast<int>(t));
          same = l && l->received == h.received[t];
        }
      } else {
        same = !(s.lanes.empty() && by_lanes && h.after.empty());  // an exchange's step only
        for (std::size_t i = 0; i < h.after.size() && same; ++i) same = tracer.value(s.after, i) == h.after[i];
      }
      if (!same) continue;
      matched[k] = static_cast<int>(j);
      next = j + 1;
      break;
    }
  }
  return matched;
}

std::string handout_title(const std::vector<HandoutStep>& handout, int j, const std::string& unmatched) {
  if (j < 0 || j >= static_cast<int>(handout.size())) return unmatched;
  return handout[j].label;
}

std::string handout_missing(const std::vector<HandoutStep>& handout, const std::vector<int>& matched) {
  std::string missing;
  for (std::size_t j = 0; j < handout.size(); ++j)
    if (std::find(matched.begin(), matched.end(), static_cast<int>(j)) == matched.end())
      missing += (missing.empty() ? "" : "; ") + handout[j].label;
  return missing;
}

std::function<std::string(std::size_t, const Step&)> handout_titles(const std::vector<HandoutStep>& handout,
                                                                     const std::vector<int>& matched,
                                                                     const std::string& unmatched) {
  return [&handout, &matched, unmatched](std::size_t k, const Step& s) {
    const std::string who = std::string(s.op) == "block end" ? "block " + std::to_string(s.block) + " ends: " : "";
    return who + handout_title(handout, matched[k], unmatched);
  };
}

}  // namespace pplab::trace

// ------------------------------------------------------------------ printing ----
#include <cstdio>
#include <ostream>

namespace pplab::trace {

Format handout_format(const std::vector<HandoutStep>& handout, const std::vector<int>& matched,
                      const std::string& array, std::function<std::string(std::uint64_t bits)> value,
                      const std::string& unmatched) {
  Format format;
  format.array = array;
  format.value = std::move(value);
  format.title = handout_titles(handout, matched, unmatched);
  return format;
}

std::function<std::string(std::size_t, const Step&, const Write&)> explained_by_handout(
    const Format& format, const std::vector<int>& matched, bool& consistent,
    std::function<std::string(std::size_t j, const Step&, const Write&)> explain) {
  return [array = format.array, value = format.value, &matched, &consistent, explain = std::move(explain)](
             std::size_t step, const Step& s, const Write& w) -> std::string {
    if (matched[step] < 0) {  // not the handout's step: no story
      consistent = false;
      return array + "[" + std::to_string(w.index) + "] = " + value(w.after);
    }
    return explain(static_cast<std::size_t>(matched[step]), s, w);
  };
}

std::string number(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<long long>(v)) && v > -1e15 && v < 1e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

namespace {
std::string base_name(const char* file) {
  if (!file) return "";
  std::string f = file;
  auto slash = f.find_last_of('/');
  return slash == std::string::npos ? f : f.substr(slash + 1);
}

std::string where(const Step& s) {
  if (!s.file) return s.op;
  return std::string(s.op) + " at " + base_name(s.file) + ":" + std::to_string(s.line);
}
}  // namespace

void print_steps(std::ostream& out, const Tracer& tracer, const Format& format, bool markdown) {
  auto value = [&](std::uint64_t bits) {
    if (tracer.unwritten(bits)) return std::string("·");
    return format.value ? format.value(bits) : number(as<float>(bits));
  };
  auto title = [&](std::size_t k, const Step& s) { return format.title ? format.title(k, s) : where(s); };
  auto what = [&](std::size_t k, const Step& s, const Write& w) {
    if (format.what) return format.what(k, s, w);
    return format.array + "[" + std::to_string(w.index) + "] = " + value(w.after);
  };
  auto lane_what = [&](std::size_t k, const Step& s, const Lane& l) {
    if (format.lane) return format.lane(k, s, l);
    return "sends " + value(l.sent) + ", gets " + value(l.received);
  };
  std::vector<std::size_t> columns = format.shown;
  if (columns.empty())
    for (std::size_t i = 0; i < tracer.size(); ++i) columns.push_back(i);
  auto shown = [&](std::size_t index) {
    return format.shown.empty() || std::find(columns.begin(), columns.end(), index) != columns.end();
  };
  auto listed = [&](int thread) {
    return format.threads.empty() || thread < 0 ||
           std::find(format.threads.begin(), format.threads.end(), thread) != format.threads.end();
  };
  auto row = [&](const std::vector<std::uint8_t>& snapshot, bool bold_changed, const Step& s) {
    std::string text;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::size_t i = columns[c];
      if (i >= tracer.size()) continue;
      bool changed = false;
      if (bold_changed)
        for (const Write& w : s.writes) changed = changed || w.index == i;
      std::string v = value(tracer.value(snapshot, i));
      const bool gap = c > 0 && (format.shown.empty() ? format.row_break && i % format.row_break == 0
                                                       : columns[c - 1] + 1 != i);
      if (c > 0) text += gap ? " ‖ " : " ";
      text += changed ? "<b>" + v + "</b>" : v;
    }
    return bold_changed ? "<code>" + text + "</code>" : text;
  };

  const auto& steps = tracer.steps();
  if (markdown) {
    const std::string heading =
        format.row_heading.empty() ? "`" + format.array + "` afterwards" : format.row_heading;
    out << "| step | active threads | what each did | " << heading << " |\n";
    out << "|---|---|---|---|\n";
  }
  if (steps.empty())
    out << (markdown ? "| – | (none) | the kernel reached no barrier or warp exchange, and wrote nothing traced | |\n"
                     : "No steps: the kernel reached no barrier or warp exchange, and wrote nothing traced.\n\n");
  std::size_t printed = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    if (format.show && !format.show(k, s)) continue;
    ++printed;
    std::string active, did;
    std::vector<int> threads;
    for (const Write& w : s.writes)
      if (shown(w.index) && listed(w.thread) && w.thread >= 0) threads.push_back(w.thread);
    for (const Lane& l : s.lanes)  // a lane the format has nothing to say about is left out
      if (listed(l.thread) && !lane_what(k, s, l).empty()) threads.push_back(l.thread);
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    for (int t : threads) active += (active.empty() ? "T" : " T") + std::to_string(t);
    int last_thread = -2;
    for (const Write& w : s.writes) {
      if (!shown(w.index) || !listed(w.thread)) continue;
      std::string who = w.thread < 0 ? "" : "T" + std::to_string(w.thread) + ": ";
      if (!did.empty()) did += w.thread == last_thread ? "; " : (markdown ? ", " : " | ");
      did += (w.thread == last_thread ? "" : who) + what(k, s, w);
      last_thread = w.thread;
    }
    std::vector<Lane> lanes = s.lanes;
    std::stable_sort(lanes.begin(), lanes.end(), [](const Lane& a, const Lane& b) { return a.thread < b.thread; });
    for (const Lane& l : lanes) {
      if (!listed(l.thread)) continue;
      const std::string text = lane_what(k, s, l);
      if (text.empty()) continue;
      if (!did.empty()) did += markdown ? ", " : " | ";
      did += "T" + std::to_string(l.thread) + ": " + text;
    }
    if (active.empty()) active = s.lanes.empty() && !s.file ? "(after the last barrier)" : "(none shown)";
    std::string last = !s.lanes.empty() && format.exchange_row ? format.exchange_row(k, s) : row(s.after, markdown, s);
    if (markdown) {
      std::string place = where(s);
      if (s.file) place = "`" + std::string(s.op) + "` at " + place.substr(std::string(s.op).size() + 4);
      out << "| " << printed << ". " << title(k, s) << " <br><small>" << place << "</small> | " << active
          << " | " << did << " | " << last << " |\n";
    } else {
      out << "Step " << printed << ": " << title(k, s) << "   (" << where(s) << ")\n";
      out << "  active threads: " << active << "\n";
      if (!did.empty()) out << "  " << did << "\n";
      std::string heading = format.row_heading.empty() ? format.array + " afterwards" : format.row_heading;
      for (auto at = heading.find('`'); at != std::string::npos; at = heading.find('`')) heading.erase(at, 1);
      std::string plain = last;
      for (const char* tag : {"<b>", "</b>", "<code>", "</code>"})
        for (auto at = plain.find(tag); at != std::string::npos; at = plain.find(tag)) plain.erase(at, std::string(tag).size());
      for (auto at = plain.find('`'); at != std::string::npos; at = plain.find('`')) plain.erase(at, 1);
      out << "  " << heading << ": " << plain << "\n\n";
    }
  }
}

}  // namespace pplab::trace

#include <iostream>

namespace pplab::trace {

Options parse_options(int argc, char** argv, const char* what, const char* kernel_file) {
  // An invalid access in the traced kernel ends the trace with the emulator's report
  // (pplab trace reports it like a failed check), rather than CUDA's sticky error.
  pplab::sim::set_faults_end_process(true);
  Options o;
  o.kernel_file = kernel_file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--markdown") {
      o.markdown = true;
    } else {
      std::cerr << "usage: " << argv[0] << " [--markdown]\n  " << what
                << "\n  prints the shared array after each barrier of the kernel on a small example\n";
      std::exit(a == "--help" || a == "-h" ? 0 : 2);
    }
  }
  return o;
}

void print_array(std::ostream& out, bool markdown, const std::string& label, const std::vector<std::string>& values) {
  if (markdown) {
    out << "| " << label << " |";
    for (const auto& v : values) out << " " << v << " |";
    out << "\n";
  } else {
    out << "  " << label << ":";
    for (const auto& v : values) out << " " << v;
    out << "\n";
  }
}

void print_heading(std::ostream& out, const std::string& title, const char* kernel_file, const std::string& notes) {
  out << title << "\nKernel file: " << kernel_file << "\n";
  if (!notes.empty()) out << notes << "\n";
  out << "\n";
}

void print_opening(std::ostream& out, const Options& options, const Opening& opening) {
  if (!options.markdown)
    print_heading(out, opening.title, options.kernel_file, opening.notes);
  else if (!opening.markdown.empty())
    out << opening.markdown << "\n\n";
}

void print_arrays(std::ostream& out, bool markdown,
                  const std::vector<std::pair<std::string, std::vector<std::string>>>& rows) {
  if (markdown && !rows.empty()) print_index_row(out, rows.front().second.size());
  for (const auto& [label, values] : rows) print_array(out, markdown, label, values);
}

void print_note(std::ostream& out, bool markdown, const std::string& text) {
  out << (markdown ? "\n" : "") << "Note: " << text << "\n";
}

void print_index_row(std::ostream& out, std::size_t n) {
  out << "| i |";
  for (std::size_t i = 0; i < n; ++i) out << " " << i << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < n; ++i) out << "---|";
  out << "\n";
}

void print_missing(std::ostream& out, const std::string& missing, const char* before) {
  if (!missing.empty()) out << before << "Handout steps your kernel never reached: " << missing << "\n";
}

void print_result(std::ostream& out, bool markdown, const std::string& label, const std::string& values, bool ok,
                  const std::string& why, bool item) {
  out << (markdown && item ? "- " : "") << label << ": " << (markdown ? "**" : "") << values << (markdown ? "**" : "")
      << (ok ? " ✓" : " ✗ (" + why + ")") << "\n";
}

namespace {
std::atomic<bool> g_finished{false};
// Registered as the program starts (main() calls finish(), so this file is in every
// trace program): a process that ends without finish() was ended by the lab's code.
const bool g_watching_the_end = [] {
  std::atexit([] {
    if (g_finished) return;
    std::cout.flush();
    std::fprintf(stderr, "%s: exit() was called from the lab's code\n", kTraceEndedEarlyLine);
    std::_Exit(kTraceEndedEarly);
  });
  return true;
}();
}  // namespace

int finish(bool ok) {
  g_finished = true;
  return ok ? 0 : 1;
}

}  // namespace pplab::trace
