// The accumulator (napkin/monitor/accumulator.hpp): data added piecemeal and settled in steps gives the same
// totals as attribute() on all of it at once; late records, the bound on pending windows, and the ordering
// contract.
#include "napkin/monitor/accumulator.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "monitor/helpers.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
void check_same(const reading_sum& a, const reading_sum& b) {
  CHECK(a.ns == b.ns);
  CHECK(a.weighted == doctest::Approx(b.weighted));
}

void check_same(const monitor_totals& a, const monitor_totals& b) {
  CHECK(a.count == b.count);
  CHECK(a.incomplete == b.incomplete);
  CHECK(a.gpu_ns == b.gpu_ns);
  CHECK(a.sampled_ns == b.sampled_ns);
  CHECK(a.dropped_ns == b.dropped_ns);
  CHECK(a.concurrent_ns == b.concurrent_ns);
  check_same(a.readings.sm_pct, b.readings.sm_pct);
  check_same(a.readings.dram_pct, b.readings.dram_pct);
  check_same(a.readings.l1tex_pct, b.readings.l1tex_pct);
  check_same(a.readings.l2_slices_pct, b.readings.l2_slices_pct);
  check_same(a.readings.dram_read_bytes, b.readings.dram_read_bytes);
  check_same(a.readings.dram_write_bytes, b.readings.dram_write_bytes);
}

const std::vector<pm_sample> windows = {sample(0, 1000, 80, 40, 30, 20, 1400, 100),
                                        sample(1000, 2000, 20, 10, 5, 5, 700, 50),
                                        sample(2000, 3000, 60, 70, 40, 50, 3000, 900)};
const std::vector<kernel_record> kernels = {kernel("k1", 0, 800, {"decode"}, 1),
                                            kernel("k2", 400, 1000, {"decode", "attention"}, 2),
                                            kernel("k3", 1200, 1700, {"decode", "attention"}, 1),
                                            kernel("k4", 1800, 2600, {}, 1), kernel("k1", 2600, 2900, {"decode"}, 1)};
}  // namespace

TEST_CASE("settled in steps equals attributed at once") {
  monitor_accumulator acc(keep_first());
  acc.add_sample(windows[0]);
  acc.add_kernel(kernels[0]);
  acc.add_kernel(kernels[1]);
  acc.add_sample(windows[1]);
  acc.settle(1000);  // window 0 attributed; k1 and k2 ended by its end: folded
  CHECK(acc.pending_windows() == 1);
  CHECK(acc.pending_kernels() == 0);
  acc.add_kernel(kernels[2]);
  acc.add_sample(windows[2]);
  acc.add_kernel(kernels[3]);
  acc.settle(2500);  // window 1 only (window 2 ends at 3000); k4 runs on into window 2: kept pending
  CHECK(acc.pending_windows() == 1);
  CHECK(acc.pending_kernels() == 1);
  acc.add_kernel(kernels[4]);
  acc.finish();
  CHECK(acc.pending_windows() == 0);
  CHECK(acc.pending_kernels() == 0);

  const std::vector<kernel_group> at_once = group_kernels(kernels, attribute(windows, kernels, {}, keep_first()));
  const std::vector<kernel_group> stepped = acc.groups();
  REQUIRE(stepped.size() == at_once.size());
  REQUIRE(stepped.size() == 4);  // (k1, decode) twice folds into one group
  for (std::size_t i = 0; i < stepped.size(); ++i) {
    CAPTURE(i);
    CHECK(stepped[i].name == at_once[i].name);
    CHECK(stepped[i].phase == at_once[i].phase);
    check_same(stepped[i].totals, at_once[i].totals);
  }
  CHECK(acc.device().samples_kept == 3);
  CHECK(acc.device().sampled_ns == 3000);
  CHECK(acc.device().late_kernels == 0);
  // k4 [1800,2600): 200 ns in window 1 (busy there 500 + 200 = 700) and 600 in window 2.
  CHECK(acc.device().busy_ns == 1000 + 700 + 900);
}

// The monitor's way: a settle at every drain, a lag behind, kernels of several streams arriving out of end
// order (so kernels fold from the middle of those waiting, not only from the front), with drains where
// nothing can fold. Every total equals attribute() on everything at once.
TEST_CASE("settled at every drain with kernels out of order equals attributed at once") {
  std::mt19937 random(7);
  std::vector<pm_sample> all_windows;
  for (std::uint64_t t = 0; t < 200'000; t += 1000)
    all_windows.push_back(sample(t, t + 1000, 10.0 + static_cast<double>(random() % 80),
                                 5.0 + static_cast<double>(random() % 90), 1, 2, 100.0 + static_cast<double>(random() % 50), 7));
  std::vector<kernel_record> all_kernels;
  const char* names[] = {"gemm", "copy", "softmax", "tiny"};
  for (std::uint32_t stream = 0; stream < 3; ++stream)
    for (std::uint64_t t = std::uint64_t{100} * stream; t < 195'000;) {
      const std::uint64_t length = 50 + random() % (stream == 0 ? 5000 : 600);
      kernel_record k = kernel(names[random() % 4], t, t + length, {stream == 2 ? "decode" : "prefill"});
      k.stream_id = stream;
      all_kernels.push_back(k);
      t += length + random() % 300;
    }
  // Arrival order: by start, so a long kernel arrives before shorter ones that end first.
  std::vector<kernel_record> arriving = all_kernels;
  std::stable_sort(arriving.begin(), arriving.end(),
                   [](const kernel_record& a, const kernel_record& b) { return a.start_ns < b.start_ns; });

  monitor_accumulator acc(keep_first());
  std::size_t next_window = 0, next_kernel = 0;
  const std::uint64_t lag = 20'000;
  for (std::uint64_t now = 2000; now <= 260'000; now += 2000) {  // a drain
    while (next_window < all_windows.size() && all_windows[next_window].end_ns <= now)
      acc.add_sample(all_windows[next_window++]);
    while (next_kernel < arriving.size() && arriving[next_kernel].start_ns < now) acc.add_kernel(arriving[next_kernel++]);
    if (now > lag) acc.settle(now - lag);
  }
  acc.finish();
  CHECK(acc.pending_kernels() == 0);
  CHECK(acc.device().late_kernels == 0);

  const std::vector<kernel_group> at_once =
      group_kernels(all_kernels, attribute(all_windows, all_kernels, {}, keep_first()));
  const std::vector<kernel_group> stepped = acc.groups();
  REQUIRE(stepped.size() == at_once.size());
  REQUIRE(stepped.size() == 8);
  for (std::size_t i = 0; i < stepped.size(); ++i) {
    CAPTURE(i);
    CHECK(stepped[i].name == at_once[i].name);
    CHECK(stepped[i].phase == at_once[i].phase);
    check_same(stepped[i].totals, at_once[i].totals);
  }
}

TEST_CASE("pending kernels: counted until folded, whichever order they fold in") {
  monitor_accumulator acc(keep_first());
  acc.add_sample(sample(0, 1000, 50, 50));
  acc.add_kernel(kernel("long", 0, 5000));   // arrives first, ends last
  acc.add_kernel(kernel("short", 100, 900));
  acc.add_kernel(kernel("mid", 200, 2500));
  acc.settle(1000);  // "short" folds from behind "long"
  CHECK(acc.pending_kernels() == 2);
  acc.settle(1000);  // nothing more can fold
  CHECK(acc.pending_kernels() == 2);
  acc.skip_until(3000);  // "mid"
  CHECK(acc.pending_kernels() == 1);
  acc.add_kernel(kernel("late", 2000, 2900));  // ends inside time already closed: folds at the next settle
  CHECK(acc.pending_kernels() == 2);
  acc.settle(0);
  CHECK(acc.pending_kernels() == 1);
  CHECK(acc.device().late_kernels == 1);
  acc.finish();
  CHECK(acc.pending_kernels() == 0);
  const std::vector<kernel_group> g = acc.groups();
  REQUIRE(g.size() == 4);
  for (const kernel_group& k : g) CHECK(k.totals.count == 1);
}

TEST_CASE("a copy finishes on its own: the original's groups are untouched and go on") {
  monitor_accumulator acc(keep_first());
  acc.add_sample(sample(0, 1000, 50, 50));
  acc.add_kernel(kernel("a", 0, 400));
  acc.add_kernel(kernel("b", 500, 1500));
  acc.settle(1000);  // "a" folds: its group is known by its class from now on
  monitor_accumulator copy = acc;  // as monitor::report() does
  copy.add_kernel(kernel("a", 1600, 1700));
  copy.finish();
  REQUIRE(copy.groups().size() == 2);
  CHECK(copy.groups()[0].totals.count == 2);
  REQUIRE(acc.groups().size() == 1);
  CHECK(acc.groups()[0].totals.count == 1);  // the copy's folds went to the copy's groups
  acc.add_kernel(kernel("a", 1800, 1900));
  acc.finish();
  REQUIRE(acc.groups().size() == 2);
  CHECK(acc.groups()[0].totals.count == 2);
  monitor_accumulator moved = std::move(copy);
  moved.add_kernel(kernel("a", 2000, 2100));
  moved.finish();
  CHECK(moved.groups()[0].totals.count == 3);
}

TEST_CASE("a kernel record that arrives after its window was settled is late and incomplete") {
  monitor_accumulator acc(keep_first());
  acc.add_sample(sample(0, 1000, 50, 50));
  acc.add_sample(sample(1000, 2000, 50, 50));
  acc.settle(1000);
  acc.add_kernel(kernel("late", 900, 1100));  // [900,1000) is gone
  acc.finish();
  CHECK(acc.device().late_kernels == 1);
  const std::vector<kernel_group> g = acc.groups();
  REQUIRE(g.size() == 1);
  CHECK(g[0].totals.sampled_ns == 100);
  CHECK(g[0].totals.unsampled_ns() == 100);
  CHECK(g[0].totals.incomplete == 1);
}

TEST_CASE("pending windows are bounded: the oldest is settled when the bound is passed") {
  monitor_accumulator acc(keep_first(), 2);
  for (std::uint64_t i = 0; i < 5; ++i) {
    acc.add_sample(sample(i * 1000, (i + 1) * 1000, 10, 10));
    CHECK(acc.pending_windows() <= 2);
  }
  CHECK(acc.device().samples_kept == 3);
  acc.finish();
  CHECK(acc.device().samples_kept == 5);
  CHECK(acc.device().idle_ns == 5000);
  CHECK_THROWS_WITH_AS(monitor_accumulator(keep_first(), 0), doctest::Contains("max_pending_windows >= 1"),
                       std::invalid_argument);
}

TEST_CASE("the first sample is the setup sample; dropped windows count; order is enforced") {
  monitor_accumulator acc;  // default options: drop the first sample
  acc.add_sample(sample(0, 1000, 99, 99));
  acc.add_sample(sample(1000, 2000, 10, 10));
  acc.add_dropped({2000, 4000, 2});
  acc.add_sample(sample(4000, 5000, 10, 10));
  acc.add_kernel(kernel("k", 3500, 4500));
  acc.finish();
  CHECK(acc.device().setup_samples_dropped == 1);
  CHECK(acc.device().samples_dropped == 2);
  CHECK(acc.device().samples_kept == 2);
  CHECK(acc.device().dropped_ns == 1000 + 2000);
  CHECK(acc.device().wall_ns() == 5000);
  REQUIRE(acc.groups().size() == 1);
  CHECK(acc.groups()[0].totals.incomplete == 1);
  CHECK(acc.groups()[0].totals.dropped_ns == 500);

  CHECK_THROWS_WITH_AS(acc.add_sample(sample(4500, 6000, 1, 1)),
                       doctest::Contains("starts before the previous one ends (5000)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(acc.add_dropped({100, 200, 1}), doctest::Contains("in time order"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(acc.add_sample(sample(6000, 7000, -1, 1)), doctest::Contains("sm_pct must be finite"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(acc.add_kernel(kernel("k", 9, 8)), doctest::Contains("ends (8) before it starts (9)"),
                       std::invalid_argument);
}

TEST_CASE("skip_until folds kernels recorded while nothing was sampled") {
  monitor_accumulator acc(keep_first());
  acc.add_sample(sample(0, 1000, 40, 40));
  acc.add_kernel(kernel("sampled", 200, 800));
  acc.add_kernel(kernel("paused", 1500, 2500));  // the monitor was paused over [1000, 3000)
  acc.add_kernel(kernel("straddles", 2800, 3500));
  acc.skip_until(3000);
  CHECK(acc.pending_windows() == 0);
  CHECK(acc.pending_kernels() == 1);  // "straddles" may still be sampled after 3000
  const std::vector<kernel_group> g = acc.groups();
  REQUIRE(g.size() == 2);
  CHECK(g[0].name == "paused");
  CHECK(g[0].totals.incomplete == 1);
  CHECK(g[0].totals.unsampled_ns() == 1000);
  CHECK(g[1].name == "sampled");
  CHECK(g[1].totals.incomplete == 0);
  acc.add_sample(sample(3000, 4000, 20, 20));
  acc.finish();
  CHECK(acc.groups().size() == 3);
  CHECK(acc.device().late_kernels == 0);
  CHECK_THROWS_WITH_AS(acc.skip_until(3999), doctest::Contains("before the end of the last window added (4000)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(acc.add_sample(sample(3500, 3900, 1, 1)), doctest::Contains("in time order"),
                       std::invalid_argument);
}

TEST_CASE("group_kernels needs the records that were attributed") {
  const attribution a = attribute(windows, kernels, {}, keep_first());
  CHECK_THROWS_WITH_AS(group_kernels({}, a), doctest::Contains("needs the 5 kernel records"), std::invalid_argument);
}
