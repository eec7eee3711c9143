// SPDX-License-Identifier: Apache-2.0
// The fast SOL set: Nsight Compute's "GPU Speed Of Light Throughput" numbers in 2 replay passes on GH100
// (H100, H200) instead of the 9 that ncu's own metric names need.
//
// Why it is cheaper: ncu's SM % (sm__throughput) and Memory % (gpu__compute_memory_throughput) are maxima over
// dozens of sub-unit counters, which CUPTI schedules over 8-9 passes. GH100 also has "TriageCompute"
// throughputs, the same maxima aggregated in hardware, which fit 2 passes with everything else the report
// shows. What the triage counters do not give is ncu's L2 figure, which on GH100 is the L2 fabric between the
// two L2 partitions when that is the busier unit (92 % for a copy kernel whose L2 slices read 51 %); the
// fabric counter fits the same 2 passes. Each number and how it is obtained (derive_sol_fast):
//
//   Duration, cycles, frequencies, DRAM %, DRAM bytes   collected under ncu's names
//   SM %        TriageCompute.sm__throughput (elapsed)
//   L1/TEX %    SM_A.TriageCompute.l1tex__throughput over active cycles (ncu's L1 row is "active" too)
//   L2 %        max(LTS.TriageCompute.lts__throughput, lts__ltcfabric2ltc_cycles_active), elapsed
//   Memory %    max(DRAM %, L1/TEX % over elapsed cycles, L2 slices %): ncu's Memory % is the max of its
//               memory units' throughputs over elapsed cycles (Nsight Compute Kernel Profiling Guide,
//               "Throughput" metrics), and its breakdown has the L2 slices but not the fabric
//
// Checked against `ncu --section SpeedOfLight` on H100 and H200 (docs/profiler.md, "Fast SOL"). Other chips
// lack either the triage counters or the fabric counter (GB100 has no lts__ltcfabric2ltc counter: its L2 %
// would be unverified), so there the profiler uses the full SOL set (metric_sets::sol()) and says so.
// Plain C++17: the derivation is tested in CI against recorded counter values.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "napkin/profiler/metrics.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// Fills ncu's SM %, L1/TEX %, L2 % and Memory % of a report collected with the fast set, and says how each
// was obtained in r.derivations. A number whose inputs are missing stays missing (and its derivation says so).
inline void derive_sol_fast(sol_report& r) {
  auto put = [&r](const char* metric_name, const char* field, std::optional<double> v, std::string how) {
    if (v) {
      r.values[metric_name] = *v;
    } else {
      how = "not measured: " + how + " (an input counter is missing)";
    }
    r.derivations[field] = std::move(how);
  };
  auto max_of = [](std::optional<double> a, std::optional<double> b) -> std::optional<double> {
    if (!a || !b) return std::nullopt;
    return std::max(*a, *b);
  };

  put(metric::sm_throughput_pct, "sm_pct", r.get(metric::triage_sm_pct), "TriageCompute.sm__throughput (elapsed)");
  put(metric::l1tex_throughput_pct, "l1tex_pct", r.get(metric::triage_l1tex_active_pct),
      "SM_A.TriageCompute.l1tex__throughput (active cycles)");
  const std::optional<double> l2 = max_of(r.get(metric::triage_l2_pct), r.get(metric::l2_fabric_pct));
  put(metric::l2_throughput_pct, "l2_pct", l2,
      "max(LTS.TriageCompute.lts__throughput, lts__ltcfabric2ltc_cycles_active) (elapsed)");
  // ncu's Memory % takes the L2 slices, not the fabric: a copy kernel reads L2 92.6 % (the fabric) and
  // Memory 88.1 % (DRAM) on an H200.
  put(metric::memory_throughput_pct, "memory_pct",
      max_of(max_of(r.get(metric::dram_throughput_pct), r.get(metric::triage_l1tex_elapsed_pct)),
             r.get(metric::triage_l2_pct)),
      "max(DRAM %, SM_A.TriageCompute.l1tex__throughput (elapsed), LTS.TriageCompute.lts__throughput)");
}

}  // namespace detail

namespace metric_sets {

// ncu's SOL numbers in 2 passes on GH100, derived as the header comment says; the full SOL set elsewhere.
// The profiler's default set.
inline metric_set sol_fast() {
  metric_set s;
  s.name = "sol-fast";
  s.metrics = {metric::duration_ns,        metric::elapsed_cycles,        metric::sm_active_cycles,
               metric::sm_frequency_hz,    metric::dram_frequency_hz,     metric::dram_bytes,
               metric::dram_throughput_pct, metric::triage_sm_pct,        metric::triage_l1tex_active_pct,
               metric::triage_l1tex_elapsed_pct, metric::triage_l2_pct,   metric::l2_fabric_pct};
  s.chips = {"GH100"};
  s.fallback = &sol;
  s.derive = &detail::derive_sol_fast;
  return s;
}

// The fast SOL set plus executed FP32/FP64/FP16 instructions, for achieved FLOP/s: 3 passes on GH100; the
// full set's roofline (roofline_full(), 10 passes on GH100) elsewhere.
inline metric_set roofline() {
  metric_set s = sol_fast();
  s.name = "roofline-fast";
  for (const auto& m : flop_counters()) s.metrics.push_back(m);
  s.fallback = &roofline_full;
  return s;
}

}  // namespace metric_sets
NAPKIN_END_NAMESPACE
