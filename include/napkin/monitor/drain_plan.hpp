// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/drain_plan.hpp — how often the monitor's thread empties PM sampling's hardware buffer and
// how big each decode step is, from the settings. Plain C++17; compiles without CUDA.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "napkin/monitor/settings.hpp"

NAPKIN_BEGIN_NAMESPACE

struct drain_plan {
  // A sample of the monitor's set takes at least ~128 KiB of the hardware buffer on an H200
  // (docs/monitor.md), so the buffer's fill time is its size over that, times the interval.
  static constexpr std::uint64_t buffer_bytes_per_sample = 128u << 10;
  static constexpr std::size_t steps_per_drain = 16;  // a drain decodes at most this many images
  // Windows older than this are attributed (a kernel's record arrives after it ends, within a drain or two).
  static constexpr std::uint64_t settle_lag_ns = 2'000'000'000;

  std::uint64_t period_ns = 100'000'000;  // between drains
  std::uint32_t samples_per_decode = 32;  // the counter-data image's capacity (one decode step)
};

// A quarter of the buffer's fill time, 10-100 ms (longer drains, 320 ms at 5 ms samples, overflowed the
// buffer on an H200), or settings.drain_period_ns when set; one decode step holds one and a half drains'
// samples, 8-256 (each costs ~100 KB decoded, and the image is re-initialized per step, so a bigger one
// costs more per step). `s` must be valid (validate_monitor_settings).
inline drain_plan plan_drains(const monitor_settings& s) {
  drain_plan plan;
  const double fill_ns = static_cast<double>(s.hardware_buffer_bytes) /
                         static_cast<double>(drain_plan::buffer_bytes_per_sample) * static_cast<double>(s.interval_ns);
  plan.period_ns = static_cast<std::uint64_t>(std::clamp(fill_ns / 4, 10e6, 100e6));
  if (s.drain_period_ns > 0) plan.period_ns = s.drain_period_ns;
  const std::uint64_t per_drain = plan.period_ns / s.interval_ns + 1;
  plan.samples_per_decode = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(per_drain * 3 / 2, 8, 256));
  return plan;
}

NAPKIN_END_NAMESPACE
