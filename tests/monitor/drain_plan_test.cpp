// How often the monitor drains the hardware buffer and how big a decode step is (napkin/monitor/
// drain_plan.hpp): every 50 samples or a quarter of the buffer's fill time at ~128 KiB per sample, whichever
// comes first, 2-100 ms; one decode step holds what the buffer holds at ~128 KiB a sample, 16-4096; the next
// deadline a period after the last one.
// Expected values worked out by hand.
#include "napkin/monitor/drain_plan.hpp"

#include <doctest/doctest.h>

using namespace napkin;

namespace {
monitor_settings with(std::uint64_t interval_ns, std::uint64_t buffer_bytes, std::uint64_t drain_ns = 0) {
  monitor_settings s;
  s.interval_ns = interval_ns;
  s.hardware_buffer_bytes = buffer_bytes;
  s.drain_period_ns = drain_ns;
  return s;
}
}  // namespace

TEST_CASE("the defaults: 50 samples of 1 ms come before a quarter of the fill time") {
  // 32 MiB / 128 KiB = 256 samples x 1 ms = 256 ms, a quarter 64 ms; 50 x 1 ms = 50 ms -> 50 ms.
  // A step holds the buffer: 32 MiB / 128 KiB + 1 = 257 samples.
  const drain_plan p = plan_drains(monitor_settings{});
  CHECK(p.period_ns == 50'000'000);
  CHECK(p.samples_per_decode == 257);
}

TEST_CASE("5 ms: 50 samples are 250 ms, so drains are capped at 100 ms") {
  // 32 MiB / 128 KiB = 256 samples x 5 ms = 1.28 s, a quarter 320 ms; 50 x 5 ms = 250 ms -> 100 ms.
  // The step holds the buffer whatever the period: 257 samples.
  const drain_plan p = plan_drains(with(5'000'000, 32u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 257);
}

TEST_CASE("every 50 samples when that comes before a quarter of the fill time") {
  // 1 ms: a quarter of 256 x 1 ms is 64 ms, 50 samples 50 ms -> 50 ms; 257 per step.
  const drain_plan p = plan_drains(with(1'000'000, 32u << 20));
  CHECK(p.period_ns == 50'000'000);
  CHECK(p.samples_per_decode == 257);
  // The accuracy run: 200 us, 512 MiB: a quarter of 4096 x 200 us is 204.8 ms, 50 samples 10 ms -> 10 ms;
  // 512 MiB / 128 KiB + 1 = 4097 samples, capped at 4096 per step.
  const drain_plan fine = plan_drains(with(200'000, 512u << 20));
  CHECK(fine.period_ns == 10'000'000);
  CHECK(fine.samples_per_decode == 4096);
}

TEST_CASE("a quarter of the fill time when the buffer is the limit") {
  // 1 ms with 4 MiB: 32 samples x 1 ms = 32 ms, a quarter 8 ms (50 samples: 50 ms) -> 8 ms; 4 MiB / 128 KiB + 1 = 33 per step.
  const drain_plan p = plan_drains(with(1'000'000, 4u << 20));
  CHECK(p.period_ns == 8'000'000);
  CHECK(p.samples_per_decode == 33);
}

TEST_CASE("short intervals drain every 2 ms at most") {
  // 25 us: a quarter of 256 x 25 us is 1.6 ms, 50 samples 1.25 ms -> 2 ms; 257 per step.
  const drain_plan p = plan_drains(with(25'000, 32u << 20));
  CHECK(p.period_ns == 2'000'000);
  CHECK(p.samples_per_decode == 257);
}

TEST_CASE("a huge interval does not overflow") {
  // 50 x 1e18 ns exceeds 64 bits: computed in double, clamped to 100 ms.
  const drain_plan p = plan_drains(with(1'000'000'000'000'000'000ull, 32u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 257);
}

TEST_CASE("a small buffer gets the smallest step") {
  // 1 MiB / 128 KiB + 1 = 9 samples -> 16 at least. 100 ms: a quarter of 8 x 100 ms is 200 ms -> 100 ms.
  const drain_plan p = plan_drains(with(100'000'000, 1u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 16);
}

TEST_CASE("a drain period set by hand wins") {
  // 500 ms at 200 us: the step still holds the 4 MiB buffer, 33 samples.
  const drain_plan p = plan_drains(with(200'000, 4u << 20, 500'000'000));
  CHECK(p.period_ns == 500'000'000);
  CHECK(p.samples_per_decode == 33);
}

TEST_CASE("the image holds the buffer's samples up to 4096") {
  // 511 MiB / 128 KiB + 1 = 4089 (under the cap); 1 GiB: 8193 -> 4096.
  CHECK(plan_drains(with(1'000'000, 511ull << 20)).samples_per_decode == 4089);
  CHECK(plan_drains(with(1'000'000, 1ull << 30)).samples_per_decode == 4096);
}

TEST_CASE("next_drain_due: a period after the last deadline, not after the drain's work") {
  // Due at 1000, period 500: a drain that took 200 ns is followed at 1500, not at 1700.
  CHECK(next_drain_due(1000, 1200, 500) == 1500);
  CHECK(next_drain_due(1000, 1500, 500) == 1500);  // finished right at the next deadline
  // A drain that ran past its successor's deadline (work 700 > period 500): the next one at once, and the
  // schedule restarts from there (no burst of drains to catch up).
  CHECK(next_drain_due(1000, 1700, 500) == 1700);
  CHECK(next_drain_due(1700, 1800, 500) == 2200);
  static_assert(next_drain_due(0, 0, 10) == 10, "usable in constant expressions");
  // A period set by hand near 2^64 ns saturates instead of wrapping into the past (a drain loop spinning).
  CHECK(next_drain_due(1000, 1000, UINT64_MAX) == UINT64_MAX);
}

TEST_CASE("sampling_schedule: the first `for` of every `every`, from the first kernel; always without sample=") {
  CHECK(sampling_schedule{}.always());
  CHECK(sampling_schedule{}.on_at(123));
  monitor_settings s;
  s.sample_for_ns = 1000;
  s.sample_every_ns = 30000;
  sampling_schedule q(s, 5000);
  q.kernels_seen(5000);  // a kernel at once
  CHECK_FALSE(q.always());
  CHECK(q.on_at(5000));
  CHECK(q.on_at(5999));
  CHECK_FALSE(q.on_at(6000));
  CHECK_FALSE(q.on_at(34999));
  CHECK(q.on_at(35000));
  CHECK(q.on_at(35999));
  CHECK_FALSE(q.on_at(36000));
  CHECK(q.on_at(4000));  // before the start (a clock read early): on, as at the start
}

TEST_CASE("sampling_schedule: counted from the first kernel seen; before any, the first `for` only") {
  monitor_settings s;
  s.sample_for_ns = 1000;
  s.sample_every_ns = 30000;
  sampling_schedule q(s, 5000);
  CHECK(q.on_at(5999));
  CHECK_FALSE(q.on_at(6000));   // no kernel yet: nothing to read, so no more stretches
  CHECK_FALSE(q.on_at(35500));  // where a schedule from the start would sample
  q.kernels_seen(50000);        // the program's first kernel, long after its start-up
  CHECK(q.on_at(50000));
  CHECK(q.on_at(50999));
  CHECK_FALSE(q.on_at(51000));
  CHECK(q.on_at(80000));
  CHECK_FALSE(q.on_at(81000));
  q.kernels_seen(81500);  // later kernels move nothing
  CHECK_FALSE(q.on_at(81500));
  CHECK(q.on_at(110500));
  sampling_schedule early(s, 5000);
  early.kernels_seen(5400);  // a kernel inside the first stretch: the stretch runs `for` from it
  CHECK(early.on_at(6300));
  CHECK_FALSE(early.on_at(6400));
  CHECK(early.on_at(35400));
  sampling_schedule all;  // sample=all
  all.kernels_seen(10);
  CHECK(all.on_at(1'000'000'000));
}
