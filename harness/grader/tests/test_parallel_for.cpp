// parallel_for (parallel_for.h), the grader's one pool: every item once, no more threads
// than asked, a long item does not hold up the others, and an exception comes back.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "parallel_for.h"

using pplab::cli::parallel_for;

TEST_CASE("every item runs exactly once") {
  for (int workers : {1, 2, 7}) {
    std::vector<std::atomic<int>> runs(1000);
    parallel_for(runs.size(), workers, [&](std::size_t i) { ++runs[i]; });
    for (const auto& count : runs) CHECK(count == 1);
  }
}

TEST_CASE("no item runs when there are none, and workers below one means one") {
  int calls = 0;
  parallel_for(0, 4, [&](std::size_t) { ++calls; });
  CHECK(calls == 0);
  parallel_for(3, 0, [&](std::size_t) { ++calls; });
  CHECK(calls == 3);
}

TEST_CASE("at most `workers` threads run items, the caller among them") {
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::atomic<int> running{0}, most{0};
  parallel_for(64, 3, [&](std::size_t) {
    const int now = ++running;
    for (int m = most; now > m && !most.compare_exchange_weak(m, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
      std::lock_guard<std::mutex> lock(mutex);
      seen.insert(std::this_thread::get_id());
    }
    --running;
  });
  CHECK(most <= 3);
  CHECK(seen.size() <= 3);
  CHECK(seen.count(std::this_thread::get_id()) == 1);
}

TEST_CASE("a long item does not hold up the others: free workers take the next") {
  // Item 0 waits until every other item has run; with two workers that only ends if the
  // second worker takes items 1..9 while the first is busy with item 0.
  std::atomic<int> others{0};
  parallel_for(10, 2, [&](std::size_t i) {
    if (i == 0) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (others < 9 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    } else {
      ++others;
    }
  });
  CHECK(others == 9);
}

TEST_CASE("the first exception is rethrown once every running item has ended") {
  // Item 2 throws once the other three are running; they end, and nothing else starts.
  std::atomic<int> started{0}, ended{0};
  CHECK_THROWS_WITH_AS(parallel_for(4, 4,
                                    [&](std::size_t i) {
                                      if (i == 2) {
                                        while (started < 3) std::this_thread::yield();
                                        throw std::runtime_error("item 2 failed");
                                      }
                                      ++started;
                                      std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                      ++ended;
                                    }),
                       "item 2 failed", std::runtime_error);
  CHECK(ended == 3);
  int after = 0;
  CHECK_THROWS(parallel_for(100, 1, [&](std::size_t i) {
    if (i == 5) throw std::runtime_error("stop");
    ++after;
  }));
  CHECK(after == 5);  // one worker: items 0-4 ran, none after the throw
}
