// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/rate_rows.hpp — a report row's readings from the rate solve (monitor/rate_solver.hpp) of its
// kernel classes: a kernel name under several phases, a phase of several kernels. The row is resolved only when
// every class is; its readings are the classes' means weighted by the row's sampled time in each, and their
// standard errors are combined as if independent. Plain C++17; docs/monitor.md, "The rate solve".
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/rate_solver.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

// The solved readings of a row's classes, each with the row's sampled time in it as its weight.
using row_classes = std::vector<std::pair<const class_rate*, double>>;

namespace detail {
// Combines a row's classes: resolved only when every class is; the readings are the weighted mean.
// `values`: the row's readings in rate_metric order (set only when resolved).
inline row_resolution resolve_row(const row_classes& classes,
                                  std::array<std::optional<double>, rate_metric_count>& values) {
  row_resolution res;
  double w = 0, solo = 0;
  std::array<double, rate_metric_count> sum{}, var{};
  std::array<bool, rate_metric_count> have{}, have_se{};
  have.fill(true);
  have_se.fill(true);
  std::optional<double> se_pct;  // unknown when any class's is
  constexpr auto upper = static_cast<std::size_t>(rate_metric::sm_upper_pct);
  bool any_upper = false;
  for (const auto& [c, weight] : classes) {
    if (c == nullptr) {
      res.status = rate_status::not_solved;
      res.reason = "not in the rate solve";
      return res;
    }
    res.windows += c->windows;
    if (c->collinearity) res.collinearity = std::max(res.collinearity.value_or(0.0), *c->collinearity);
    if (c->status != rate_status::resolved && res.status == rate_status::not_sampled && res.reason.empty()) {
      res.status = c->status;
      res.reason = (classes.size() > 1 ? c->name + (c->phase.empty() ? "" : " in " + phase_path(c->phase)) + ": "
                                       : std::string()) + c->reason;
    }
    w += weight;
    solo += weight * c->solo_share.value_or(0);
    any_upper = any_upper || c->value[upper].has_value();
    for (std::size_t m = 0; m < rate_metric_count; ++m) {
      // A class without an upper end is at most its SM %: a row that mixes it with a ranged class keeps a range.
      const std::optional<double>& x = m == upper && !c->value[m] ? c->value[0] : c->value[m];
      have[m] = have[m] && x.has_value();
      have_se[m] = have_se[m] && c->standard_error[m].has_value();
      sum[m] += weight * x.value_or(0);
      var[m] += weight * weight * c->standard_error[m].value_or(0) * c->standard_error[m].value_or(0);
    }
  }
  if (classes.empty()) res.reason = "in no kept window";
  if (!res.reason.empty() || !(w > 0)) {
    if (res.reason.empty()) res.reason = "no sampled time";
    if (classes.size() == 1)  // an imprecise class still says how imprecise
      for (std::size_t m = 0; m < rate_pct_metrics; ++m)
        if (const std::optional<double>& se = classes.front().first->standard_error[m])
          res.standard_error_pct = std::max(res.standard_error_pct.value_or(0.0), *se);
    return res;
  }
  res.status = rate_status::resolved;
  res.reason = classes.size() == 1 ? classes.front().first->reason : "all " + std::to_string(classes.size()) +
                                                                          " classes resolved";
  res.solo_share = solo / w;
  std::array<std::optional<double>, rate_metric_count> v{};
  for (std::size_t m = 0; m < rate_metric_count; ++m)
    if (have[m]) {
      v[m] = sum[m] / w;
      if (m < rate_pct_metrics && have_se[m]) se_pct = std::max(se_pct.value_or(0.0), std::sqrt(var[m]) / w);
    }
  if (!any_upper) v[upper].reset();  // no class had an upper end: the row has none either
  bool all_se = true;
  for (std::size_t m = 0; m < rate_pct_metrics; ++m) all_se = all_se && (!have[m] || have_se[m]);
  if (all_se) res.standard_error_pct = se_pct;
  values = v;
  return res;
}
}  // namespace detail

NAPKIN_END_NAMESPACE
