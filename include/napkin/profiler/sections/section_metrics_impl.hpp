// SPDX-License-Identifier: Apache-2.0
// The metrics behind the sections beyond Speed Of Light (section_metrics.hpp): the function bodies, napkin's
// metric sets for them. Included by section_metrics.hpp (header-only, the default) or, with
// NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/profiler/sol_fast.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string stall_metric(stall_reason r) {
  return "smsp__average_warps_issue_stalled_" + std::string(to_string(r)) + "_per_issue_active.ratio";
}

NAPKIN_DETAIL_FUNC std::string pipe_instructions_metric(std::string_view pipe) {
  return "sm__inst_executed_pipe_" + std::string(pipe) + ".avg.pct_of_peak_sustained_active";
}
NAPKIN_DETAIL_FUNC std::string pipe_cycles_metric(std::string_view pipe) {
  return "sm__pipe_" + std::string(pipe) + "_cycles_active.avg.pct_of_peak_sustained_active";
}
NAPKIN_DETAIL_FUNC std::string pipe_cycles_elapsed_metric(std::string_view pipe) {
  return "sm__pipe_" + std::string(pipe) + "_cycles_active.avg.pct_of_peak_sustained_elapsed";
}

namespace detail {
NAPKIN_DETAIL_FUNC metric_set gh100_or_portable(std::string name, std::vector<std::string> all,
                                                metric_set (*fallback)()) {
  metric_set s{std::move(name), std::move(all)};
  s.chips = {"GH100"};
  s.fallback = fallback;
  return s;
}
NAPKIN_DETAIL_FUNC std::vector<std::string> section_warp_state_metrics(bool portable) {
  std::vector<std::string> m{metric::warp_cycles_per_issued};
  for (const stall_reason r : all_stall_reasons)
    if (!portable || !stall_reason_gh100_only(r)) m.push_back(stall_metric(r));
  return m;
}
NAPKIN_DETAIL_FUNC std::vector<std::string> section_pipes_metrics(bool portable) {
  std::vector<std::string> m;
  for (const auto& p : all_sm_pipes) {
    if (portable && p.gh100_only) continue;
    if (p.by_instructions) m.push_back(pipe_instructions_metric(p.name));
    if (p.by_cycles) {
      m.push_back(pipe_cycles_metric(p.name));
      m.push_back(pipe_cycles_elapsed_metric(p.name));
    }
  }
  return m;
}
NAPKIN_DETAIL_FUNC std::vector<std::string> section_memory_chart_metrics(bool portable) {
  std::vector<std::string> m{metric::l1_hit_rate_pct,
                             metric::l2_hit_rate_pct,
                             metric::l2_sectors,
                             metric::l2_sectors_from_sms,
                             metric::global_load_sectors,
                             metric::global_load_requests,
                             metric::global_store_sectors,
                             metric::global_store_requests,
                             metric::shared_load_wavefronts,
                             metric::shared_store_wavefronts,
                             metric::shared_load_bank_conflicts,
                             metric::shared_store_bank_conflicts,
                             metric::shared_load_instructions,
                             metric::shared_store_instructions};
  if (!portable) {  // GB202 (GDDR7) has no dram__bytes_read/write; one-partition L2s (AD102, GB202) no fabric
    m.push_back(metric::l2_sectors_from_fabric);
    m.push_back(metric::dram_bytes_read);
    m.push_back(metric::dram_bytes_write);
  }
  return m;
}
NAPKIN_DETAIL_FUNC std::vector<std::string> section_occupancy_metrics() {
  return {metric::achieved_occupancy_pct, metric::achieved_warps_per_sm};
}
NAPKIN_DETAIL_FUNC std::vector<std::string> section_quantify_metrics() {
  return {metric::active_threads_per_instruction, metric::predicated_on_threads_per_instruction,
          metric::global_load_bytes_requested, metric::global_store_bytes_requested};
}
// The sections' metrics and a SOL set's (the fast set on GH100, ncu's full set elsewhere), each name once, so
// one measurement gives both the SOL verdict and the sections.
NAPKIN_DETAIL_FUNC std::vector<std::string> section_why_metrics(bool portable) {
  std::vector<std::string> m;
  const auto add = [&m](std::string name) {
    if (std::find(m.begin(), m.end(), name) == m.end()) m.push_back(std::move(name));
  };
  add(metric::duration_ns);
  for (auto* part : {&section_warp_state_metrics, &section_pipes_metrics, &section_memory_chart_metrics})
    for (auto& name : part(portable)) add(std::move(name));
  for (auto& name : section_occupancy_metrics()) add(std::move(name));
  for (auto& name : section_quantify_metrics()) add(std::move(name));
  for (auto& name : (portable ? metric_sets::sol() : metric_sets::sol_fast()).metrics) add(std::move(name));
  return m;
}
}  // namespace detail

namespace metric_sets {
NAPKIN_DETAIL_FUNC metric_set warp_state_portable() { return {"warp-state", detail::section_warp_state_metrics(true)}; }
NAPKIN_DETAIL_FUNC metric_set warp_state() {
  return detail::gh100_or_portable("warp-state", detail::section_warp_state_metrics(false), &warp_state_portable);
}
NAPKIN_DETAIL_FUNC metric_set pipes_portable() { return {"pipes", detail::section_pipes_metrics(true)}; }
NAPKIN_DETAIL_FUNC metric_set pipes() {
  return detail::gh100_or_portable("pipes", detail::section_pipes_metrics(false), &pipes_portable);
}
NAPKIN_DETAIL_FUNC metric_set memory_chart_portable() {
  return {"memory-chart", detail::section_memory_chart_metrics(true)};
}
NAPKIN_DETAIL_FUNC metric_set memory_chart() {
  return detail::gh100_or_portable("memory-chart", detail::section_memory_chart_metrics(false),
                                   &memory_chart_portable);
}
NAPKIN_DETAIL_FUNC metric_set why_portable() { return {"why", detail::section_why_metrics(true)}; }
NAPKIN_DETAIL_FUNC metric_set why() {
  metric_set s = detail::gh100_or_portable("why", detail::section_why_metrics(false), &why_portable);
  s.derive = &detail::derive_sol_fast;
  return s;
}
}  // namespace metric_sets

NAPKIN_END_NAMESPACE
