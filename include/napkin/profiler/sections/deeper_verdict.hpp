// SPDX-License-Identifier: Apache-2.0
// The SOL verdict one level deeper: what the sections beyond SOL (warp state, pipes, memory chart) say about the
// limiter the SOL table named, as findings in the manner of Nsight Compute's rules, each with the numbers it rests
// on and, where a fix has a measurable size, "fix this and expect about N x" (measured_quantify.hpp).
//
//   latency-bound        the top stall reasons and the achieved occupancy (beside the theoretical, and the gap
//                        explained, where the report holds the launch: occupancy.hpp)
//   compute-bound        the busiest pipe (by busy cycles, ncu's HighPipeUtilization, or by instructions for the
//                        pipes without a cycle count: XU, LSU, ...)
//   memory-bound (DRAM)  the DRAM read/write split and the L2 hit rate
//   internal congestion  bank conflicts, uncoalesced accesses, else the cache levels' traffic
//   any verdict          bank conflicts, uncoalesced global accesses and thread divergence wherever measured
//
// Each estimate is Amdahl's law over the part of the time the problem can explain, said in the finding's text:
// uncoalesced accesses over Memory % (the busiest memory unit's share of its peak), bank conflicts over L1/TEX %,
// divergence over the warp cycles not spent waiting on memory. The rules and their thresholds: deeper_findings.hpp.
// docs/why.md, "Deeper verdicts and estimates", compares the estimates with ncu's own on the H200 zoo. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/profiler/sections/deeper_findings.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

struct deeper_verdict {
  bottleneck top = bottleneck::not_measured;  // the SOL table's verdict (sol_report::sol_table())
  std::string headline;                       // the verdict and its leading finding in one line
  // The causes estimated at deeper_leading_speedup or more (largest first), the verdict's own finding (the stall
  // reasons for a latency-bound kernel), the other causes, and the stall reasons.
  std::vector<finding> findings;
  std::vector<std::string> not_looked_at;     // what the report lacked, in words (nothing is guessed in its place)
};

// The deeper verdict on a report: the SOL table's verdict refined with the sections' numbers. A report without the
// sections or the SOL numbers says so in `not_looked_at` and the headline; one whose passes disagree gets no findings.
// Bad counter values (NaN, negative) are an input error, as in the sections.
inline deeper_verdict look_deeper(const sol_report& r, const deeper_options& o = {}) {
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

// Each finding's sentences, with their numbers and the estimate's assumption, for a report section's findings list
// (the rule, summary and numbers are in v.findings for a document's members).
inline std::vector<std::string> finding_texts(const deeper_verdict& v) {
  std::vector<std::string> out;
  for (const auto& f : v.findings) out.push_back(f.text);
  return out;
}

// The verdict for people.
inline std::string to_text(const deeper_verdict& v) {
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

// One line for scripts: "NAPKIN_DEEPER top=latency-bound findings=stall-reasons,..." and each finding's estimated
// speed-up ("bank_conflicts_speedup=").
inline std::string to_key_values(const deeper_verdict& v) {
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
