// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/verdicts.hpp's two verdicts, the SOL table and ncu's rule: the function bodies. Included by
// verdicts.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "napkin/profiler/verdicts.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
NAPKIN_DETAIL_FUNC void check_pct(double v, const char* what) {
  if (!(v >= 0.0) || !std::isfinite(v))  // also catches NaN
    raise_input_error<std::invalid_argument>(std::string("napkin: ") + what +
                                             " must be a finite percentage >= 0, got " + significant(v));
}
}  // namespace detail

NAPKIN_DETAIL_FUNC sol_verdict classify_by_sol_table(double sm_pct, double memory_pct, std::optional<double> dram_pct) {
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

NAPKIN_DETAIL_FUNC ncu_verdict classify_by_ncu_rule(double sm_pct, double memory_pct, const memory_units& units) {
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
