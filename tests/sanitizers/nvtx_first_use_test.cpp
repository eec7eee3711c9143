// The first NVTX calls of a process, from several threads at once, under an NVTX tool: the first call
// initializes NVTX (it loads the tool, which fills in NVTX's function pointers) while the other threads'
// napkin::range constructors read those pointers (napkin::detail::should_push). This is the moment
// ThreadSanitizer would see a race between napkin and NVTX's initialization (tests/run.sh's TSan lane runs
// this test; tests/sanitizers/tsan.supp says what is suppressed). In every build it checks that no event is
// lost while NVTX initializes: every thread's every range reaches the tool, balanced.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "napkin/nvtx.hpp"
#include "nvtx/recorder.hpp"

TEST_CASE("ranges opened by several threads while NVTX initializes all reach the tool") {
  constexpr int threads = 4;
  constexpr int per_thread = 50;
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&ready] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();  // start together: the first call races
      for (int i = 0; i < per_thread; ++i) napkin::range r{"first use"};
    });
  }
  for (auto& th : pool) th.join();

  // Each range is one push and one pop, on its own thread (the recorder writes " tid=<n>").
  std::map<std::string, int> pushes, pops;
  for (std::string const& line : napkin_test::take()) {
    const std::size_t at = line.find(" tid=");
    REQUIRE(at != std::string::npos);
    const std::string tid = line.substr(at + 5, line.find(' ', at + 5) - (at + 5));
    if (line.rfind("push domain=napkin name=\"first use\"", 0) == 0) ++pushes[tid];
    else if (line.rfind("pop domain=napkin", 0) == 0) ++pops[tid];
  }
  CHECK(pushes.size() == static_cast<std::size_t>(threads));
  for (auto const& entry : pushes) {
    CAPTURE(entry.first);
    CHECK(entry.second == per_thread);
    CHECK(pops[entry.first] == per_thread);
  }
}
