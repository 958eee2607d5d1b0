// Memoised speed, for any lab: what a student who wants the timed repeats for free would
// write around an honest implementation. A Memo sits in front of one entry point; each
// call names the device buffers the entry point reads (its inputs) and writes (its
// outputs), and the scalar arguments that change the answer. Three ways to decide that
// an answer is already known:
//   by_hash        a hash of the inputs' bytes (brought to the host) and the scalars: the
//                  same question, wherever it sits; each hit prints "memo hit" to stderr,
//                  which the runner passes on quoted (lab> memo hit);
//   by_pointer     the inputs' and outputs' addresses, their sizes and the scalars: the
//                  timer asks again on the same buffers;
//   by_call_count  the call's ordinal among calls of this size and scalars: after the
//                  warm-up, every call is the same question.
// On a hit the outputs are written from the copies kept; otherwise the honest call runs
// and its outputs are copied. Device memory is read and written with cudaMemcpy only (the
// emulator keeps it closed to host code, as a GPU does).
//
// Every run the timer makes draws fresh inputs (pplab/fresh_inputs.h): a kept answer is
// wrong when checked (unverified), and by hash there is no hit among the timed repeats.
// After them the timer asks the last repeat's input again: by hash that is a hit, answered
// faster than the work when the work costs time, and the timer names it (from_memory).
// PPLAB_MEMO_WORK_MS gives the honest work that cost (a wait after it): on the emulator,
// at the sizes a test can afford, the host computation costs no more than the copy of a
// kept answer, where on a GPU the lab's work is what a kept answer saves.
//
// Each lab's attack, memo_labNN.cu, picks its strategy from PPLAB_MEMO_STRATEGY (set per
// runner in CMakeLists.txt) and includes this once.
#pragma once
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <thread>
#include <vector>

namespace pplab::redteam {
namespace {

enum class Strategy { by_hash, by_pointer, by_call_count };

#ifndef PPLAB_MEMO_STRATEGY
#error "compile with PPLAB_MEMO_STRATEGY=by_hash, by_pointer or by_call_count"
#endif
constexpr Strategy kStrategy = Strategy::PPLAB_MEMO_STRATEGY;

#ifndef PPLAB_MEMO_WORK_MS
#define PPLAB_MEMO_WORK_MS 0
#endif
constexpr int kWorkMs = PPLAB_MEMO_WORK_MS;

// Calls the timer makes before it times (its warm-up, 3 by default): by call count, the
// ones answered honestly.
constexpr int kHonestCalls = 3;

// A device buffer an entry point reads or writes.
struct Span {
  const void* d;
  std::size_t bytes;
};
template <class T>
Span span(const T* d, std::size_t count) {
  return {d, count * sizeof(T)};
}

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> host(n);
  if (n) cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}
template <class T>
void upload(T* d, const std::vector<T>& host) {
  if (!host.empty()) cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
}

// What a key is made of: scalars, addresses, sizes, hashes, a word each, in order.
class Key {
 public:
  template <class T>
  Key& add(const T& value) {
    static_assert(sizeof(T) <= sizeof(std::uint64_t), "one word per value");
    std::uint64_t word = 0;
    std::memcpy(&word, &value, sizeof(T));
    words_.push_back(word);
    return *this;
  }
  bool operator<(const Key& other) const { return words_ < other.words_; }

 private:
  std::vector<std::uint64_t> words_;
};

// Scalar arguments of a call, as one key (Key{}.add(a).add(b) for several).
template <class... T>
Key scalars(const T&... values) {
  Key key;
  (key.add(values), ...);
  return key;
}

std::uint64_t fnv1a(const std::vector<unsigned char>& bytes, std::uint64_t hash = 1469598103934665603ull) {
  for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  return hash;
}

class Memo {
 public:
  // Answers the call from a kept answer if it has one; else runs `honest()` and keeps
  // copies of `outputs` as it left them.
  template <class Honest>
  void call(std::initializer_list<Span> inputs, std::initializer_list<Span> outputs, Key key, Honest&& honest) {
    for (const Span& s : inputs) key.add(s.bytes);
    for (const Span& s : outputs) key.add(s.bytes);
    bool hit = false;
    switch (kStrategy) {
      case Strategy::by_hash: {
        std::uint64_t hash = 1469598103934665603ull;
        for (const Span& s : inputs) hash = fnv1a(bytes_of(s), hash);
        key.add(hash);
        hit = kept_.count(key) > 0;
        if (hit) std::fprintf(stderr, "memo hit\n");
        break;
      }
      case Strategy::by_pointer:
        for (const Span& s : inputs) key.add(s.d);
        for (const Span& s : outputs) key.add(s.d);
        hit = kept_.count(key) > 0;
        break;
      case Strategy::by_call_count:
        hit = ++calls_[key] > kHonestCalls;  // then the answer the last honest call left
        break;
    }
    if (hit) {
      auto kept = kept_.at(key).begin();
      for (const Span& s : outputs) {
        if (s.bytes) cudaMemcpy(const_cast<void*>(s.d), kept->data(), s.bytes, cudaMemcpyHostToDevice);
        ++kept;
      }
      return;
    }
    honest();
    if (kWorkMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(kWorkMs));
    std::vector<std::vector<unsigned char>>& kept = kept_[key];
    kept.clear();
    for (const Span& s : outputs) kept.push_back(bytes_of(s));
  }

 private:
  static std::vector<unsigned char> bytes_of(Span s) {
    std::vector<unsigned char> bytes(s.bytes);
    if (s.bytes) cudaMemcpy(bytes.data(), s.d, s.bytes, cudaMemcpyDeviceToHost);
    return bytes;
  }

  std::map<Key, std::vector<std::vector<unsigned char>>> kept_;
  std::map<Key, int> calls_;
};

}  // namespace
}  // namespace pplab::redteam
