// SPDX-License-Identifier: Apache-2.0
// Metric names and metric sets for napkin's range profiler.
//
// The names behind Nsight Compute's "GPU Speed Of Light Throughput" section are the ones ncu's
// sections/SpeedOfLight.section collects (see docs/profiler.md for the source); each was checked with
// CUPTI's host API for GH100. Plain C++17: no CUPTI or CUDA header is needed to name a metric.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <utility>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Metric names, one constant per number a report can show.
namespace metric {
// --- ncu SpeedOfLight section header (same names, same rollups) ---
inline constexpr const char* duration_ns = "gpu__time_duration.sum";
inline constexpr const char* sm_throughput_pct = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* memory_throughput_pct =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* dram_throughput_pct = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
// ncu shows L1/TEX over *active* cycles, the others over elapsed cycles.
inline constexpr const char* l1tex_throughput_pct = "l1tex__throughput.avg.pct_of_peak_sustained_active";
inline constexpr const char* l2_throughput_pct = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* elapsed_cycles = "gpc__cycles_elapsed.max";
inline constexpr const char* sm_active_cycles = "sm__cycles_active.avg";
// The SM's elapsed cycles: measure() takes the span of the SM-side numbers' pass from it (profiler/busy_time.hpp).
inline constexpr const char* sm_elapsed_cycles = "sm__cycles_elapsed.avg";
inline constexpr const char* sm_frequency_hz = "gpc__cycles_elapsed.avg.per_second";
inline constexpr const char* dram_frequency_hz = "dram__cycles_elapsed.avg.per_second";
// --- traffic (one pass each on GH100) ---
inline constexpr const char* dram_bytes_read = "dram__bytes_read.sum";
inline constexpr const char* dram_bytes_write = "dram__bytes_write.sum";
inline constexpr const char* dram_bytes = "dram__bytes.sum";
// --- the fast SOL set's counters (GH100: all of them fit 2 passes; profiler/sol_fast.hpp derives ncu's numbers) ---
inline constexpr const char* triage_sm_pct = "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* triage_l1tex_active_pct = "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active";
inline constexpr const char* triage_l1tex_elapsed_pct = "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* triage_l2_pct = "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* l2_fabric_pct = "lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed";
// --- cheap stand-ins for the one-pass set ---
inline constexpr const char* dram_only_throughput_pct = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* sm_issue_active_pct = "sm__inst_executed.avg.pct_of_peak_sustained_active";
inline constexpr const char* fma_pipe_active_pct = "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active";
// --- executed floating-point instructions per thread (SASS-patched: a pass of their own) ---
inline constexpr const char* fadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* fmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr const char* dadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
inline constexpr const char* dmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";
inline constexpr const char* dfma = "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum";
inline constexpr const char* hadd = "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum";
inline constexpr const char* hmul = "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum";
inline constexpr const char* hfma = "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum";
// --- coalescing and caches (sectors per request, hit rates) ---
inline constexpr const char* global_load_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* global_load_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* global_store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* global_store_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* l1_hit_rate_pct = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char* l2_hit_rate_pct = "lts__t_sector_hit_rate.pct";
}  // namespace metric

struct sol_report;

// A named list of metric names. Pass counts depend on the chip: ask napkin::plan_passes (host.hpp).
//
// A set may be meant for some chips only (`chips`, empty = any chip): on another chip the profiler and
// plan_passes use `fallback()` instead (and the report names the set that ran). A set whose report numbers are
// not all collected under ncu's names has `derive`, which computes them from what was collected and says how
// (sol_report::derivations); the fast SOL set is one (profiler/sol_fast.hpp).
struct metric_set {
  metric_set() = default;
  metric_set(std::string set_name, std::vector<std::string> metric_names)
      : name(std::move(set_name)), metrics(std::move(metric_names)) {}

  std::string name;
  std::vector<std::string> metrics;
  std::vector<std::string> chips;
  metric_set (*fallback)() = nullptr;
  void (*derive)(sol_report&) = nullptr;
};

// Does `set` apply on `chip` as it is (no chip list, or the chip in it)?
inline bool applies_to(const metric_set& set, const std::string& chip) {
  if (set.chips.empty()) return true;
  for (const auto& c : set.chips)
    if (c == chip) return true;
  return false;
}

namespace metric_sets {

// What ncu's SpeedOfLight section shows, plus DRAM bytes for the napkin comparison
// (9 passes on GH100/GA100, 8 on GB100/GB202, 7 on TU102/GA102/AD102: see docs/profiler.md).
inline metric_set sol() {
  return {"sol",
          {metric::duration_ns, metric::sm_throughput_pct, metric::memory_throughput_pct,
           metric::dram_throughput_pct, metric::l1tex_throughput_pct, metric::l2_throughput_pct,
           metric::elapsed_cycles, metric::sm_active_cycles, metric::sm_frequency_hz,
           metric::dram_frequency_hz, metric::dram_bytes, metric::sm_elapsed_cycles}};
}

// Fits one pass on Ampere and later (two on Turing): duration, clocks, DRAM throughput and bytes, SM issue and FMA-pipe activity.
// No SM%/Memory% (those need several passes), so its verdict can only say DRAM-bound or not.
inline metric_set one_pass() {
  return {"one-pass",
          {metric::duration_ns, metric::elapsed_cycles, metric::sm_frequency_hz, metric::dram_frequency_hz,
           metric::dram_only_throughput_pct, metric::dram_bytes, metric::sm_active_cycles, metric::sm_issue_active_pct, metric::fma_pipe_active_pct}};
}

// The executed floating-point instruction counters behind achieved FLOP/s (SASS-patched: a pass of their own).
inline std::vector<std::string> flop_counters() {
  return {metric::fadd, metric::fmul, metric::ffma, metric::dadd, metric::dmul,
          metric::dfma, metric::hadd, metric::hmul, metric::hfma};
}

// The full SOL set plus executed FP32/FP64/FP16 instructions, for achieved FLOP/s (one more pass).
// metric_sets::roofline() (profiler/sol_fast.hpp) is the same on the fast SOL set where the chip allows.
inline metric_set roofline_full() {
  metric_set s = sol();
  s.name = "roofline";
  for (const auto& m : flop_counters()) s.metrics.push_back(m);
  return s;
}

// The coalescing diagnosis: sectors per request for global loads/stores, hit rates, DRAM bytes.
inline metric_set memory() {
  return {"memory",
          {metric::duration_ns, metric::dram_only_throughput_pct, metric::dram_bytes, metric::global_load_sectors, metric::global_load_requests,
           metric::global_store_sectors, metric::global_store_requests, metric::l1_hit_rate_pct,
           metric::l2_hit_rate_pct}};
}

// Any metric names the user gives (checked against the chip when the profiler or plan is built).
inline metric_set custom(std::string name, std::vector<std::string> metrics) {
  return {std::move(name), std::move(metrics)};
}

}  // namespace metric_sets
NAPKIN_END_NAMESPACE
