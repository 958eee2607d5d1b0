/// \file
/// \brief The grader's one way of doing work side by side: students of a batch, labs of
/// a student, checks of a lab and compute-sanitizer's processes all go through
/// parallel_for.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pplab::cli {

/// Calls `body(i)` once for every i in [0, count), on at most `workers` threads (the
/// calling thread is one of them), each taking the next i as it becomes free, so long
/// items do not hold up short ones. Returns when every call has returned. The first
/// exception a call throws is rethrown here once all have ended; the items not yet
/// taken then are not run.
template <class Body>
void parallel_for(std::size_t count, int workers, const Body& body) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (std::size_t i; (i = next++) < count;) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = count;  // no new items
      }
    }
  };
  const std::size_t threads_wanted = std::min<std::size_t>(count, std::size_t(std::max(1, workers)));
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < threads_wanted; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace pplab::cli
