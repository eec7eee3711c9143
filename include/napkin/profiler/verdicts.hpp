// SPDX-License-Identifier: Apache-2.0
// The two verdicts on a measurement: the SOL table (NVIDIA's analysis-driven optimization) and ncu's own
// SpeedOfLight rule, each from the Speed Of Light percentages, with the reason in words.
//
// Plain C++17 arithmetic on percentages; no CUPTI or CUDA needed, so every rule here is tested in CI. Where
// the thresholds come from: docs/profiler.md, "The report and its verdicts".
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// The SOL table: the kernel classified from ncu's Speed Of Light percentages (SM %, Memory %, DRAM %), one
// row per bottleneck. "High" is >= 60 % of peak, Nsight Compute's own line (its SpeedOfLight rule: below 60 %
// "typically indicate[s] latency issues"); DRAM high >= 60, low < 30; latency-bound needs both below 40.
// Combinations without a row stay unclassified, with the reason.
enum class bottleneck {
  compute_bound,        // SM high, Memory low
  memory_bound_dram,    // SM low, Memory high, DRAM high
  internal_congestion,  // SM low, Memory high, DRAM low: L1/shared/L2 saturated, not VRAM
  balanced,             // both high
  latency_bound,        // both below 40
  unclassified,         // between the table's rows (said why in the verdict's reason)
  not_measured,         // the metric set lacks SM % or Memory %
  passes_disagree,      // no verdict: the replay passes measured different work (sol_report::passes_disagree)
};
inline constexpr std::array<bottleneck, 8> all_bottlenecks{
    bottleneck::compute_bound, bottleneck::memory_bound_dram, bottleneck::internal_congestion,
    bottleneck::balanced,      bottleneck::latency_bound,     bottleneck::unclassified,
    bottleneck::not_measured,  bottleneck::passes_disagree};

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(bottleneck b) noexcept {
  switch (b) {
    case bottleneck::compute_bound: return "compute-bound";
    case bottleneck::memory_bound_dram: return "memory-bound-dram";
    case bottleneck::internal_congestion: return "internal-congestion";
    case bottleneck::balanced: return "balanced";
    case bottleneck::latency_bound: return "latency-bound";
    case bottleneck::unclassified: return "unclassified";
    case bottleneck::not_measured: return "not-measured";
    case bottleneck::passes_disagree: return "passes-disagree";
  }
  return "unknown";
}

// The verdict as the report prints it: "memory-bound (DRAM)".
constexpr std::string_view describe(bottleneck b) noexcept {
  switch (b) {
    case bottleneck::compute_bound: return "compute-bound";
    case bottleneck::memory_bound_dram: return "memory-bound (DRAM)";
    case bottleneck::internal_congestion: return "internal memory congestion";
    case bottleneck::balanced: return "balanced";
    case bottleneck::latency_bound: return "latency-bound";
    case bottleneck::unclassified: return "unclassified";
    case bottleneck::not_measured: return "not measured";
    case bottleneck::passes_disagree: return "no verdict (passes disagree)";
  }
  return "unknown verdict";
}

struct sol_verdict {
  bottleneck kind = bottleneck::not_measured;
  std::string reason;
};

sol_verdict classify_by_sol_table(double sm_pct, double memory_pct, std::optional<double> dram_pct);

// ncu's SpeedOfLight rule (SOLBottleneck in sections/SpeedOfLight.py): thresholds 80 (saturated),
// 60 (latency) and 10 points (which unit dominates).
enum class ncu_bottleneck {
  high_throughput,   // SM or Memory >= 80%
  latency_issue,     // both < 60% (ncu also says "small grid" when waves < 1: napkin cannot see waves)
  compute_dominant,  // SM - Memory >= 10 points
  memory_dominant,   // Memory - SM >= 10 points
  balanced,          // within 10 points
  passes_disagree,   // no verdict: the replay passes measured different work (sol_report::passes_disagree)
};

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(ncu_bottleneck b) noexcept {
  switch (b) {
    case ncu_bottleneck::high_throughput: return "high-throughput";
    case ncu_bottleneck::latency_issue: return "latency-issue";
    case ncu_bottleneck::compute_dominant: return "compute-dominant";
    case ncu_bottleneck::memory_dominant: return "memory-dominant";
    case ncu_bottleneck::balanced: return "balanced";
    case ncu_bottleneck::passes_disagree: return "passes-disagree";
  }
  return "unknown";
}

// The verdict as the report prints it: "memory throughput dominates".
constexpr std::string_view describe(ncu_bottleneck b) noexcept {
  switch (b) {
    case ncu_bottleneck::high_throughput: return "high throughput";
    case ncu_bottleneck::latency_issue: return "latency issue";
    case ncu_bottleneck::compute_dominant: return "compute throughput dominates";
    case ncu_bottleneck::memory_dominant: return "memory throughput dominates";
    case ncu_bottleneck::balanced: return "balanced throughput";
    case ncu_bottleneck::passes_disagree: return "no verdict (passes disagree)";
  }
  return "unknown verdict";
}

struct ncu_verdict {
  ncu_bottleneck kind = ncu_bottleneck::latency_issue;
  std::string reason;
};

// The units ncu's memory breakdown would name; napkin has only these three percentages, so "top memory
// unit" is the largest of them rather than ncu's per-sub-unit breakdown.
struct memory_units {
  std::optional<double> dram_pct, l1tex_pct, l2_pct;
};

ncu_verdict classify_by_ncu_rule(double sm_pct, double memory_pct, const memory_units& units = {});

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/verdicts_impl.hpp"
#endif
