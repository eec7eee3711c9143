// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/attribution.hpp — which kernels a PM-sampling window's device-wide readings belong to.
// Plain C++17 arithmetic; no CUDA or CUPTI. The rules, with worked numbers: docs/monitor.md, "Attribution".
//
// For one kept window W (length W ns) with readings p (a percentage) and B (DRAM bytes), let o_i be the time
// kernel i ran inside W, U the time at least one kernel ran (the union), S = sum of o_i (S > U when kernels
// overlap). A kernel's percentage is the o-weighted mean over the windows it touches of:
//   idle_model::no_work_when_idle (default)  p * W / U: the window's work happened while kernels ran (the
//       counters count nothing on an idle device), so the reading is spread over the busy time U, not W.
//       A kernel of 200 us in a 2 ms window is then not diluted tenfold by the idle time around it. The
//       window's bytes all go to its kernels: kernel i gets B * o_i / S. A window with no kernel at all
//       goes, readings and bytes, to the idle bucket. Wrong when the device works outside the recorded
//       kernels (copies, other processes): readings then come out too high, even above 100 %.
//   idle_model::time_share  p as read: kernel i gets B * (U / W) * (o_i / S), and the idle part W - U gets
//       its time's share of the readings and B * (W - U) / W. Never over-attributes; dilutes any kernel
//       that shares its window with idle time.
// Concurrent kernels (running at the same time, e.g. on two streams) cannot be told apart by device-wide
// counters: each gets the same window reading for its overlap time, and their bytes are split by overlap
// time (o_i / S). Each kernel's concurrent_ns says how long it ran alongside another one, so that nobody
// reads those numbers as solo ones. Touching intervals ([a, b) and [b, c)) are not concurrent.
// A kernel is incomplete when part of it fell in a dropped window (lost samples, or the setup sample) or
// more than gap_tolerance_ns of it lay outside every window; its readings are means over its sampled part.
// These means are blends wherever a kernel shares its windows: every kept window also goes to the rate
// solver (monitor/rate_solver.hpp), which solves each kernel class's own readings, and the report prints
// only those.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/monitor_totals.hpp"
#include "napkin/monitor/rate_solver.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

struct attribution_options {
  idle_model idle = idle_model::no_work_when_idle;
  bool drop_first_sample = true;       // the first kept sample spans the session's setup: drop it
  std::uint64_t gap_tolerance_ns = 0;  // unsampled time a kernel may have and still be complete
  rate_solver_options rates;           // the per-class solve: class cap and what "resolved" needs
  // The device's SM count (0: unknown). With it, a window whose SM counters dropped out is told: see
  // sm_dropout_rule below.
  std::uint64_t sm_count = 0;
};

// SM dropouts (docs/monitor.md, "SM dropouts"): CUPTI sometimes returns a window whose SM-side counters read
// almost nothing while a kernel that fills the SMs ran through it (an H100, 12 of 130 windows of 5 ms). Such a
// window's SM, L1 and SM-input readings are dropped (missing), never attributed as an idle SM. A window is one
// when kernels with at least one block per SM covered at least `min_filling_share` of it and sm__cycles_active
// read under `max_active_pct`: such kernels keep at least that share of the SMs busy (a block each), far above
// the 5 %, while a dropout reads under 1 % and a one-warp kernel, which never counts as filling, about 0.8 %.
struct sm_dropout_rule {
  static constexpr double min_filling_share = 0.5;
  static constexpr double max_active_pct = 5.0;
};

// The solver for these options: under time_share the idle time's rate is one more unknown.
inline rate_solver make_rate_solver(const attribution_options& o) {
  rate_solver_options r = o.rates;
  if (o.sm_count > 0) r.sm_count = o.sm_count;
  return rate_solver(o.idle == idle_model::time_share, r);
}

namespace detail {

// A window on its way through attribution: a kept sample (`sample` set) or a dropped window.
struct monitor_window {
  std::uint64_t start_ns = 0, end_ns = 0;
  std::optional<pm_sample> sample;  // nullopt: dropped
  std::uint64_t dropped_samples = 0;
  bool setup = false;  // the session's first sample, dropped on purpose
};

// A kernel being attributed: its interval and what it has received so far.
struct tracked_kernel {
  std::uint64_t start_ns = 0, end_ns = 0;
  monitor_totals totals;
  std::size_t rate_class = static_cast<std::size_t>(-1);  // its column in the rate solver
  bool fills_sms = false;                                 // at least one block per SM (sm_dropout_rule)
};

struct clipped_kernel {
  std::size_t kernel;  // index into the tracked kernels
  std::uint64_t overlap_ns = 0, solo_ns = 0;
};

inline void add_reading(reading_sum& r, const std::optional<double>& v, double weighted_value, std::uint64_t ns) {
  if (!v || ns == 0) return;
  r.weighted += weighted_value;
  r.ns += ns;
}

// Adds `scale * value * ns` (percentages) for each reading of `s`, and `byte_share * bytes` for the bytes.
inline void add_readings(reading_sums& r, const pm_sample& s, std::uint64_t ns, double pct_scale, double byte_share) {
  const double t = static_cast<double>(ns);
  add_reading(r.sm_pct, s.sm_pct, s.sm_pct.value_or(0) * pct_scale * t, ns);
  add_reading(r.l1tex_pct, s.l1tex_pct, s.l1tex_pct.value_or(0) * pct_scale * t, ns);
  add_reading(r.l2_slices_pct, s.l2_slices_pct, s.l2_slices_pct.value_or(0) * pct_scale * t, ns);
  add_reading(r.dram_pct, s.dram_pct, s.dram_pct.value_or(0) * pct_scale * t, ns);
  add_reading(r.dram_read_bytes, s.dram_read_bytes, s.dram_read_bytes.value_or(0) * byte_share, ns);
  add_reading(r.dram_write_bytes, s.dram_write_bytes, s.dram_write_bytes.value_or(0) * byte_share, ns);
}

// Attributes one window to the kernels in `active` (indices into `kernels`; those not overlapping it are
// skipped). The sweep tracks how many kernels run and, while exactly one does, which (the sum of the
// running indices), so that each kernel's solo time, and from it its concurrent time, costs O(n log n).
inline void attribute_window(const monitor_window& w, const std::vector<std::size_t>& active,
                             std::vector<tracked_kernel>& kernels, device_totals& device, idle_model model,
                             rate_solver* solver = nullptr) {
  std::vector<clipped_kernel> clipped;
  std::vector<std::pair<std::uint64_t, std::ptrdiff_t>> events;  // (time, -(i+1) end / +(i+1) start)
  for (std::size_t k : active) {
    const std::uint64_t a = std::max(kernels[k].start_ns, w.start_ns);
    const std::uint64_t b = std::min(kernels[k].end_ns, w.end_ns);
    if (b <= a) continue;
    const auto c = static_cast<std::ptrdiff_t>(clipped.size());
    clipped.push_back({k, b - a, 0});
    events.emplace_back(a, c + 1);
    events.emplace_back(b, -(c + 1));
  }
  std::sort(events.begin(), events.end());  // at one time, ends (negative) before starts
  std::uint64_t busy = 0, prev = w.start_ns, sum_overlap = 0;
  std::size_t running = 0, running_sum = 0;
  for (const auto& [t, e] : events) {
    if (running >= 1) busy += t - prev;
    if (running == 1) clipped[running_sum].solo_ns += t - prev;
    prev = t;
    if (e > 0) {
      ++running;
      running_sum += static_cast<std::size_t>(e - 1);
    } else {
      --running;
      running_sum -= static_cast<std::size_t>(-e - 1);
    }
  }
  for (const clipped_kernel& c : clipped) sum_overlap += c.overlap_ns;
  const std::uint64_t width = w.end_ns - w.start_ns;
  for (const clipped_kernel& c : clipped) {
    monitor_totals& t = kernels[c.kernel].totals;
    (w.sample ? t.sampled_ns : t.dropped_ns) += c.overlap_ns;
    t.concurrent_ns += c.overlap_ns - c.solo_ns;
  }
  if (!w.sample) {
    device.dropped_ns += width;
    (w.setup ? device.setup_samples_dropped : device.samples_dropped) += w.dropped_samples;
    return;
  }
  const pm_sample* sample = &*w.sample;
  pm_sample without_sm;  // an SM dropout's window: its readings less the SM side (a copy only then)
  if (sample->sm_active_pct && *sample->sm_active_pct < sm_dropout_rule::max_active_pct) {
    std::uint64_t filling = 0;
    for (const clipped_kernel& c : clipped)
      if (kernels[c.kernel].fills_sms) filling += c.overlap_ns;
    if (static_cast<double>(filling) >= sm_dropout_rule::min_filling_share * static_cast<double>(width)) {
      ++device.sm_dropouts;
      without_sm = *sample;
      without_sm.sm_pct.reset();
      without_sm.l1tex_pct.reset();
      without_sm.sm_active_pct.reset();
      for (auto& v : without_sm.sm_inputs) v.reset();
      for (auto& v : without_sm.l1_wavefronts) v.reset();  // the L1's counters drop out with the SM's
      sample = &without_sm;
    }
  }
  const pm_sample& s = *sample;
  if (solver != nullptr) {
    std::vector<std::pair<std::size_t, std::uint64_t>> overlaps;
    for (const clipped_kernel& c : clipped)
      if (kernels[c.kernel].rate_class != static_cast<std::size_t>(-1))
        overlaps.emplace_back(kernels[c.kernel].rate_class, c.overlap_ns);
    solver->add_window(s, overlaps, busy);
  }
  device.sampled_ns += width;
  device.busy_ns += busy;
  device.idle_ns += width - busy;
  ++device.samples_kept;
  if (busy == 0) {
    add_readings(device.idle, s, width, 1.0, 1.0);
    return;
  }
  const double busy_share = static_cast<double>(busy) / static_cast<double>(width);
  const bool spread = model == idle_model::no_work_when_idle;
  for (const clipped_kernel& c : clipped) {
    const double split = static_cast<double>(c.overlap_ns) / static_cast<double>(sum_overlap);
    add_readings(kernels[c.kernel].totals.readings, s, c.overlap_ns, spread ? 1.0 / busy_share : 1.0,
                 spread ? split : busy_share * split);
  }
  if (!spread && busy < width) add_readings(device.idle, s, width - busy, 1.0, 1.0 - busy_share);
}

// Validates and merges kept samples and dropped windows into one time-ordered list (the first sample
// dropped as setup when asked); refuses overlaps between any two.
inline std::vector<monitor_window> merge_windows(const std::vector<pm_sample>& samples,
                                                 const std::vector<dropped_window>& dropped, bool drop_first) {
  std::vector<monitor_window> windows;
  windows.reserve(samples.size() + dropped.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {  // checked by the caller (check_samples)
    if (i == 0 && drop_first)
      windows.push_back({samples[i].start_ns, samples[i].end_ns, std::nullopt, 1, true});
    else
      windows.push_back({samples[i].start_ns, samples[i].end_ns, samples[i], 0, false});
  }
  for (std::size_t i = 0; i < dropped.size(); ++i) {
    check_dropped_window(dropped[i], i);
    windows.push_back({dropped[i].start_ns, dropped[i].end_ns, std::nullopt, dropped[i].samples, false});
  }
  std::stable_sort(windows.begin(), windows.end(),
                   [](const monitor_window& a, const monitor_window& b) { return a.start_ns < b.start_ns; });
  for (std::size_t i = 1; i < windows.size(); ++i)
    if (windows[i].start_ns < windows[i - 1].end_ns)
      raise_input_error<std::invalid_argument>(
          "napkin: monitor windows overlap: [" + std::to_string(windows[i - 1].start_ns) + ", " +
          std::to_string(windows[i - 1].end_ns) + ") and [" + std::to_string(windows[i].start_ns) + ", " +
          std::to_string(windows[i].end_ns) + "); samples and dropped windows must not overlap");
  return windows;
}

// Attributes `windows` (time-ordered) to `kernels`, visited in the order of `by_start` (indices sorted by
// start time). The active set holds the kernels started before the current window's end that had not
// ended by its start.
inline void attribute_windows(const std::vector<monitor_window>& windows, std::vector<tracked_kernel>& kernels,
                              const std::vector<std::size_t>& by_start, device_totals& device, idle_model model,
                              rate_solver* solver = nullptr) {
  std::vector<std::size_t> active;
  std::size_t next = 0;
  for (const monitor_window& w : windows) {
    if (device.windows++ == 0) device.first_ns = w.start_ns;
    device.last_ns = std::max(device.last_ns, w.end_ns);
    while (next < by_start.size() && kernels[by_start[next]].start_ns < w.end_ns) active.push_back(by_start[next++]);
    active.erase(
        std::remove_if(active.begin(), active.end(), [&](std::size_t k) { return kernels[k].end_ns <= w.start_ns; }),
        active.end());
    attribute_window(w, active, kernels, device, model, solver);
  }
}

// Closes a kernel's totals: one execution, its GPU time, and whether it was fully sampled.
inline void finish_kernel(tracked_kernel& k, std::uint64_t gap_tolerance_ns) {
  monitor_totals& t = k.totals;
  t.count = 1;
  t.gpu_ns = k.end_ns - k.start_ns;
  // A kernel that ran and touched no kept window is never complete, whatever the tolerance: its readings
  // would be none at all.
  const bool unread = t.gpu_ns > 0 && t.sampled_ns == 0;
  t.incomplete = (unread || t.dropped_ns > 0 || t.unsampled_ns() > gap_tolerance_ns) ? 1 : 0;
  const reading_sums& r = t.readings;
  if (t.incomplete == 0 && t.sampled_ns > 0 && r.dram_read_bytes.ns == t.sampled_ns &&
      r.dram_write_bytes.ns == t.sampled_ns) {
    t.complete_with_bytes = 1;
    t.complete_with_bytes_ns = t.gpu_ns;
    t.complete_dram_bytes = r.dram_read_bytes.weighted + r.dram_write_bytes.weighted;
  }
}

}  // namespace detail

// Everything attributed from one batch of samples: one totals per kernel record (same order) and the device.
struct attribution {
  std::vector<monitor_totals> kernels;
  device_totals device;
  rate_solver rates;  // every kept window, per (kernel name, phase) class
};

// Attributes `samples` (time-ordered, not overlapping) and `dropped` windows to `kernels` (any order) by
// the rules at the top of this header. Refuses bad samples, bad kernels and overlapping windows.
inline attribution attribute(const std::vector<pm_sample>& samples, const std::vector<kernel_record>& kernels,
                             const std::vector<dropped_window>& dropped = {}, const attribution_options& options = {}) {
  check_samples(samples);
  const std::vector<detail::monitor_window> windows =
      detail::merge_windows(samples, dropped, options.drop_first_sample);
  std::vector<detail::tracked_kernel> tracked(kernels.size());
  std::vector<std::size_t> by_start(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    check_kernel_record(kernels[i], i);
    tracked[i].start_ns = kernels[i].start_ns;
    tracked[i].end_ns = kernels[i].end_ns;
    tracked[i].fills_sms = options.sm_count > 0 && kernels[i].blocks >= options.sm_count;
    by_start[i] = i;
  }
  attribution result;
  result.rates = make_rate_solver(options);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    tracked[i].rate_class = result.rates.class_of(kernels[i].name, kernels[i].phase);
    result.rates.add_launch(tracked[i].rate_class, kernels[i].warps, kernels[i].duration_ns());
  }
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](std::size_t a, std::size_t b) { return tracked[a].start_ns < tracked[b].start_ns; });
  detail::attribute_windows(windows, tracked, by_start, result.device, options.idle, &result.rates);
  result.kernels.reserve(tracked.size());
  for (detail::tracked_kernel& k : tracked) {
    detail::finish_kernel(k, options.gap_tolerance_ns);
    result.kernels.push_back(k.totals);
  }
  return result;
}

NAPKIN_END_NAMESPACE
