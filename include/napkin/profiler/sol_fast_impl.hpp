// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sol_fast.hpp's fast SOL set and its derivation: the function bodies. Included by sol_fast.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/sol_fast.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/profiler/breakdowns.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The metric without its rollup: "SM_A.TriageCompute.l1tex__throughput" from
// "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active".
NAPKIN_DETAIL_FUNC std::string counter_part(const std::string& metric) {
  std::size_t cut = metric.size();
  for (const char* rollup : {".avg", ".sum", ".max", ".min"}) cut = std::min(cut, metric.find(rollup));
  return metric.substr(0, cut);
}

// One SOL number: the maximum of the triage throughputs given and of every input of `b` the report holds.
// Says how, naming the inputs it did not have; missing when an input it needs (a triage throughput) is.
NAPKIN_DETAIL_FUNC void derive_max(sol_report& r, const throughput_breakdown& b, const std::vector<const char*>& triage) {
  std::optional<double> best;
  std::string how = "max(";
  for (const char* t : triage) {
    const auto v = r.get(t);
    if (!v) {
      r.derivations[b.field] = std::string("not measured: ") + t + " is missing";
      return;
    }
    best = best ? std::max(*best, *v) : *v;
    how += counter_part(t) + ", ";
  }
  std::size_t collected = 0;
  std::vector<std::string> absent;
  for (const auto& input : b.inputs) {
    if (const auto v = r.get(input)) {
      best = best ? std::max(*best, *v) : *v;
      ++collected;
    } else {
      absent.push_back(counter_part(input));
    }
  }
  if (!best) {
    r.derivations[b.field] = "not measured: no input of " + counter_part(b.throughput) + " was collected";
    return;
  }
  how += std::to_string(collected) + " of the " + std::to_string(b.inputs.size()) + " inputs of ncu's " +
         counter_part(b.throughput) + ")";
  if (!absent.empty()) {
    how += "; not collected:";
    for (const auto& a : absent) how += " " + a;
  }
  r.derived[b.field] = *best;
  r.derivations[b.field] = std::move(how);
}

NAPKIN_DETAIL_FUNC void derive_sol_fast(sol_report& r) {
  derive_max(r, breakdowns::gh100_sm(), {metric::triage_sm_pct});
  // ncu's own DRAM throughput is a maximum over DRAM inputs that Memory %'s breakdown has too.
  derive_max(r, breakdowns::gh100_memory(),
             {metric::dram_throughput_pct, metric::triage_l1tex_elapsed_pct, metric::triage_l2_pct});
  derive_max(r, breakdowns::gh100_l1tex(), {metric::triage_l1tex_active_pct});
  derive_max(r, breakdowns::gh100_l2(), {metric::triage_l2_pct});
}

}  // namespace detail

namespace metric_sets {

NAPKIN_DETAIL_FUNC metric_set sol_fast() {
  metric_set s;
  s.name = "sol-fast";
  s.metrics = {metric::duration_ns,      metric::elapsed_cycles,    metric::sm_active_cycles,
               metric::sm_frequency_hz,  metric::dram_frequency_hz, metric::dram_bytes,
               metric::dram_throughput_pct, metric::triage_sm_pct,  metric::triage_l1tex_active_pct,
               metric::triage_l1tex_elapsed_pct, metric::triage_l2_pct, metric::l2_fabric_pct,
               metric::sm_elapsed_cycles};
  for (auto& m : detail::sol_fast_gh100_inputs()) s.metrics.push_back(std::move(m));
  s.chips = {"GH100"};
  s.fallback = &sol;
  s.derive = &detail::derive_sol_fast;
  return s;
}

NAPKIN_DETAIL_FUNC metric_set roofline() {
  metric_set s = sol_fast();
  s.name = "roofline-fast";
  for (const auto& m : flop_counters()) s.metrics.push_back(m);
  s.fallback = &roofline_full;
  return s;
}

}  // namespace metric_sets
NAPKIN_END_NAMESPACE
