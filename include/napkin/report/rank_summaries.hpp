// SPDX-License-Identifier: Apache-2.0
// napkin/report/rank_summaries.hpp — a rank's summary (cross_rank.hpp) from what napkin measured in this
// process: the profiler's per_kernel() result (kernel_reports), watch_phase()'s (phase_reports) and the
// phase monitor's report (monitor_report). Each sums the launches of a name: count and total GPU time.
//
// The GPU time of a profiler report is its gpu__time_duration (duration_ns); a report without one (a
// metric set that lacks it) is counted as a launch of unknown time and makes the summary refuse, because a
// missing duration read as 0 would show a fast rank that is not. The monitor's rows carry their GPU time.
// Plain C++17: the profiler's and the monitor's plain headers only, no CUDA, no CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/report/cross_rank.hpp"
#include "napkin/report/profiler_documents.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// Rows from sol_reports: one per name, launches counted, durations summed (names found through an ordered
// index: a run of many distinct kernels is n log n, not quadratic).
inline std::vector<rank_row> rows_of(const std::vector<sol_report>& reports, row_kind by) {
  std::vector<rank_row> rows;
  std::map<std::string, std::size_t> index;
  for (const sol_report& r : reports) {
    const std::optional<double> ns = r.duration_ns();
    if (!ns)
      raise_input_error<std::invalid_argument>("napkin: '" + r.name + "' has no GPU time (gpu__time_duration.sum; set \"" +
                                               r.metric_set + "\"): a rank summary needs it");
    const auto [at, added] = index.emplace(r.name, rows.size());
    if (added) rows.push_back({r.name, by, 0, 0, std::nullopt});
    rank_row& row = rows[at->second];
    row.launches += 1;
    row.gpu_ns += *ns;
  }
  return rows;
}

}  // namespace detail

// per_kernel()'s kernels; `context` says which rank (document/rank.hpp's process_context(), or MPI's rank).
inline rank_summary summary_of(const kernel_reports& k, report_context context) {
  return {std::move(context), detail::rows_of(k.kernels, row_kind::kernel)};
}

// watch_phase()'s phases (the communication split of a phase is not known from them).
inline rank_summary summary_of(const phase_reports& p, report_context context) {
  return {std::move(context), detail::rows_of(p.phases, row_kind::phase)};
}

// The monitor's kernel rows and phase rows (innermost NVTX range; "" is kernels outside any range), phases
// with their time in communication kernels. The
// monitor's device is the context's device_index when the context names none.
inline rank_summary summary_of(const monitor_report& m, report_context context) {
  if (!context.device_index) context.device_index = m.device;
  rank_summary s{std::move(context), {}};
  for (const monitor_row& r : m.kernels)
    s.rows.push_back({r.name, row_kind::kernel, r.totals.count, static_cast<double>(r.totals.gpu_ns), std::nullopt});
  // A phase's split is known: the monitor saw which of its kernels were NCCL's.
  for (const monitor_row& r : m.phases)
    s.rows.push_back({r.name, row_kind::phase, r.totals.count, static_cast<double>(r.totals.gpu_ns),
                      r.split.communication_ns});
  return s;
}

NAPKIN_END_NAMESPACE
