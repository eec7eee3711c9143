// The first napkin NVTX call of a process decides "is a tool listening?" correctly. Before NVTX has
// initialized, its dispatch pointers hold NVTX's init stub, which is non-null with or without a tool
// (nvtx3/nvtxDetail/nvtxImpl.h, nvtxInit.h); napkin must not read that as "a tool listens" and build
// the name. Each test case is run by CTest in a process of its own (--test-case=...), because only the
// first call of a process shows it; they are marked skip so that running the binary alone runs none.
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "recorder.hpp"

namespace {
// A name that counts how often napkin built it.
std::atomic<int> names_built{0};
std::string counted_name() {
  names_built.fetch_add(1);
  return "counted";
}
}  // namespace

TEST_CASE("no tool: the process's first range does not build its name" * doctest::skip()) {
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") == nullptr);
  {
    napkin::range r{[] { return counted_name(); }};
  }
  CHECK(names_built.load() == 0);
  // A malformed format in the first range is never formatted either (the old code threw here, once).
  const std::string malformed = "layer {} {}";
  CHECK_NOTHROW([&]() noexcept { napkin::range bad{napkin::runtime_format(malformed), 1}; }());
  CHECK_FALSE(napkin::nvtx_tool_attached());
  CHECK_FALSE(napkin_test::recorder_loaded());
}

TEST_CASE("no tool: the process's first unique_range does not build its name" * doctest::skip()) {
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") == nullptr);
  auto u = napkin::unique_range{[] { return counted_name(); }};
  CHECK_FALSE(u.running());
  CHECK(names_built.load() == 0);
}

TEST_CASE("no tool: the process's first mark does not build its name" * doctest::skip()) {
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") == nullptr);
  napkin::mark([] { return counted_name(); });
  CHECK(names_built.load() == 0);
}

TEST_CASE("no tool: set_nvtx_enabled(true) before the first range, which does not build its name" *
          doctest::skip()) {
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") == nullptr);
  napkin::set_nvtx_enabled(true);  // the switch says "on" before any range has run
  {
    napkin::range r{[] { return counted_name(); }};
  }
  CHECK(names_built.load() == 0);
}

TEST_CASE("tool attached: the process's first range builds its name once and reaches the tool" *
          doctest::skip()) {
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") != nullptr);
  {
    napkin::range r{[] { return counted_name(); }};
  }
  CHECK(names_built.load() == 1);
  // Color: FNV-1a("counted") % 360 = 205 -> hsv(205, 0.75, 0.9) = 0xFF399EE6 (Python, colorsys).
  CHECK(napkin_test::without_tids(napkin_test::history()) ==
        std::vector<std::string>{R"(push domain=napkin name="counted" color=0xFF399EE6 category=0 payload=none)",
                                 "pop domain=napkin"});
}

TEST_CASE("tool attached: threads that open the process's first ranges at once all reach the tool" *
          doctest::skip()) {
  // Every thread's first napkin call races with NVTX's initialization (the tool writing NVTX's dispatch
  // pointers). Run under ThreadSanitizer, this is the case that must report no race.
  REQUIRE(std::getenv("NVTX_INJECTION64_PATH") != nullptr);
  constexpr int threads = 8;
  constexpr int per_thread = 50;
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&ready] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      for (int i = 0; i < per_thread; ++i) {
        napkin::range r{"first"};
      }
    });
  }
  for (auto& th : pool) th.join();
  const std::vector<std::string> got = napkin_test::history();
  CHECK(got.size() == static_cast<std::size_t>(threads * per_thread * 2));
  std::size_t pushes = 0;
  for (const auto& line : got) pushes += line.rfind("push domain=napkin name=\"first\"", 0) == 0 ? 1 : 0;
  CHECK(pushes == static_cast<std::size_t>(threads * per_thread));
}
