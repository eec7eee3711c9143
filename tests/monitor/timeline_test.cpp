// The sample timeline (napkin/monitor/sample_timeline.hpp): samples in order pass through; a run of samples
// without a usable time is laid over the gap it left when its elapsed cycles fill it, else lost with the gap
// as a dropped window; holes between timed samples (samples lost without a trace) become dropped windows;
// overflows, session restarts and pauses. Expected windows are worked out by hand.
#include "napkin/monitor/sample_timeline.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

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
pm_sample untimed(double sm, double read_bytes, std::optional<double> cycles, std::uint64_t stale = 100) {
  return timed(stale, stale, sm, read_bytes, cycles);
}

// Records the windows the accumulator receives, through the kernel readings it attributes.
struct run {
  monitor_accumulator acc{keep_first()};
  sample_timeline timeline;
  void push(const pm_sample& s) { timeline.push(s, acc); }
  monitor_totals kernel_totals() {  // a copy: groups() returns a fresh vector
    acc.finish();
    REQUIRE(acc.groups().size() == 1);
    return acc.groups().front().totals;
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
  CHECK(r.acc.device().samples_kept == 3);
}

TEST_CASE("an untimed run whose cycles fill the gap is laid over it") {
  run r;
  r.acc.add_kernel(kernel("k", 1000, 4000));
  r.push(timed(0, 1000, 0, 0, 2000));  // 2 cycles per ns
  // Three untimed samples of 1000 ns each (2000 cycles); the next good one starts 3000 ns after the last end.
  r.push(untimed(10, 100, 2000));
  r.push(untimed(20, 200, 2000));
  r.push(untimed(60, 300, 2000));
  CHECK(r.timeline.counts().untimed == 3);
  r.push(timed(4000, 5000, 0, 0, 2000));
  CHECK(r.timeline.counts().placed == 3);
  CHECK(r.timeline.counts().lost == 0);
  const monitor_totals t = r.kernel_totals();
  // Placed at [1000,2000), [2000,3000), [3000,4000): the kernel fills them, so its SM % is their mean.
  CHECK(t.incomplete == 0);
  CHECK(t.sampled_ns == 3000);
  CHECK(t.readings.sm_pct.weighted / static_cast<double>(t.readings.sm_pct.ns) == doctest::Approx(30.0));
  CHECK(t.readings.dram_read_bytes.weighted == doctest::Approx(600.0));
  CHECK(r.acc.device().samples_kept == 5);
  CHECK(r.acc.device().samples_dropped == 0);
}

TEST_CASE("each placed sample is as long as its share of the run's cycles") {
  run r;
  r.acc.add_kernel(kernel("k", 1000, 1500));  // inside the first placed sample only
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(untimed(40, 100, 1000));  // 500 ns
  r.push(untimed(80, 900, 3000));  // 1500 ns
  r.push(timed(3000, 4000, 0, 0, 2000));
  const monitor_totals t = r.kernel_totals();
  // The first placed window is [1000, 1500): the kernel has it all (SM 40, 100 bytes).
  CHECK(t.readings.sm_pct.weighted / static_cast<double>(t.readings.sm_pct.ns) == doctest::Approx(40.0));
  CHECK(t.readings.dram_read_bytes.weighted == doctest::Approx(100.0));
  CHECK(t.incomplete == 0);
}

TEST_CASE("a run within the tolerance is stretched to tile the gap exactly") {
  run r;
  r.acc.add_kernel(kernel("k", 1000, 4000));
  r.push(timed(0, 1000, 0, 0, 2000));
  // 3 x 2030 cycles = 3045 ns at 2 cycles per ns, in a 3000 ns gap: 1.5 % over, placed as 1000 ns each.
  for (int i = 0; i < 3; ++i) r.push(untimed(50, 100, 2030));
  r.push(timed(4000, 5000, 0, 0, 2000));
  CHECK(r.timeline.counts().placed == 3);
  const monitor_totals t = r.kernel_totals();
  CHECK(t.sampled_ns == 3000);
  CHECK(t.incomplete == 0);
  CHECK(r.acc.device().wall_ns() == 5000);
}

TEST_CASE("a run just past the tolerance is lost") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  // 3 x 2100 cycles = 3150 ns in a 3000 ns gap: 5 % over the 2 % tolerance.
  for (int i = 0; i < 3; ++i) r.push(untimed(50, 100, 2100));
  r.push(timed(4000, 5000, 0, 0, 2000));
  CHECK(r.timeline.counts().placed == 0);
  CHECK(r.timeline.counts().lost == 3);
  CHECK(r.timeline.counts().examples.find("their cycles span 3150 ns") != std::string::npos);
}

TEST_CASE("a run whose cycles do not fill the gap is lost with it") {
  run r;
  r.acc.add_kernel(kernel("k", 1000, 4000));
  r.push(timed(0, 1000, 0, 0, 2000));
  for (int i = 0; i < 3; ++i) r.push(untimed(50, 100, 2000));  // 3000 ns of cycles
  r.push(timed(7000, 8000, 0, 0, 2000));                       // in a 6000 ns gap
  CHECK(r.timeline.counts().placed == 0);
  CHECK(r.timeline.counts().lost == 3);
  CHECK(r.timeline.counts().examples.find("lost, their cycles span 3000 ns") != std::string::npos);
  CHECK(r.timeline.counts().examples.find("3 at 100 in a gap of 6000 ns") != std::string::npos);
  const monitor_totals t = r.kernel_totals();
  CHECK(t.incomplete == 1);  // the kernel lies in the dropped stretch: nothing attributed to it
  CHECK(t.readings.sm_pct.ns == 0);
  CHECK(r.acc.device().samples_dropped == 3);
  CHECK(r.acc.device().dropped_ns == 6000);
}

TEST_CASE("a run without cycle counts, or before any clock rate, is lost") {
  SUBCASE("a sample without elapsed cycles") {
    run r;
    r.push(timed(0, 1000, 0, 0, 2000));
    r.push(untimed(50, 100, 2000));
    r.push(untimed(50, 100, std::nullopt));
    r.push(timed(3000, 4000, 0, 0, 2000));
    CHECK(r.timeline.counts().lost == 2);
    CHECK(r.timeline.counts().examples.find("a sample without elapsed cycles") != std::string::npos);
  }
  SUBCASE("NaN cycles") {
    run r;
    r.push(timed(0, 1000, 0, 0, 2000));
    r.push(untimed(50, 100, std::numeric_limits<double>::quiet_NaN()));
    r.push(timed(2000, 3000, 0, 0, 2000));
    CHECK(r.timeline.counts().lost == 1);
  }
  SUBCASE("good samples without cycles: no clock rate") {
    run r;
    r.push(timed(0, 1000, 0, 0, std::nullopt));
    r.push(untimed(50, 100, 2000));
    r.push(timed(2000, 3000, 0, 0, std::nullopt));
    CHECK(r.timeline.counts().lost == 1);
    CHECK(r.timeline.counts().examples.find("no clock rate yet") != std::string::npos);
  }
  SUBCASE("no gap at all") {
    run r;
    r.push(timed(0, 1000, 0, 0, 2000));
    r.push(untimed(50, 100, 2000));
    r.push(timed(1000, 2000, 0, 0, 2000));
    r.acc.finish();
    CHECK(r.timeline.counts().lost == 1);
    CHECK(r.acc.device().samples_dropped == 0);  // no stretch to stand for them
    CHECK(r.timeline.counts().examples.find("no gap to hold them") != std::string::npos);
  }
}

TEST_CASE("an overflow leaves the stretch before the next sample dropped, and no run is placed across it") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(untimed(50, 100, 2000));
  r.timeline.samples_lost();
  r.push(timed(2000, 3000, 0, 0, 2000));  // the run would fit, but samples were lost too
  CHECK(r.timeline.counts().lost == 1);
  r.timeline.samples_lost();
  r.push(timed(5000, 6000, 0, 0, 2000));  // an overflow alone: [3000, 5000) dropped, two samples' length
  CHECK(r.timeline.counts().missing == 2);
  r.acc.finish();
  CHECK(r.acc.device().dropped_ns == 3000);
  CHECK(r.acc.device().samples_dropped == 3);  // [1000, 2000): the lost run's 1; [3000, 5000): 2
  CHECK(r.acc.device().samples_kept == 3);
}

TEST_CASE("a hole between timed samples is samples lost without a trace: a dropped window, counted") {
  // Samples of 1000 ns; [2000, 5000) holds none: three samples' length, as a decode that filled its image
  // leaves them (no overflow flag, no untimed survivor).
  run r;
  r.acc.add_kernel(kernel("k", 1500, 5500));
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(timed(1000, 2000, 50, 0, 2000));
  r.push(timed(5000, 6000, 50, 0, 2000));
  CHECK(r.timeline.counts().missing == 3);
  CHECK(r.timeline.counts().untimed == 0);
  const monitor_totals t = r.kernel_totals();
  CHECK(r.acc.device().samples_dropped == 3);
  CHECK(r.acc.device().dropped_ns == 3000);
  CHECK(r.acc.device().samples_kept == 3);
  CHECK(t.incomplete == 1);  // the kernel ran through the hole: not fully sampled
  CHECK(t.dropped_ns == 3000);
}

TEST_CASE("a hole is counted in samples of the last one's length, rounded; under half a sample it is rounding") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(timed(1400, 2400, 0, 0, 2000));  // 400 ns: less than half a sample, not a loss
  CHECK(r.timeline.counts().missing == 0);
  r.push(timed(3000, 4000, 0, 0, 2000));  // 600 ns: one sample
  CHECK(r.timeline.counts().missing == 1);
  r.push(timed(6400, 7400, 0, 0, 2000));  // 2400 ns: two samples
  CHECK(r.timeline.counts().missing == 3);
  r.acc.finish();
  CHECK(r.acc.device().samples_dropped == 3);
  CHECK(r.acc.device().dropped_ns == 3000);
}

TEST_CASE("a hole of exactly half a sample is one sample lost") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(timed(1000, 2000, 0, 0, 2000));
  r.push(timed(2499, 3499, 0, 0, 2000));  // 499 ns: under half
  CHECK(r.timeline.counts().missing == 0);
  r.push(timed(3999, 4999, 0, 0, 2000));  // 500 ns: half, one sample
  CHECK(r.timeline.counts().missing == 1);
}

TEST_CASE("a lost untimed run counts the samples of the stretch it leaves, at least its own") {
  // Timed samples of 1000 ns; 2 untimed survivors; the next timed sample starts 5000 ns later: the stretch
  // held 5 samples, 2 of them the run (lost: their cycles span 2000 ns, not 5000), 3 missing.
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(timed(1000, 2000, 0, 0, 2000));
  r.push(untimed(50, 100, 2000));
  r.push(untimed(50, 100, 2000));
  r.push(timed(7000, 8000, 0, 0, 2000));
  CHECK(r.timeline.counts().lost == 2);
  CHECK(r.timeline.counts().missing == 3);
  r.acc.finish();
  CHECK(r.acc.device().samples_dropped == 5);
  CHECK(r.acc.device().dropped_ns == 5000);
}

TEST_CASE("a session's long first sample does not set the length a hole is measured in") {
  // The first sample spans a 400,000 ns setup; then samples of 1000 ns with a 3000 ns hole: 3 samples.
  run r;
  r.push(timed(0, 400000, 0, 0, 800000));
  r.push(timed(400000, 401000, 0, 0, 2000));
  r.push(timed(401000, 402000, 0, 0, 2000));
  r.push(timed(405000, 406000, 0, 0, 2000));
  CHECK(r.timeline.counts().missing == 3);
}

TEST_CASE("the stretch before a restarted session's first sample is not a hole") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  r.timeline.session_started();
  r.push(timed(9000, 10000, 0, 0, 2000));  // the setup sample, after sampling was off
  r.push(timed(10000, 11000, 0, 0, 2000));
  CHECK(r.timeline.counts().missing == 0);
  r.acc.finish();
  CHECK(r.acc.device().dropped_ns == 1000);  // the setup sample only, not [1000, 9000)
  CHECK(r.acc.device().setup_samples_dropped + r.acc.device().samples_dropped == 1);
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

TEST_CASE("a pause loses a waiting run and skips the accumulator to its end") {
  run r;
  r.acc.add_kernel(kernel("k", 1500, 1800));
  r.push(timed(0, 1000, 0, 0, 2000));
  r.push(untimed(50, 100, 2000));
  r.timeline.paused_until(9000, r.acc);
  CHECK(r.timeline.counts().lost == 1);
  CHECK(r.timeline.last_end() == 9000);
  CHECK(r.acc.pending_kernels() == 0);  // folded as incomplete: no window will cover it
  r.push(timed(9000, 10000, 0, 0, 2000));
  CHECK(r.kernel_totals().incomplete == 1);
}

TEST_CASE("an endless untimed run stays bounded") {
  run r;
  r.push(timed(0, 1000, 0, 0, 2000));
  for (std::size_t i = 0; i < sample_timeline::max_run + 5; ++i) r.push(untimed(50, 100, 2000));
  CHECK(r.timeline.counts().untimed == sample_timeline::max_run + 5);
  CHECK(r.timeline.counts().lost == sample_timeline::max_run);
}

TEST_CASE("elapsed cycles are checked like the readings") {
  pm_sample s = timed(0, 1000, 0, 0, -1.0);
  CHECK_THROWS_WITH_AS(check_sample(s, 4), "napkin: monitor sample 4: elapsed_cycles must be finite and >= 0, got -1",
                       std::invalid_argument);
}

TEST_CASE("a session restarted after sampling stopped: its first sample spans the stop, the part after the pause is setup") {
  // sample= stretches: the sampler stops at 1000, the pause closes the timeline at 4000, and the restarted
  // session's first sample spans [1000, 5000) (from the stop, as CUPTI reports it).
  run r;
  r.acc.add_kernel(kernel("k", 4500, 6000));
  r.push(timed(0, 1000, 0, 0, 2000));
  r.timeline.paused_until(4000, r.acc);
  r.timeline.session_started();
  r.push(timed(1000, 5000, 0, 0, 8000));
  r.push(timed(5000, 6000, 90, 0, 2000));
  CHECK(r.timeline.counts().untimed == 0);
  CHECK(r.timeline.last_end() == 6000);
  r.acc.finish();
  CHECK(r.acc.device().setup_samples_dropped + r.acc.device().samples_dropped == 1);
  CHECK(r.acc.device().samples_kept == 2);
  const monitor_totals t = r.kernel_totals();
  CHECK(t.dropped_ns == 500);  // [4500, 5000) lay in the setup sample
  CHECK(t.sampled_ns == 1000);
}

TEST_CASE("pm_sample::busy: an SM or DRAM reading above 1 % (it anchors the sampling schedule)") {
  pm_sample idle;
  CHECK_FALSE(idle.busy());  // nothing read
  idle.sm_pct = 0.2;
  idle.dram_pct = 0.9;
  idle.sm_active_pct = 0.5;
  CHECK_FALSE(idle.busy());
  pm_sample copy = idle;
  copy.dram_pct = 88.0;
  CHECK(copy.busy());
  pm_sample spin = idle;
  spin.sm_active_pct = 40.0;
  CHECK(spin.busy());
  pm_sample other_chip;  // no SM inputs: the triage SM reading counts
  other_chip.sm_pct = 12.0;
  CHECK(other_chip.busy());
}
