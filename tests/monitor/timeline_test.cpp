// The sample timeline (napkin/monitor/sample_timeline.hpp): samples in order pass through; a run of samples
// without a usable time is lost, with the stretch it leaves as a dropped window and its size, the stretch
// and the time its cycles span in the diagnostics; overflows, session restarts and pauses. Expected windows
// are worked out by hand.
#include "napkin/monitor/sample_timeline.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "monitor/helpers.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
// A sample with its elapsed cycles (the clock here: 2 cycles per ns).
pm_sample timed(std::uint64_t start, std::uint64_t end, double sm, double read_bytes, std::optional<double> cycles) {
  pm_sample s = sample(start, end, sm, 10, 0, 0, read_bytes, 0);
  s.elapsed_cycles = cycles;
  return s;
}
// What CUPTI returned on an H200: zero-length, stamped with one stale time.
pm_sample untimed(std::optional<double> cycles, std::uint64_t stale = 100) { return timed(stale, stale, 50, 100, cycles); }

struct run {
  monitor_accumulator acc{keep_first()};
  sample_timeline timeline;
  void push(const pm_sample& s) { timeline.push(s, acc); }
  monitor_totals kernel_totals() {  // a copy: groups() returns a fresh vector
    acc.finish();
    REQUIRE(acc.groups().size() == 1);
    return acc.groups().front().totals;
  }
  bool example_has(const std::string& text) const {
    return timeline.counts().examples.find(text) != std::string::npos;
  }
};
}  // namespace

TEST_CASE("samples in time order pass through unchanged") {
  run r;
  r.acc.add_kernel(kernel("k", 0, 3000));
  r.push(timed(0, 1000, 10, 100, 2000));
  r.push(timed(1000, 2000, 20, 200, 2000));
  r.push(timed(2000, 3000, 30, 300, 2000));
  const monitor_totals t = r.kernel_totals();
  CHECK(t.incomplete == 0);
  CHECK(t.readings.sm_pct.weighted / static_cast<double>(t.readings.sm_pct.ns) == doctest::Approx(20.0));
  CHECK(t.readings.dram_read_bytes.weighted == doctest::Approx(600.0));
  CHECK(r.timeline.counts().untimed == 0);
  CHECK(r.timeline.counts().examples.empty());
  CHECK(r.acc.device().samples_kept == 3);
  CHECK(r.timeline.last_end() == 3000);
}

TEST_CASE("an untimed run is lost with the stretch it leaves, never given to the kernels there") {
  run r;
  r.acc.add_kernel(kernel("k", 1000, 4000));
  r.push(timed(0, 1000, 0, 0, 2000));  // 2 cycles per ns
  for (int i = 0; i < 3; ++i) r.push(untimed(2000));  // 3 x 1000 ns of cycles
  CHECK(r.timeline.counts().untimed == 3);
  r.push(timed(7000, 8000, 0, 0, 2000));  // the stretch [1000, 7000): 6000 ns
  const monitor_totals t = r.kernel_totals();
  CHECK(t.incomplete == 1);
  CHECK(t.readings.sm_pct.ns == 0);
  CHECK(t.readings.dram_read_bytes.ns == 0);
  CHECK(r.acc.device().samples_dropped == 3);  // the window stands for the three samples
  CHECK(r.acc.device().dropped_ns == 6000);
  CHECK(r.acc.device().samples_kept == 2);
  CHECK(r.example_has("[3 at 100 in a gap of 6000 ns, their cycles span 3000 ns]"));
}

TEST_CASE("the diagnostics keep the first three runs") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  std::uint64_t t = 1000;
  for (int k = 1; k <= 4; ++k) {
    for (int i = 0; i < k; ++i) r.push(untimed(4000, 10 * static_cast<std::uint64_t>(k)));  // 2000 ns each
    r.push(timed(t + 500, t + 1500, 0, 0, 2000));
    t += 1500;
  }
  CHECK(r.timeline.counts().untimed == 10);
  CHECK(r.example_has("[1 at 10 in a gap of 500 ns, their cycles span 2000 ns]"));
  CHECK(r.example_has("[2 at 20 in a gap of 500 ns, their cycles span 4000 ns]"));
  CHECK(r.example_has("[3 at 30 in a gap of 500 ns, their cycles span 6000 ns]"));
  CHECK_FALSE(r.example_has("at 40"));
  r.acc.finish();
  CHECK(r.acc.device().samples_dropped == 10);
  CHECK(r.acc.device().dropped_ns == 2000);
}

TEST_CASE("without a clock rate or cycle counts the run is still lost, its span left out") {
  SUBCASE("good samples without cycles: no clock rate") {
    run r;
    r.push(timed(0, 1000, 0, 0, std::nullopt));
    r.push(untimed(2000));
    r.push(timed(2000, 3000, 0, 0, std::nullopt));
    CHECK(r.example_has("[1 at 100 in a gap of 1000 ns]"));
  }
  SUBCASE("untimed samples without cycles count nothing toward the span") {
    run r;
    r.push(timed(0, 1000, 0, 0, 2000));
    r.push(untimed(std::nullopt));
    r.push(untimed(2000));
    r.push(timed(3000, 4000, 0, 0, 2000));
    CHECK(r.example_has("[2 at 100 in a gap of 2000 ns, their cycles span 1000 ns]"));
  }
  SUBCASE("no stretch at all: nothing dropped") {
    run r;
    r.push(timed(0, 1000, 0, 0, 2000));
    r.push(untimed(2000));
    r.push(timed(1000, 2000, 0, 0, 2000));
    r.acc.finish();
    CHECK(r.timeline.counts().untimed == 1);
    CHECK(r.acc.device().samples_dropped == 0);
    CHECK(r.acc.device().samples_kept == 2);
  }
}

TEST_CASE("an overflow leaves the stretch before the next sample dropped") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.timeline.samples_lost();
  r.push(timed(3000, 4000, 0, 0, 2000));  // [1000, 3000) dropped, standing for one sample at least
  r.push(timed(4000, 5000, 0, 0, 2000));  // the overflow is forgotten once accounted for
  r.acc.finish();
  CHECK(r.acc.device().dropped_ns == 2000);
  CHECK(r.acc.device().samples_dropped == 1);
  CHECK(r.acc.device().samples_kept == 3);
}

TEST_CASE("an overflow before the first sample drops nothing") {
  run r;
  r.timeline.samples_lost();
  r.push(timed(5000, 6000, 0, 0, 2000));
  r.acc.finish();
  CHECK(r.acc.device().dropped_ns == 0);
  CHECK(r.acc.device().samples_kept == 1);
}

TEST_CASE("after a session starts again its first sample is dropped as setup") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.timeline.session_started();
  r.push(timed(5000, 6000, 0, 0, 2000));
  r.push(timed(6000, 7000, 0, 0, 2000));
  r.acc.finish();
  CHECK(r.acc.device().samples_kept == 2);
  CHECK(r.acc.device().dropped_ns == 1000);
  CHECK(r.timeline.last_end() == 7000);
}

TEST_CASE("a pause ends a waiting run and skips the accumulator to its end") {
  run r;
  r.acc.add_kernel(kernel("k", 1500, 1800));
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(untimed(2000));
  r.timeline.paused_until(9000, r.acc);
  CHECK(r.example_has("[1 at 100 in a gap of 0 ns"));
  CHECK(r.timeline.last_end() == 9000);
  CHECK(r.acc.pending_kernels() == 0);  // folded as incomplete: no window will cover it
  r.push(timed(9000, 10000, 0, 0, 2000));
  CHECK(r.kernel_totals().incomplete == 1);
}

TEST_CASE("elapsed cycles are checked like the readings") {
  const pm_sample s = timed(0, 1000, 0, 0, -1.0);
  CHECK_THROWS_WITH_AS(check_sample(s, 4), "napkin: monitor sample 4: elapsed_cycles must be finite and >= 0, got -1",
                       std::invalid_argument);
}
