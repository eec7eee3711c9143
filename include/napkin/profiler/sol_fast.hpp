// SPDX-License-Identifier: Apache-2.0
// The fast SOL set: Nsight Compute's "GPU Speed Of Light Throughput" numbers in 3 replay passes on GH100
// (H100, H200) instead of the 9 that ncu's own metric names need.
//
// Each of ncu's SOL throughputs is the maximum of its inputs (breakdowns.hpp lists them: 25 for SM %, 26 for
// Memory %, 13 for L1/TEX %, 11 for L2 %). Collecting all 75 costs what ncu's names cost. GH100 also has
// "TriageCompute" throughputs: maxima over some of the same units, aggregated in hardware, cheap to collect.
// What they leave out is why a triage-only set read SM % 4-6 points low on LSU-bound kernels: the LSU and MIO
// inputs (sm__inst_executed_pipe_lsu, sm__mio_pq_read_cycles_active) have no triage counterpart. So this set
// collects the triage throughputs and, beside them, every breakdown input that CUPTI's host planner fits into
// the same 3 passes (37 of them, chosen LSU/MIO first, then the L2 and DRAM units, then the rest). Each
// number is the maximum over what was collected of its own inputs:
//
//   SM %        max(TriageCompute.sm__throughput, the collected inputs of sm__throughput)
//   Memory %    max(gpu__dram_throughput, SM_A.TriageCompute.l1tex__throughput over elapsed cycles,
//               LTS.TriageCompute.lts__throughput, the collected inputs of gpu__compute_memory_throughput)
//   L1/TEX %    max(SM_A.TriageCompute.l1tex__throughput over active cycles, the collected inputs)
//   L2 %        max(LTS.TriageCompute.lts__throughput, the collected inputs, the L2 fabric among them)
//
// Every input is one of ncu's own, so the result never exceeds ncu's number beyond run-to-run noise; it
// equals it unless ncu's maximum lies in an input this set could not fit. Those are named, per number, in the
// report (sol_report::derivations), so a reader knows what was not looked at. Accuracy on the kernel zoo:
// docs/accuracy.md. Other chips run the full SOL set (metric_sets::sol()) and say so.
// Plain C++17: the derivation is tested in CI against recorded counter values.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <vector>

#include "napkin/cupti/metrics.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The inputs of ncu's breakdowns that the fast set collects on GH100 beside the triage throughputs: what
// CUPTI's host planner fits into 3 passes (tests/profiler/sol_fast_test.cpp checks the count).
inline std::vector<std::string> sol_fast_gh100_inputs() {
  return {
      "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed",
      "sm__mio_pq_read_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__mio_pq_write_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__issue_active.avg.pct_of_peak_sustained_elapsed",
      "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "sm__inst_executed_pipe_cbu_pred_on_any.avg.pct_of_peak_sustained_elapsed",
      "sm__inst_executed_pipe_tex.avg.pct_of_peak_sustained_elapsed",
      "sm__inst_executed_pipe_ipa.avg.pct_of_peak_sustained_elapsed",
      "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed",
      "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
      "lts__d_sectors.avg.pct_of_peak_sustained_elapsed",
      "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "lts__d_sectors_fill_device.avg.pct_of_peak_sustained_elapsed",
      "lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "dram__cycles_active.avg.pct_of_peak_sustained_elapsed",
      "fbpa__dram_sectors.avg.pct_of_peak_sustained_elapsed",
      "l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed",
      "l1tex__f_wavefronts.avg.pct_of_peak_sustained_elapsed",
      "l1tex__texin_sm2tex_req_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "l1tex__tmain_requests.avg.pct_of_peak_sustained_elapsed",
      "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed",
      "l1tex__data_pipe_tex_wavefronts.avg.pct_of_peak_sustained_elapsed",
      "l1tex__tex_writeback_active.avg.pct_of_peak_sustained_elapsed",
      "l1tex__data_bank_reads.avg.pct_of_peak_sustained_active",
      "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_active",
      "l1tex__data_pipe_tex_wavefronts.avg.pct_of_peak_sustained_active",
      "l1tex__f_wavefronts.avg.pct_of_peak_sustained_active",
      "l1tex__tex_writeback_active.avg.pct_of_peak_sustained_active",
      "l1tex__texin_sm2tex_req_cycles_active.avg.pct_of_peak_sustained_active",
      "l1tex__tmain_requests.avg.pct_of_peak_sustained_active",
      "lts__lts2xbar_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
      "sm__instruction_throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
      "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"};
}

// Fills SM %, Memory %, L1/TEX % and L2 % of a report collected with the fast set (r.derived), and says how
// each was obtained (r.derivations). Nothing is stored under an ncu metric name it was not collected as.
void derive_sol_fast(sol_report& r);

}  // namespace detail

namespace metric_sets {

// ncu's SOL numbers in 3 passes on GH100, derived as the header comment says; the full SOL set elsewhere.
// The profiler's default set.
metric_set sol_fast();

// The fast SOL set plus executed FP32/FP64/FP16 instructions, for achieved FLOP/s: 4 passes on GH100; the
// full set's roofline (roofline_full(), 10 passes on GH100) elsewhere.
metric_set roofline();

}  // namespace metric_sets
NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sol_fast_impl.hpp"
#endif
