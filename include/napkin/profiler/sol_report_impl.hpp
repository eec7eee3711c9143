// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sol_report.hpp's report, its accessors and verdicts, and the pass check: the function bodies.
// Included by sol_report.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/sol_report.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/profiler/verdicts.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string find_pass_disagreement(const std::vector<pass_sample>& passes) {
  for (const auto& p : passes)
    if (!std::isfinite(p.duration_ns) || p.duration_ns < 0)
      detail::raise_input_error<std::invalid_argument>("napkin: a pass duration must be finite and >= 0 ns, got " +
                                                       significant(p.duration_ns));
  if (passes.size() < 2) return {};
  const char* consequence =
      ": the work differed between passes (a first call that initializes something, data-dependent work, other "
      "work on the GPU), and each pass collected different counters, so their mix describes no single run.";
  // Launch counts first: different kernels make the durations incomparable anyway.
  std::optional<std::size_t> first_known;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (!passes[i].launches) continue;
    if (!first_known) {
      first_known = i;
    } else if (*passes[i].launches != *passes[*first_known].launches) {
      return "kernel launches per pass disagree: pass " + std::to_string(*first_known + 1) + " launched " +
             std::to_string(*passes[*first_known].launches) + ", pass " + std::to_string(i + 1) + " launched " +
             std::to_string(*passes[i].launches) + consequence;
    }
  }
  const auto [lo, hi] =
      std::minmax_element(passes.begin(), passes.end(),
                          [](const pass_sample& a, const pass_sample& b) { return a.duration_ns < b.duration_ns; });
  const double shortest = lo->duration_ns, longest = hi->duration_ns;
  if (longest > shortest * (1 + pass_duration_tolerance) && longest - shortest > pass_duration_floor_ns) {
    const double longer_pct = shortest > 0 ? (longest / shortest - 1) * 100 : 100.0;
    return "pass durations disagree: pass " + std::to_string(hi - passes.begin() + 1) + " took " +
           duration(longest / 1e9) + ", pass " + std::to_string(lo - passes.begin() + 1) + " " +
           duration(shortest / 1e9) + " (" + percent(longer_pct, 0) +
           " longer; passes may differ by 25% or 1 ms)" + consequence;
  }
  return {};
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::get(const std::string& metric) const {
  const auto it = values.find(metric);
  if (it == values.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::dram_pct() const {
  if (auto v = derived_or_collected("dram_pct", metric::dram_throughput_pct)) return v;
  return get(metric::dram_only_throughput_pct);
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::dram_bytes() const {
  if (auto v = derived_or_collected("dram_bytes", metric::dram_bytes)) return v;
  const auto r = get(metric::dram_bytes_read), w = get(metric::dram_bytes_write);
  if (r && w) return *r + *w;
  return std::nullopt;
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::dram_bytes_per_s() const {
  const auto b = dram_bytes(), t = duration_ns();
  if (!b || !t || *t <= 0) return std::nullopt;
  return *b / (*t * 1e-9);
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::flop() const {
  std::optional<double> total;
  for (auto f : {flop_fp32(), flop_fp64(), flop_fp16()})
    if (f) total = total.value_or(0.0) + *f;
  return total;
}

NAPKIN_DETAIL_FUNC sol_verdict sol_report::sol_table() const {
  if (!passes_disagree.empty()) return {bottleneck::passes_disagree, passes_disagree};
  if ((!sm_pct() || !memory_pct()) && how == measured_by::ncu)
    return {bottleneck::not_measured, "ncu's CSV has no SM % / Memory %: record with ncu --section SpeedOfLight."};
  if ((!sm_pct() || !memory_pct()) && how == measured_by::nvbench)  // nvbench times; SM %, Memory % need counters
    return {bottleneck::not_measured,
            "nvbench measures time (and the bandwidth of the bytes a benchmark declares), not SM % or Memory %: "
            "profile the kernel with ncu --section SpeedOfLight or napkin's profiler for a verdict."};
  if (!sm_pct() || !memory_pct())
    return {bottleneck::not_measured, "the \"" + metric_set + "\" set has no SM % / Memory %: use the sol_fast or sol set."};
  return classify_by_sol_table(*sm_pct(), *memory_pct(), dram_pct());
}
NAPKIN_DETAIL_FUNC std::optional<ncu_verdict> sol_report::ncu_rule() const {
  if (!sm_pct() || !memory_pct()) return std::nullopt;
  if (!passes_disagree.empty()) return ncu_verdict{ncu_bottleneck::passes_disagree, passes_disagree};
  return classify_by_ncu_rule(*sm_pct(), *memory_pct(), {dram_pct(), l1tex_pct(), l2_pct()});
}

NAPKIN_DETAIL_FUNC std::optional<double> sol_report::derived_or_collected(const char* field,
                                                                          const char* metric_name) const {
  const auto it = derived.find(field);
  if (it != derived.end() && std::isfinite(it->second)) return it->second;
  if (metric_name == nullptr) return std::nullopt;
  return get(metric_name);
}
NAPKIN_DETAIL_FUNC std::optional<double> sol_report::flop(const char* add, const char* mul, const char* fma) const {
  const auto a = get(add), m = get(mul), f = get(fma);
  if (!a || !m || !f) return std::nullopt;
  return *a + *m + 2.0 * *f;
}

NAPKIN_DETAIL_FUNC sol_report make_report(std::string name, const metric_set& set, const std::vector<double>& values) {
  if (values.size() != set.metrics.size())
    detail::raise_input_error<std::invalid_argument>("napkin: " + std::to_string(values.size()) + " values for " +
                                                     std::to_string(set.metrics.size()) + " metrics of set \"" +
                                                     set.name + "\"");
  sol_report r;
  r.name = std::move(name);
  r.metric_set = set.name;
  for (std::size_t i = 0; i < values.size(); ++i) r.values[set.metrics[i]] = values[i];
  if (set.derive) set.derive(r);
  return r;
}

NAPKIN_END_NAMESPACE
