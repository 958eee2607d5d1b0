// The step recorder behind pplab/trace.h.
#include "pplab/trace.h"

#include <algorithm>
#include <cstdlib>

namespace pplab::trace {
namespace {
std::size_t g_pointer_bytes = 0;
}

std::vector<int> Step::active() const {
  std::vector<int> threads;
  for (const Write& w : writes) threads.push_back(w.thread);
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  return threads;
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
  element_bytes_ = element_bytes;
  array_ = nullptr;
  current_.clear();
  step_start_.clear();
  pending_.clear();
  steps_.clear();
  arrived_ = 0;
}

std::uint64_t Tracer::value(const std::vector<std::uint8_t>& snapshot, std::size_t i) const {
  std::uint64_t bits = 0;
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
    w.index = i;
    std::memcpy(&w.before, seen, element_bytes_);
    std::memcpy(&w.after, now, element_bytes_);
    pending_.push_back(w);
    std::memcpy(seen, now, element_bytes_);
  }
}

void Tracer::arrive(const void* array, std::size_t bytes, const char* file, int line, const char* op) {
  if (bytes == 0) bytes = g_pointer_bytes;
  if (!array || bytes == 0) return;
  const auto* p = static_cast<const std::uint8_t*>(array);
  if (p != array_ || current_.size() != bytes) {
    // First rendezvous of a launch. Static shared arrays start zeroed in a fresh
    // worker; what a step "before" shows for them is that start.
    array_ = p;
    if (current_.size() != bytes) current_.assign(bytes, 0);  // a fresh static is zeroed
    step_start_ = current_;
    arrived_ = 0;
  }
  const int thread =
      static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  record_writes(thread);
  const int block_threads = static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
  if (++arrived_ < block_threads) return;
  // The last thread is here: the rendezvous releases now.
  Step s;
  s.file = file;
  s.line = line;
  s.op = op;
  s.before = step_start_;
  s.after = current_;
  s.writes = std::move(pending_);
  pending_.clear();
  steps_.push_back(std::move(s));
  step_start_ = current_;
  arrived_ = 0;
}

void Tracer::rearm() {
  if (array_ && !current_.empty()) {
    std::memset(const_cast<std::uint8_t*>(array_), 0xff, current_.size());
    std::fill(current_.begin(), current_.end(), std::uint8_t{0xff});
    step_start_ = current_;
  }
  pending_.clear();
  steps_.clear();
  arrived_ = 0;
}

bool Tracer::unwritten(std::uint64_t bits) const {
  const std::uint64_t all = element_bytes_ >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * element_bytes_)) - 1;
  return bits == all;
}

void Tracer::end_launch() {
  if (array_) {
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

}  // namespace pplab::trace

// ------------------------------------------------------------------ printing ----
#include <cstdio>
#include <ostream>

namespace pplab::trace {

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
  auto row = [&](const std::vector<std::uint8_t>& snapshot, bool bold_changed, const Step& s) {
    std::string text;
    for (std::size_t i = 0; i < tracer.size(); ++i) {
      bool changed = false;
      if (bold_changed)
        for (const Write& w : s.writes) changed = changed || w.index == i;
      std::string v = value(tracer.value(snapshot, i));
      if (!text.empty()) text += (format.row_break && i % format.row_break == 0) ? " ‖ " : " ";
      text += changed ? "<b>" + v + "</b>" : v;
    }
    return bold_changed ? "<code>" + text + "</code>" : text;
  };

  const auto& steps = tracer.steps();
  if (markdown) {
    out << "| step | active threads | what each did | `" << format.array << "` afterwards |\n";
    out << "|---|---|---|---|\n";
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    std::string active, did;
    for (int t : s.active()) active += (active.empty() ? "T" : " T") + std::to_string(t);
    int last_thread = -2;
    for (const Write& w : s.writes) {
      std::string who = w.thread < 0 ? "" : "T" + std::to_string(w.thread) + ": ";
      if (!did.empty()) did += w.thread == last_thread ? "; " : (markdown ? ", " : " | ");
      did += (w.thread == last_thread ? "" : who) + what(k, s, w);
      last_thread = w.thread;
    }
    if (active.empty()) active = "(after the last barrier)";
    if (markdown) {
      std::string place = where(s);
      if (s.file) place = "`" + std::string(s.op) + "` at " + place.substr(std::string(s.op).size() + 4);
      out << "| " << k + 1 << ". " << title(k, s) << " <br><small>" << place << "</small> | " << active
          << " | " << did << " | " << row(s.after, true, s) << " |\n";
    } else {
      out << "Step " << k + 1 << ": " << title(k, s) << "   (" << where(s) << ")\n";
      out << "  active threads: " << active << "\n";
      out << "  " << did << "\n";
      out << "  " << format.array << " afterwards: " << row(s.after, false, s) << "\n\n";
    }
  }
}

}  // namespace pplab::trace

#include <iostream>

namespace pplab::trace {

Options parse_options(int argc, char** argv, const char* what) {
  Options o;
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

}  // namespace pplab::trace
