// How often the monitor drains the hardware buffer and how big a decode step is (napkin/monitor/
// drain_plan.hpp): a quarter of the buffer's fill time at ~128 KiB per sample, 10-100 ms; one and a half
// drains' samples per step, 8-256. Expected values worked out by hand in each case.
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

TEST_CASE("the defaults: 32 MiB at 5 ms fills in 1.28 s, so drains are capped at 100 ms") {
  // 32 MiB / 128 KiB = 256 samples x 5 ms = 1.28 s; a quarter is 320 ms -> 100 ms. 100/5 + 1 = 21 samples
  // per drain, x 3/2 = 31 per step.
  const drain_plan p = plan_drains(monitor_settings{});
  CHECK(p.period_ns == 100'000'000);
  CHECK(p.samples_per_decode == 31);
}

TEST_CASE("a quarter of the fill time between the bounds") {
  // 1 ms: 256 x 1 ms = 256 ms, a quarter 64 ms; 64 + 1 = 65 per drain -> 97 per step.
  const drain_plan p = plan_drains(with(1'000'000, 32u << 20));
  CHECK(p.period_ns == 64'000'000);
  CHECK(p.samples_per_decode == 97);
}

TEST_CASE("short intervals drain every 10 ms with the largest step") {
  // 25 us: 256 x 25 us = 6.4 ms, a quarter 1.6 ms -> 10 ms; 400 + 1 per drain -> 256 per step at most.
  const drain_plan p = plan_drains(with(25'000, 32u << 20));
  CHECK(p.period_ns == 10'000'000);
  CHECK(p.samples_per_decode == 256);
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
