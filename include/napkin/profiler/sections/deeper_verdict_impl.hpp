// SPDX-License-Identifier: Apache-2.0
// The SOL verdict one level deeper (deeper_verdict.hpp): the function bodies. Included by deeper_verdict.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/deeper_verdict.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sections/deeper_findings.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/profiler/verdicts.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC deeper_verdict look_deeper(const sol_report& r, const deeper_options& o) {
  if (!(o.assumed_access_bytes > 0 && o.assumed_access_bytes <= 64))
    detail::raise_input_error<std::invalid_argument>("napkin: deeper_options::assumed_access_bytes must lie in (0, 64], "
                                                     "got " + significant(o.assumed_access_bytes));
  deeper_verdict v;
  const sol_verdict sol = r.sol_table();
  v.top = sol.kind;
  if (sol.kind == bottleneck::passes_disagree) {
    v.headline = "no deeper verdict: " + sol.reason;
    return v;
  }
  const auto w = warp_state(r);
  const auto p = pipes(r);
  const auto m = memory_chart(r);
  if (sol.kind == bottleneck::not_measured) v.not_looked_at.push_back("the SOL verdict: " + sol.reason);
  if (!w) v.not_looked_at.push_back("the warp state: the report lacks " + std::string(metric::warp_cycles_per_issued));
  if (!p) v.not_looked_at.push_back("the pipes: the report has no sm__inst_executed_pipe_* / sm__pipe_* metric");
  if (!m) v.not_looked_at.push_back("the memory chart: the report has none of its metrics");

  // The verdict's own findings, and the causes any verdict can have.
  std::vector<finding> own, causes;
  const auto occupancy_pct = detail::section_value(r, metric::achieved_occupancy_pct);
  const auto occupancy_of = occupancy(r);  // the Occupancy section, where the report holds the launch
  const auto push = [](std::vector<finding>& into, std::optional<finding> f) {
    if (f) into.push_back(std::move(*f));
  };
  switch (sol.kind) {
    case bottleneck::latency_bound:
      if (w) push(own, detail::stall_finding(*w, occupancy_pct, occupancy_of, o.top_stalls));
      break;
    case bottleneck::compute_bound:
      if (p) push(own, detail::pipe_finding(*p));
      break;
    case bottleneck::memory_bound_dram:
      if (m) push(own, detail::dram_finding(r, *m, o));
      break;
    case bottleneck::balanced:
      if (p) push(own, detail::pipe_finding(*p));
      if (m && r.dram_pct() && *r.dram_pct() >= 60.0) push(own, detail::dram_finding(r, *m, o));
      break;
    default: break;  // internal congestion: its causes; unclassified, not measured: the causes and the stalls
  }
  if (m) {
    push(causes, detail::bank_finding(r, *m, v.not_looked_at));
    push(causes, detail::coalescing_finding(r, *m, o, v.not_looked_at));
  }
  push(causes, detail::divergence_finding(r, w, v.not_looked_at));
  std::stable_sort(causes.begin(), causes.end(), [](const finding& a, const finding& b) {
    return (a.estimate ? a.estimate->speedup : 1.0) > (b.estimate ? b.estimate->speedup : 1.0);
  });
  if (sol.kind == bottleneck::internal_congestion && causes.empty() && m) own.push_back(detail::cache_finding(r, *m));
  // A cause worth at least deeper_leading_speedup leads: it is what to fix (the DRAM-bound strided load's sectors).
  for (auto& f : causes)
    if (f.estimate && f.estimate->speedup >= deeper_leading_speedup) v.findings.push_back(f);
  for (auto& f : own) v.findings.push_back(std::move(f));
  for (auto& f : causes)
    if (!f.estimate || f.estimate->speedup < deeper_leading_speedup) v.findings.push_back(std::move(f));
  // The stall reasons support every other verdict, after the causes.
  if (sol.kind != bottleneck::latency_bound && w)
    push(v.findings, detail::stall_finding(*w, occupancy_pct, occupancy_of, o.top_stalls));

  v.headline = std::string(describe(v.top));
  if (!v.findings.empty()) {
    const finding& first = v.findings.front();
    v.headline += ": " + std::string(describe(first.rule)) + ", " + first.summary;
    if (first.estimate) v.headline += " (fix: about " + fixed(first.estimate->speedup, 1) + "x)";
  } else {
    v.headline += ": no finding (see what was not looked at)";
  }
  return v;
}

NAPKIN_DETAIL_FUNC std::vector<std::string> finding_texts(const deeper_verdict& v) {
  std::vector<std::string> out;
  for (const auto& f : v.findings) out.push_back(f.text);
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_text(const deeper_verdict& v) {
  std::string out = "Deeper verdict: " + v.headline + "\n";
  for (const auto& f : v.findings) {
    out += "  [" + std::string(to_string(f.rule)) + "] " + f.summary + "\n";
    out += "    " + wrap(f.text, 110, 4, 4) + "\n";
    if (!f.numbers.empty()) {
      std::string nums;
      for (const auto& n : f.numbers) nums += (nums.empty() ? "" : ", ") + n.name + " " + named_number(n.value, n.name);
      out += "    " + wrap("numbers: " + nums, 110, 4, 4) + "\n";
    }
  }
  for (const auto& n : v.not_looked_at) out += "  Not looked at: " + n + "\n";
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_key_values(const deeper_verdict& v) {
  std::string rules;
  for (const auto& f : v.findings) rules += (rules.empty() ? "" : ",") + std::string(to_string(f.rule));
  std::string out = "NAPKIN_DEEPER top=" + std::string(to_string(v.top)) + " findings=" + (rules.empty() ? "none" : rules);
  for (const auto& f : v.findings) {
    std::string key(to_string(f.rule));
    std::replace(key.begin(), key.end(), '-', '_');
    if (f.estimate) out += detail::section_field((key + "_speedup").c_str(), f.estimate->speedup);
  }
  return out;
}

NAPKIN_END_NAMESPACE
