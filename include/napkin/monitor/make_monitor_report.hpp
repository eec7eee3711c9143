// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/make_monitor_report.hpp — a phase monitor's report (monitor/monitor_report.hpp) built from what
// attribution (monitor/attribution.hpp) or an accumulator (monitor/accumulator.hpp) summed and from the rate solve
// of the same windows (monitor/rate_solver.hpp, monitor/rate_rows.hpp): make_monitor_row, make_monitor_report.
// A row's readings, DRAM bytes and verdict follow from its classes' solved rates, never from the mean of its
// windows; the rules are at the top of monitor_report.hpp and in docs/monitor.md. Plain C++17; no CUDA or CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/accumulator.hpp"
#include "napkin/monitor/attribution.hpp"
#include "napkin/system/communication.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/monitor_totals.hpp"
#include "napkin/monitor/rate_rows.hpp"
#include "napkin/monitor/rate_solver.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/profiler/verdicts.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

// The derived columns of one row: readings from the rate solve of `classes`, counts and times from `t`.
inline monitor_row make_monitor_row(std::string name, const monitor_totals& t, const row_classes& classes) {
  monitor_row r;
  r.name = std::move(name);
  r.totals = t;
  const reading_sums& s = t.readings;
  r.mean_ns = t.count ? static_cast<double>(t.gpu_ns) / static_cast<double>(t.count) : 0.0;
  std::array<std::optional<double>, rate_metric_count> v{};
  r.resolution = detail::resolve_row(classes, v);
  r.sm_pct = v[0], r.l1tex_pct = v[1], r.l2_slices_pct = v[2], r.dram_pct = v[3];
  const std::optional<double>& upper = v[static_cast<std::size_t>(rate_metric::sm_upper_pct)];
  if (r.sm_pct && upper) r.sm_pct_upper = std::max(*r.sm_pct, *upper);
  const std::pair<std::optional<double>, std::optional<double>> byte_rates{v[4], v[5]};  // read, write per ns
  for (const std::optional<double>& m : {r.dram_pct, r.l1tex_pct, r.l2_slices_pct})
    if (m) r.memory_pct = std::max(r.memory_pct.value_or(*m), *m);
  // Bytes at the solved rates over the time each was read (attribution's time, not its split of bytes).
  if (byte_rates.first && s.dram_read_bytes.ns)
    r.dram_read_bytes = *byte_rates.first * static_cast<double>(s.dram_read_bytes.ns);
  if (byte_rates.second && s.dram_write_bytes.ns)
    r.dram_write_bytes = *byte_rates.second * static_cast<double>(s.dram_write_bytes.ns);
  if (r.dram_read_bytes && r.dram_write_bytes && s.dram_read_bytes.ns == s.dram_write_bytes.ns) {
    r.dram_bytes = *r.dram_read_bytes + *r.dram_write_bytes;
    r.dram_bytes_per_s = *r.dram_bytes / (static_cast<double>(s.dram_read_bytes.ns) * 1e-9);
    if (t.complete_with_bytes > 0)  // the solved rates over the mean length of the complete launches
      r.dram_bytes_per_complete_launch = (*byte_rates.first + *byte_rates.second) *
                                         static_cast<double>(t.complete_with_bytes_ns) /
                                         static_cast<double>(t.complete_with_bytes);
  }
  r.complete = t.count - t.incomplete;
  r.partial = t.incomplete > 0;
  r.split.add(r.name, static_cast<double>(t.gpu_ns));  // a kernel row; make_monitor_report sets phases'
  if (!r.resolution.resolved())
    r.verdict = {bottleneck::not_measured, "no verdict: " + std::string(describe(r.resolution.status)) + " (" +
                                               r.resolution.reason + ")"};
  else if (r.sm_pct && r.memory_pct) {
    r.verdict = classify_by_sol_table(*r.sm_pct, *r.memory_pct, r.dram_pct);
    // SM % as a range: a verdict only where it is the same at both ends (docs/monitor.md, "SM % as a range").
    // The ends suffice: with memory fixed, each verdict of the SOL table holds on one interval of SM %.
    if (r.sm_pct_range() && classify_by_sol_table(*r.sm_pct_upper, *r.memory_pct, r.dram_pct).kind != r.verdict.kind)
      r.verdict = {bottleneck::not_measured, "no verdict: " + sm_range_text(r) + ", and the verdict changes within it"};
  } else
    r.verdict = {bottleneck::not_measured, "no SM % or no memory reading in the sampled windows"};
  return r;
}

namespace detail {
// `splits`: the communication split of each key, for phase and path rows (kernel rows split by their name).
inline std::vector<monitor_row> monitor_rows(const std::map<std::string, monitor_totals>& by_key,
                                             const std::map<std::string, row_classes>& classes,
                                             const std::map<std::string, time_split>* splits = nullptr) {
  std::vector<monitor_row> rows;
  rows.reserve(by_key.size());
  for (const auto& [name, totals] : by_key) {
    const auto it = classes.find(name);
    rows.push_back(make_monitor_row(name, totals, it == classes.end() ? row_classes{} : it->second));
    if (splits != nullptr) rows.back().split = splits->at(name);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const monitor_row& a, const monitor_row& b) {
    return a.totals.gpu_ns > b.totals.gpu_ns;  // ties keep the map's (name) order
  });
  return rows;
}
}  // namespace detail

// The report from grouped totals (monitor_accumulator::groups(), or group_kernels() after attribute()) and
// the solve of the same windows (`rates`; without it every row is unresolved).
inline monitor_report make_monitor_report(const std::vector<kernel_group>& groups, const device_totals& device,
                                          int device_index, idle_model model, const rate_solution* rates) {
  monitor_report r;
  r.device = device_index;
  r.context.device_index = device_index;
  r.idle = model;
  r.totals = device;
  if (device.sampled_ns > 0)
    r.idle_fraction = static_cast<double>(device.idle_ns) / static_cast<double>(device.sampled_ns);
  r.idle_sm_pct = device.idle.sm_pct.mean();
  r.idle_dram_pct = device.idle.dram_pct.mean();
  if (device.idle.dram_read_bytes.ns && device.idle.dram_write_bytes.ns)
    r.idle_dram_bytes = device.idle.dram_read_bytes.weighted + device.idle.dram_write_bytes.weighted;
  std::map<std::string, monitor_totals> by_kernel, by_phase, by_path;
  std::map<std::string, time_split> phase_split, path_split;
  std::map<std::string, row_classes> kernel_classes, phase_classes, path_classes;
  for (const kernel_group& g : groups) {
    const class_rate* c = rates ? rates->find(g.name, g.phase) : nullptr;
    const double weight = static_cast<double>(g.totals.sampled_ns);
    if (g.totals.sampled_ns > 0 || c == nullptr)
      for (row_classes* m :
           {&kernel_classes[g.name], &phase_classes[innermost_phase(g.phase)], &path_classes[phase_path(g.phase)]})
        m->emplace_back(c, weight);
    by_kernel[g.name] += g.totals;
    by_phase[innermost_phase(g.phase)] += g.totals;
    by_path[phase_path(g.phase)] += g.totals;
    phase_split[innermost_phase(g.phase)].add(g.name, static_cast<double>(g.totals.gpu_ns));
    path_split[phase_path(g.phase)].add(g.name, static_cast<double>(g.totals.gpu_ns));
  }
  r.kernels = detail::monitor_rows(by_kernel, kernel_classes);
  for (monitor_row& k : r.kernels)  // a kernel that shared the device: its readings, no verdict
    if (k.resolution.resolved() && k.shared_device() && k.verdict.kind != bottleneck::not_measured)
      k.verdict = {bottleneck::not_measured, "no verdict: ran alongside other kernels for " +
                                                 percent_of(k.concurrent_fraction(), 0) +
                                                 " of its time; its readings are its share of the device, not its "
                                                 "own limit (a profiler replays it alone)"};
  r.phases = detail::monitor_rows(by_phase, phase_classes, &phase_split);
  r.paths = detail::monitor_rows(by_path, path_classes, &path_split);
  return r;
}

// The report of a one-shot attribution.
inline monitor_report make_monitor_report(const std::vector<kernel_record>& records, const attribution& a,
                                          int device_index = 0, idle_model model = idle_model::no_work_when_idle) {
  const rate_solution rates = a.rates.solve();
  return make_monitor_report(group_kernels(records, a), a.device, device_index, model, &rates);
}

// The report of what an accumulator has folded so far (call settle() or finish() first).
inline monitor_report make_monitor_report(const monitor_accumulator& acc, int device_index = 0) {
  const rate_solution rates = acc.rates().solve();
  return make_monitor_report(acc.groups(), acc.device(), device_index, acc.options().idle, &rates);
}

NAPKIN_END_NAMESPACE
