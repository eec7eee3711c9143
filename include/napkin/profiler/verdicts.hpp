// SPDX-License-Identifier: Apache-2.0
// The two verdicts on a measurement: the SOL table (NVIDIA's analysis-driven optimization) and ncu's own
// SpeedOfLight rule, each from the Speed Of Light percentages, with the reason in words.
//
// Plain C++17 arithmetic on percentages; no CUPTI or CUDA needed, so every rule here is tested in CI. Where
// the thresholds come from: docs/profiler.md, "The report and its verdicts".
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

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

namespace detail {
inline void check_pct(double v, const char* what) {
  if (!(v >= 0.0) || !std::isfinite(v))  // also catches NaN
    raise_input_error<std::invalid_argument>(std::string("napkin: ") + what +
                                             " must be a finite percentage >= 0, got " + significant(v));
}
}  // namespace detail

struct sol_verdict {
  bottleneck kind = bottleneck::not_measured;
  std::string reason;
};

inline sol_verdict classify_by_sol_table(double sm_pct, double memory_pct, std::optional<double> dram_pct) {
  detail::check_pct(sm_pct, "SM throughput");
  detail::check_pct(memory_pct, "memory throughput");
  if (dram_pct) detail::check_pct(*dram_pct, "DRAM throughput");
  const std::string nums = "SM " + percent(sm_pct) + ", Memory " + percent(memory_pct) +
                           (dram_pct ? ", DRAM " + percent(*dram_pct) : std::string());
  const bool sm_high = sm_pct >= 60.0;
  const bool mem_high = memory_pct >= 60.0;
  if (sm_high && mem_high) return {bottleneck::balanced, nums + ": both at or above 60% of peak."};
  if (sm_high) return {bottleneck::compute_bound, nums + ": SM at or above 60%, memory below 60%."};
  if (mem_high) {
    if (!dram_pct)
      return {bottleneck::unclassified, nums + ": memory-bound, but DRAM % was not measured to tell DRAM from "
                                           "internal (L1/L2/shared) congestion."};
    if (*dram_pct >= 60.0)
      return {bottleneck::memory_bound_dram, nums + ": memory above 60% and DRAM above 60%: VRAM bandwidth is the "
                                                "limit."};
    if (*dram_pct < 30.0)
      return {bottleneck::internal_congestion,
              nums + ": memory above 60% but DRAM below 30%: the internal pipeline (L1/TEX, shared memory, L2) "
                     "is saturated, not VRAM. Look for bank conflicts, excess wavefronts, too many memory "
                     "instructions per FMA."};
    return {bottleneck::unclassified, nums + ": memory above 60% with DRAM between 30% and 60% falls between the "
                                         "table's DRAM-bound and internal-congestion rows: both contribute."};
  }
  if (sm_pct < 40.0 && memory_pct < 40.0)
    return {bottleneck::latency_bound, nums + ": both below 40%: neither unit is busy, warps wait (latency). Check "
                                          "occupancy, eligible warps and stall reasons."};
  return {bottleneck::unclassified, nums + ": the larger of SM and Memory is between 40% and 60%, a gap in the "
                                       "SOL table (ncu's rule calls anything below 60% a latency issue)."};
}

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

inline ncu_verdict classify_by_ncu_rule(double sm_pct, double memory_pct, const memory_units& units = {}) {
  detail::check_pct(sm_pct, "SM throughput");
  detail::check_pct(memory_pct, "memory throughput");
  const std::string nums = "SM " + percent(sm_pct) + ", Memory " + percent(memory_pct);
  if (sm_pct >= 80.0 || memory_pct >= 80.0) {
    std::string top;
    double best = -1;
    const std::pair<const char*, std::optional<double>> candidates[] = {
        {"DRAM", units.dram_pct}, {"L1/TEX", units.l1tex_pct}, {"L2", units.l2_pct}};
    for (const auto& [name, v] : candidates)
      if (v && *v > best) best = *v, top = name;
    std::string why = nums + ": at least one unit at 80% of peak or more; ";
    if (sm_pct >= memory_pct)
      why += "the SM is the busiest unit, so the work is near the compute ceiling; reduce instructions or "
             "move work to memory.";
    else
      why += "memory is the busiest" + (top.empty() ? std::string() : " (top unit measured: " + top + ")") +
             ", near its ceiling; reduce or reshape traffic.";
    return {ncu_bottleneck::high_throughput, why};
  }
  if (sm_pct < 60.0 && memory_pct < 60.0)
    return {ncu_bottleneck::latency_issue,
            nums + ": compute and memory both below 60% of peak, which typically indicates latency issues "
                   "(look at scheduler and warp-state statistics)."};
  if (std::fabs(sm_pct - memory_pct) >= 10.0) {
    if (sm_pct > memory_pct)
      return {ncu_bottleneck::compute_dominant, nums + ": compute leads memory by 10 points or more."};
    return {ncu_bottleneck::memory_dominant, nums + ": memory leads compute by 10 points or more."};
  }
  return {ncu_bottleneck::balanced, nums + ": compute and memory within 10 points of each other."};
}

NAPKIN_END_NAMESPACE
