// Attribution rules (napkin/monitor/attribution.hpp, docs/monitor.md "Attribution") on synthetic windows and
// kernel records. Every expected value is worked out by hand in the comment above it; times are in ns.
#include "napkin/monitor/attribution.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "monitor/helpers.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
// Three 1000 ns windows; one kernel [500, 2500) runs 500, 1000 and 500 ns in them.
//             SM  DRAM  L1  L2s  read  write
//   [0,1000)  10   20    5    8  1000   600
//   [1000,2k) 40   50   30   36  4000  2000
//   [2k,3k)   30   40   15   20  3000  1000
std::vector<pm_sample> three_windows() {
  return {sample(0, 1000, 10, 20, 5, 8, 1000, 600), sample(1000, 2000, 40, 50, 30, 36, 4000, 2000),
          sample(2000, 3000, 30, 40, 15, 20, 3000, 1000)};
}
}  // namespace

TEST_CASE("one kernel over three windows, no-work-when-idle: readings spread over the busy time") {
  const attribution a = attribute(three_windows(), {kernel("k", 500, 2500)}, {}, keep_first());
  REQUIRE(a.kernels.size() == 1);
  const monitor_totals& k = a.kernels[0];
  // Busy 500 of 1000 in the outer windows: their readings x 2 (W/U); the middle one x 1.
  // SM   (500*20 + 1000*40 + 500*60) / 2000 = 80000 / 2000 = 40
  // DRAM (500*40 + 1000*50 + 500*80) / 2000 = 110000 / 2000 = 55
  // L1   (500*10 + 1000*30 + 500*30) / 2000 = 50000 / 2000 = 25
  // L2s  (500*16 + 1000*36 + 500*40) / 2000 = 64000 / 2000 = 32
  CHECK(*k.readings.sm_pct.mean() == doctest::Approx(40));
  CHECK(*k.readings.dram_pct.mean() == doctest::Approx(55));
  CHECK(*k.readings.l1tex_pct.mean() == doctest::Approx(25));
  CHECK(*k.readings.l2_slices_pct.mean() == doctest::Approx(32));
  // The only kernel in each window takes all its bytes: 1000 + 4000 + 3000 read, 600 + 2000 + 1000 written.
  CHECK(*k.readings.dram_read_bytes.total() == doctest::Approx(8000));
  CHECK(*k.readings.dram_write_bytes.total() == doctest::Approx(3600));
  CHECK(k.count == 1);
  CHECK(k.gpu_ns == 2000);
  CHECK(k.sampled_ns == 2000);
  CHECK(k.concurrent_ns == 0);
  CHECK(k.incomplete == 0);
  // The device: 3000 sampled, 2000 busy, 1000 idle (the outer halves), no bytes to idle.
  CHECK(a.device.sampled_ns == 3000);
  CHECK(a.device.busy_ns == 2000);
  CHECK(a.device.idle_ns == 1000);
  CHECK(a.device.samples_kept == 3);
  CHECK(a.device.wall_ns() == 3000);
  CHECK_FALSE(a.device.idle.dram_read_bytes.total().has_value());
}

TEST_CASE("one kernel over three windows, time-share: readings as read, idle keeps its share") {
  const attribution a = attribute(three_windows(), {kernel("k", 500, 2500)}, {}, keep_first(idle_model::time_share));
  const monitor_totals& k = a.kernels[0];
  // SM   (500*10 + 1000*40 + 500*30) / 2000 = 60000 / 2000 = 30
  // DRAM (500*20 + 1000*50 + 500*40) / 2000 = 80000 / 2000 = 40
  CHECK(*k.readings.sm_pct.mean() == doctest::Approx(30));
  CHECK(*k.readings.dram_pct.mean() == doctest::Approx(40));
  // Bytes by busy share U/W: 0.5*1000 + 1*4000 + 0.5*3000 = 6000 read; 300 + 2000 + 500 = 2800 written.
  CHECK(*k.readings.dram_read_bytes.total() == doctest::Approx(6000));
  CHECK(*k.readings.dram_write_bytes.total() == doctest::Approx(2800));
  // Idle: the other halves, 500 + 1500 = 2000 read and 300 + 500 = 800 written; its SM mean over 1000 ns
  // is (500*10 + 500*30) / 1000 = 20. Kernel + idle = every byte of the windows.
  CHECK(*a.device.idle.dram_read_bytes.total() == doctest::Approx(2000));
  CHECK(*a.device.idle.dram_write_bytes.total() == doctest::Approx(800));
  CHECK(*a.device.idle.sm_pct.mean() == doctest::Approx(20));
  CHECK(*k.readings.dram_read_bytes.total() + *a.device.idle.dram_read_bytes.total() == doctest::Approx(8000));
}

TEST_CASE("two kernels one after the other in one window") {
  // Window [0,1000): SM 50, DRAM 60, 1000 B read, 500 B written. k1 [0,200), k2 [400,1000): busy 800.
  const std::vector<pm_sample> s = {sample(0, 1000, 50, 60, 0, 0, 1000, 500)};
  const std::vector<kernel_record> k = {kernel("k1", 0, 200), kernel("k2", 400, 1000)};
  SUBCASE("no-work-when-idle") {
    const attribution a = attribute(s, k, {}, keep_first());
    // W/U = 1000/800 = 1.25: SM 62.5, DRAM 75 for both.
    CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(62.5));
    CHECK(*a.kernels[1].readings.dram_pct.mean() == doctest::Approx(75));
    // Bytes by overlap over S = 800: k1 200/800, k2 600/800.
    CHECK(*a.kernels[0].readings.dram_read_bytes.total() == doctest::Approx(250));
    CHECK(*a.kernels[1].readings.dram_read_bytes.total() == doctest::Approx(750));
    CHECK(*a.kernels[0].readings.dram_write_bytes.total() == doctest::Approx(125));
    CHECK(*a.kernels[1].readings.dram_write_bytes.total() == doctest::Approx(375));
    CHECK(a.device.idle_ns == 200);
    CHECK(a.kernels[0].concurrent_ns == 0);
    CHECK(a.kernels[1].concurrent_ns == 0);
  }
  SUBCASE("time-share") {
    const attribution a = attribute(s, k, {}, keep_first(idle_model::time_share));
    CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(50));
    // 1000 * (800/1000) * (200/800) = 200 and 600; idle 1000 * 200/1000 = 200.
    CHECK(*a.kernels[0].readings.dram_read_bytes.total() == doctest::Approx(200));
    CHECK(*a.kernels[1].readings.dram_read_bytes.total() == doctest::Approx(600));
    CHECK(*a.device.idle.dram_read_bytes.total() == doctest::Approx(200));
  }
}

TEST_CASE("two concurrent kernels on two streams share the device-wide reading and split the bytes") {
  // Window 1 [0,1000): SM 80, DRAM 40, 1400 B read. k1 (stream 1) [0,800), k2 (stream 2) [400,1000):
  //   o1 = 800, o2 = 600, union U = 1000, S = 1400, both run in [400,800): 400 ns concurrent each.
  // Window 2 [1000,2000): SM 20, DRAM 10, 700 B read. k3 (stream 1) [1200,1700) alone: W/U = 2.
  const std::vector<pm_sample> s = {sample(0, 1000, 80, 40, 0, 0, 1400, 0), sample(1000, 2000, 20, 10, 0, 0, 700, 0)};
  const std::vector<kernel_record> k = {kernel("k1", 0, 800, {}, 1), kernel("k2", 400, 1000, {}, 2),
                                        kernel("k3", 1200, 1700, {}, 1)};
  const attribution a = attribute(s, k, {}, keep_first());
  // Both get the window's own reading (U = W, so no scaling): SM 80, DRAM 40.
  CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(80));
  CHECK(*a.kernels[1].readings.sm_pct.mean() == doctest::Approx(80));
  CHECK(*a.kernels[1].readings.dram_pct.mean() == doctest::Approx(40));
  // 1400 B split 800:600.
  CHECK(*a.kernels[0].readings.dram_read_bytes.total() == doctest::Approx(800));
  CHECK(*a.kernels[1].readings.dram_read_bytes.total() == doctest::Approx(600));
  CHECK(a.kernels[0].concurrent_ns == 400);
  CHECK(a.kernels[1].concurrent_ns == 400);
  // k3 alone for 500 of 1000: SM 40, DRAM 20, all 700 B, not concurrent.
  CHECK(*a.kernels[2].readings.sm_pct.mean() == doctest::Approx(40));
  CHECK(*a.kernels[2].readings.dram_pct.mean() == doctest::Approx(20));
  CHECK(*a.kernels[2].readings.dram_read_bytes.total() == doctest::Approx(700));
  CHECK(a.kernels[2].concurrent_ns == 0);
  // Busy is the union: 1000 + 500, not the 1900 of summed kernel time.
  CHECK(a.device.busy_ns == 1500);
  CHECK(a.device.idle_ns == 500);
}

TEST_CASE("three kernels overlapping in a chain: concurrent time counts any other kernel") {
  // [0,600), [400,1000), [800,1200) in windows [0,1000) and [1000,2000).
  // a: concurrent [400,600) = 200. b: [400,600) + [800,1000) = 400. c: [800,1000) = 200 (window 1 only).
  const attribution r =
      attribute({sample(0, 1000, 10, 10), sample(1000, 2000, 10, 10)},
                {kernel("a", 0, 600), kernel("b", 400, 1000), kernel("c", 800, 1200)}, {}, keep_first());
  CHECK(r.kernels[0].concurrent_ns == 200);
  CHECK(r.kernels[1].concurrent_ns == 400);
  CHECK(r.kernels[2].concurrent_ns == 200);
  CHECK(r.device.busy_ns == 1200);
}

TEST_CASE("kernels that only touch are not concurrent") {
  const attribution a =
      attribute({sample(0, 1000, 50, 50)}, {kernel("a", 0, 500), kernel("b", 500, 1000)}, {}, keep_first());
  CHECK(a.kernels[0].concurrent_ns == 0);
  CHECK(a.kernels[1].concurrent_ns == 0);
  CHECK(a.device.busy_ns == 1000);
}

TEST_CASE("a window without a kernel goes to the idle bucket, readings and bytes") {
  // [0,1000) idle: SM 3, DRAM 2, 100 + 50 B. [1000,2000): one kernel over all of it.
  const attribution a = attribute({sample(0, 1000, 3, 2, 0, 0, 100, 50), sample(1000, 2000, 70, 30, 0, 0, 900, 0)},
                                  {kernel("k", 1000, 2000)}, {}, keep_first());
  CHECK(a.device.idle_ns == 1000);
  CHECK(*a.device.idle.sm_pct.mean() == doctest::Approx(3));
  CHECK(*a.device.idle.dram_read_bytes.total() == doctest::Approx(100));
  CHECK(*a.device.idle.dram_write_bytes.total() == doctest::Approx(50));
  CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(70));
  CHECK(*a.kernels[0].readings.dram_read_bytes.total() == doctest::Approx(900));
  // Idle 1000 of 2000 sampled.
  CHECK(a.device.busy_ns == 1000);
  CHECK(a.device.sampled_ns == 2000);
}

TEST_CASE("the first sample spans setup: dropped by default, its kernels incomplete") {
  // [0,1000) is the setup sample (absurd readings that must not show), [1000,2000) kept.
  const std::vector<pm_sample> s = {sample(0, 1000, 99, 99, 99, 99, 1e9, 1e9), sample(1000, 2000, 40, 20)};
  // k1 [1500,1800) only in the kept window; k2 [500,1500) half in the setup window.
  const std::vector<kernel_record> k = {kernel("k1", 1500, 1800), kernel("k2", 500, 1500)};
  const attribution a = attribute(s, k);
  CHECK(a.device.setup_samples_dropped == 1);
  CHECK(a.device.samples_dropped == 0);
  CHECK(a.device.samples_kept == 1);
  CHECK(a.device.sampled_ns == 1000);
  CHECK(a.device.dropped_ns == 1000);
  CHECK(a.device.wall_ns() == 2000);
  CHECK(a.kernels[0].incomplete == 0);
  CHECK(a.kernels[1].incomplete == 1);
  CHECK(a.kernels[1].dropped_ns == 500);
  CHECK(a.kernels[1].sampled_ns == 500);
  // Busy in the kept window: [1000,1500) and [1500,1800), 800 ns; W/U = 1.25: SM 50 for both.
  CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(50));
  CHECK(*a.kernels[1].readings.sm_pct.mean() == doctest::Approx(50));

  std::vector<pm_sample> copy = s;
  const std::optional<dropped_window> d = drop_setup_sample(copy);
  REQUIRE(d.has_value());
  CHECK(d->start_ns == 0);
  CHECK(d->end_ns == 1000);
  CHECK(copy.size() == 1);
  CHECK(copy[0].start_ns == 1000);
  std::vector<pm_sample> none;
  CHECK_FALSE(drop_setup_sample(none).has_value());
}

TEST_CASE("dropped windows are counted; a kernel touching one is incomplete") {
  // Kept [0,1000) and [2000,3000); [1000,2000) lost 3 samples.
  const std::vector<pm_sample> s = {sample(0, 1000, 10, 10), sample(2000, 3000, 10, 10)};
  const std::vector<dropped_window> lost = {{1000, 2000, 3}};
  const std::vector<kernel_record> k = {kernel("inside", 100, 900), kernel("across", 1500, 2500),
                                        kernel("after", 2800, 3200)};
  const attribution a = attribute(s, k, lost, keep_first());
  CHECK(a.device.samples_dropped == 3);
  CHECK(a.device.dropped_ns == 1000);
  CHECK(a.device.samples_kept == 2);
  CHECK(a.kernels[0].incomplete == 0);
  CHECK(a.kernels[1].incomplete == 1);
  CHECK(a.kernels[1].dropped_ns == 500);
  CHECK(a.kernels[1].sampled_ns == 500);
  // "after" runs 200 ns past the last window: unsampled, so incomplete unless the tolerance allows 200 ns.
  CHECK(a.kernels[2].unsampled_ns() == 200);
  CHECK(a.kernels[2].incomplete == 1);
  attribution_options tolerant = keep_first();
  tolerant.gap_tolerance_ns = 200;
  CHECK(attribute(s, k, lost, tolerant).kernels[2].incomplete == 0);
  CHECK(attribute(s, k, lost, tolerant).kernels[1].incomplete == 1);  // a dropped window is never tolerated
  // A kernel entirely after the last window, shorter than the tolerance, touched no window: never complete.
  const attribution late = attribute(s, {kernel("beyond", 3100, 3250)}, lost, tolerant);
  CHECK(late.kernels[0].unsampled_ns() == 150);
  CHECK(late.kernels[0].sampled_ns == 0);
  CHECK(late.kernels[0].incomplete == 1);
}

TEST_CASE("a reading a sample lacks is missing, not zero") {
  pm_sample s = sample(0, 1000, 50, 50);
  s.l1tex_pct.reset();
  s.dram_read_bytes.reset();
  pm_sample t = sample(1000, 2000, 30, 30, 20, 0, 100, 0);
  const attribution a = attribute({s, t}, {kernel("k", 0, 2000)}, {}, keep_first());
  // L1 only from the second window: mean 20, over 1000 ns (a zero for the first would give 10).
  CHECK(*a.kernels[0].readings.l1tex_pct.mean() == doctest::Approx(20));
  CHECK(a.kernels[0].readings.l1tex_pct.ns == 1000);
  CHECK(a.kernels[0].readings.dram_read_bytes.ns == 1000);
  const attribution none = attribute({s}, {kernel("k", 0, 1000)}, {}, keep_first());
  CHECK_FALSE(none.kernels[0].readings.l1tex_pct.mean().has_value());
  CHECK_FALSE(none.kernels[0].readings.dram_read_bytes.total().has_value());
}

TEST_CASE("kernels in any order, a zero-length kernel, a kernel outside every window") {
  const attribution a = attribute(
      {sample(1000, 2000, 40, 40)},
      {kernel("late", 1500, 2000), kernel("early", 1000, 1500), kernel("zero", 1200, 1200), kernel("before", 0, 500)},
      {}, keep_first());
  CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(40));
  CHECK(*a.kernels[1].readings.sm_pct.mean() == doctest::Approx(40));
  CHECK(a.kernels[2].gpu_ns == 0);
  CHECK(a.kernels[2].incomplete == 0);
  CHECK_FALSE(a.kernels[2].readings.sm_pct.mean().has_value());
  CHECK(a.kernels[3].sampled_ns == 0);
  CHECK(a.kernels[3].incomplete == 1);
  CHECK_FALSE(a.kernels[3].readings.sm_pct.mean().has_value());
}

TEST_CASE("bad input is refused with a clear message") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<kernel_record> none;
  CHECK_THROWS_WITH_AS(attribute({sample(1000, 1000, 1, 1)}, none),
                       "napkin: monitor sample 0: end_ns (1000) must be after start_ns (1000)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(1000, 900, 1, 1)}, none), doctest::Contains("must be after start_ns"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, 1), sample(10, 20, nan, 1)}, none),
                       "napkin: monitor sample 1: sm_pct must be finite and >= 0, got nan", std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, -1)}, none),
                       doctest::Contains("dram_pct must be finite and >= 0, got -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, 1, inf)}, none), doctest::Contains("l1tex_pct"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, 1, 1, 1, -5)}, none), doctest::Contains("dram_read_bytes"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, 1, 1, 1, 1, nan)}, none), doctest::Contains("dram_write_bytes"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 10, 1, 1, 1, nan)}, none), doctest::Contains("l2_slices_pct"),
                       std::invalid_argument);
  // Unsorted and overlapping samples.
  CHECK_THROWS_WITH_AS(attribute({sample(100, 200, 1, 1), sample(0, 100, 1, 1)}, none),
                       doctest::Contains("sample 1: starts at 0, before the previous sample ends (200)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({sample(0, 100, 1, 1), sample(50, 150, 1, 1)}, none),
                       doctest::Contains("must not overlap"), std::invalid_argument);
  // A dropped window over a sample, one ending before it starts, one standing for no sample.
  CHECK_THROWS_WITH_AS(attribute({sample(0, 100, 1, 1)}, none, {{50, 150, 1}}, keep_first()),
                       doctest::Contains("monitor windows overlap: [0, 100) and [50, 150)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({}, none, {{150, 50, 1}}),
                       doctest::Contains("dropped window 0: end_ns (50) must be after"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({}, none, {{0, 50, 0}}), doctest::Contains("at least one sample"),
                       std::invalid_argument);
  // Kernels.
  CHECK_THROWS_WITH_AS(attribute({}, {kernel("k", 10, 5)}),
                       "napkin: monitor kernel 0: \"k\" ends (5) before it starts (10)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(attribute({}, {kernel("ok", 0, 5), kernel("", 0, 5)}), "napkin: monitor kernel 1: has no name",
                       std::invalid_argument);
}

TEST_CASE("phase names") {
  CHECK(innermost_phase({"decode", "attention"}) == "attention");
  CHECK(innermost_phase({}).empty());
  CHECK(phase_path({"decode", "attention"}) == "decode/attention");
  CHECK(phase_path({"decode"}) == "decode");
  CHECK(phase_path({}).empty());
}
