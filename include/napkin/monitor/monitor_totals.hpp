// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_totals.hpp — what attribution (monitor/attribution.hpp) sums and a monitor report
// (monitor/monitor_report.hpp) holds: the idle model, readings summed over time, a kernel group's totals and the
// device's. Plain data and their sums, so that the report's writers and readers need not compile attribution
// or the rate solve. Plain C++17; no CUDA or CUPTI. The rules: docs/monitor.md, "Attribution".
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

enum class idle_model {
  no_work_when_idle,  // a window's readings belong to the time its kernels ran (the default)
  time_share,         // a window's readings are shared by time between its kernels and its idle time
};
inline constexpr std::array<idle_model, 2> all_idle_models{idle_model::no_work_when_idle, idle_model::time_share};

constexpr std::string_view to_string(idle_model m) noexcept {
  switch (m) {
    case idle_model::no_work_when_idle: return "no-work-when-idle";
    case idle_model::time_share: return "time-share";
  }
  return "unknown";
}

// One reading summed over time: `weighted` is sum(overlap_ns * value) for a percentage and the attributed
// amount for bytes; `ns` is the time over which the reading was present (a sample without it adds nothing).
struct reading_sum {
  double weighted = 0;
  std::uint64_t ns = 0;

  // The time-weighted mean (percentages); nullopt when never read.
  std::optional<double> mean() const {
    if (ns == 0) return std::nullopt;
    return weighted / static_cast<double>(ns);
  }
  // The attributed total (bytes); nullopt when never read.
  std::optional<double> total() const {
    if (ns == 0) return std::nullopt;
    return weighted;
  }
  reading_sum& operator+=(const reading_sum& o) {
    weighted += o.weighted;
    ns += o.ns;
    return *this;
  }
};

struct reading_sums {
  reading_sum sm_pct, l1tex_pct, l2_slices_pct, dram_pct, dram_read_bytes, dram_write_bytes;

  reading_sums& operator+=(const reading_sums& o) {
    sm_pct += o.sm_pct;
    l1tex_pct += o.l1tex_pct;
    l2_slices_pct += o.l2_slices_pct;
    dram_pct += o.dram_pct;
    dram_read_bytes += o.dram_read_bytes;
    dram_write_bytes += o.dram_write_bytes;
    return *this;
  }
};

// What was attributed to one kernel execution, or (summed with +=) to a group of them. Every field is a
// sum, so a phase's totals are exactly the sums of its kernels'.
struct monitor_totals {
  std::uint64_t count = 0;          // kernel executions
  std::uint64_t incomplete = 0;     // of those, how many were not fully sampled
  std::uint64_t gpu_ns = 0;         // sum of end - start
  std::uint64_t sampled_ns = 0;     // of gpu_ns, inside kept samples
  std::uint64_t dropped_ns = 0;     // of gpu_ns, inside dropped windows
  std::uint64_t concurrent_ns = 0;  // of sampled + dropped, while another kernel ran too
  reading_sums readings;
  // Complete executions whose every sampled moment read DRAM bytes, and those bytes (read + write): the
  // per-launch figure stays comparable when most launches were not sampled (the hardware buffer's bound).
  std::uint64_t complete_with_bytes = 0;
  double complete_dram_bytes = 0;
  std::uint64_t complete_with_bytes_ns = 0;  // their GPU time: the rate solve's per-launch bytes use it

  // Time outside every window (before the first, after the last, in gaps).
  std::uint64_t unsampled_ns() const { return gpu_ns - sampled_ns - dropped_ns; }

  monitor_totals& operator+=(const monitor_totals& o) {
    count += o.count;
    incomplete += o.incomplete;
    gpu_ns += o.gpu_ns;
    sampled_ns += o.sampled_ns;
    dropped_ns += o.dropped_ns;
    concurrent_ns += o.concurrent_ns;
    readings += o.readings;
    complete_with_bytes += o.complete_with_bytes;
    complete_with_bytes_ns += o.complete_with_bytes_ns;
    complete_dram_bytes += o.complete_dram_bytes;
    return *this;
  }
};

// The device as a whole over everything attributed.
struct device_totals {
  std::uint64_t windows = 0;                // kept and dropped windows attributed
  std::uint64_t first_ns = 0, last_ns = 0;  // start of the first window, end of the last (kept or dropped)
  std::uint64_t sampled_ns = 0;             // sum of kept windows
  std::uint64_t busy_ns = 0;                // of sampled_ns, time with at least one kernel running
  std::uint64_t dropped_ns = 0;             // sum of dropped windows (setup included)
  std::uint64_t samples_kept = 0;
  std::uint64_t samples_dropped = 0;        // lost samples (dropped_window::samples), setup excluded
  std::uint64_t setup_samples_dropped = 0;  // first samples of sessions, dropped on purpose
  std::uint64_t late_kernels = 0;           // records that came after their windows were settled
  std::uint64_t sm_dropouts = 0;            // kept windows whose SM counters dropped out (sm_dropout_rule)
  // The idle bucket: time in kept windows with no kernel, and the readings/bytes attributed to it.
  std::uint64_t idle_ns = 0;
  reading_sums idle;

  std::uint64_t wall_ns() const { return last_ns - first_ns; }
};

NAPKIN_END_NAMESPACE
