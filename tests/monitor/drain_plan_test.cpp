// How often the monitor drains the hardware buffer and how big a decode step is (napkin/monitor/
// drain_plan.hpp): every 50 samples or a quarter of the buffer's fill time at ~128 KiB per sample, whichever
// comes first, 2-100 ms; one and a half drains' samples per step, 8-256. Expected values worked out by hand.
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
  // 50/1 + 1 = 51 samples per drain, x 3/2 = 76 per step.
  const drain_plan p = plan_drains(monitor_settings{});
  CHECK(p.period_ns == 50'000'000);
  CHECK(p.samples_per_decode == 76);
}

TEST_CASE("5 ms: 50 samples are 250 ms, so drains are capped at 100 ms") {
  // 32 MiB / 128 KiB = 256 samples x 5 ms = 1.28 s, a quarter 320 ms; 50 x 5 ms = 250 ms -> 100 ms.
  // 100/5 + 1 = 21 samples per drain, x 3/2 = 31 per step.
  const drain_plan p = plan_drains(with(5'000'000, 32u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 31);
}

TEST_CASE("every 50 samples when that comes before a quarter of the fill time") {
  // 1 ms: a quarter of 256 x 1 ms is 64 ms, 50 samples 50 ms -> 50 ms; 51 per drain -> 76 per step.
  const drain_plan p = plan_drains(with(1'000'000, 32u << 20));
  CHECK(p.period_ns == 50'000'000);
  CHECK(p.samples_per_decode == 76);
  // The accuracy run: 200 us, 512 MiB: a quarter of 4096 x 200 us is 204.8 ms, 50 samples 10 ms -> 10 ms.
  const drain_plan fine = plan_drains(with(200'000, 512u << 20));
  CHECK(fine.period_ns == 10'000'000);
  CHECK(fine.samples_per_decode == 76);
}

TEST_CASE("a quarter of the fill time when the buffer is the limit") {
  // 1 ms with 4 MiB: 32 samples x 1 ms = 32 ms, a quarter 8 ms (50 samples: 50 ms) -> 8 ms; 9 -> 13 per step.
  const drain_plan p = plan_drains(with(1'000'000, 4u << 20));
  CHECK(p.period_ns == 8'000'000);
  CHECK(p.samples_per_decode == 13);
}

TEST_CASE("short intervals drain every 2 ms at most") {
  // 25 us: a quarter of 256 x 25 us is 1.6 ms, 50 samples 1.25 ms -> 2 ms; 80 + 1 per drain -> 121 per step.
  const drain_plan p = plan_drains(with(25'000, 32u << 20));
  CHECK(p.period_ns == 2'000'000);
  CHECK(p.samples_per_decode == 121);
}

TEST_CASE("a huge interval does not overflow") {
  // 50 x 1e18 ns exceeds 64 bits: computed in double, clamped to 100 ms.
  const drain_plan p = plan_drains(with(1'000'000'000'000'000'000ull, 32u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 8);
}

TEST_CASE("long intervals use the smallest step") {
  // 100 ms: 2 per drain -> 3 -> 8 at least.
  const drain_plan p = plan_drains(with(100'000'000, 32u << 20));
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 8);
}

TEST_CASE("a drain period set by hand wins") {
  // 500 ms at 200 us: 2500 + 1 per drain -> 256 per step at most.
  const drain_plan p = plan_drains(with(200'000, 4u << 20, 500'000'000));
  CHECK(p.period_ns == 500'000'000);
  CHECK(p.samples_per_decode == 256);
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
