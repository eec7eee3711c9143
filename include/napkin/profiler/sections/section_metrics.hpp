// SPDX-License-Identifier: Apache-2.0
// The metrics behind Nsight Compute's sections beyond Speed Of Light — Warp State Statistics, Compute Workload
// Analysis (pipe utilization), Memory Workload Analysis (the memory chart and tables) — and the achieved-occupancy
// metrics of the Occupancy section, with napkin's metric sets for them.
//
// Each name is the one ncu 2025.3 collects for these sections on GH100 (the columns of `ncu --page raw` over the
// kernel zoo: benchmarks/device/why_ncu.sh, docs/why.md), checked with CUPTI's host planner per chip
// (tests/profiler/sections_test.cpp). The meaning of each stall reason and pipe is NVIDIA's: Nsight Compute Kernel
// Profiling Guide, "Warp Stall Reasons" and "Pipelines" in its metrics reference
// (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html). Plain C++17: no CUPTI or CUDA header.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <string>
#include <string_view>

#include "napkin/cupti/metrics.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace metric {
// --- Warp State Statistics ---
// Warp cycles per issued instruction: the average cycles between two issues of a warp; the stall reasons'
// cycles add up to it (ncu's "Warp Cycles Per Issued Instruction").
inline constexpr const char* warp_cycles_per_issued = "smsp__average_warp_latency_per_inst_issued.ratio";
// --- Occupancy (collected here; the occupancy section reads them) ---
inline constexpr const char* achieved_occupancy_pct = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* achieved_warps_per_sm = "sm__warps_active.avg.per_cycle_active";
// --- Memory Workload Analysis: whose traffic the L2 hit rate describes ---
// L2 sectors in all, those the SMs' loads and stores brought (the L1/TEX units), and the lookups a request makes
// again in the far L2 partition (the fabric: an echo of the others). The rest is other units' traffic: about
// 22,000 sectors per kernel on an H100 (44,000 with their echoes), an empty kernel included, so a kernel that
// touches no memory has an L2 hit rate that is not its own (ncu printed 132 %).
inline constexpr const char* l2_sectors = "lts__t_sectors.sum";
inline constexpr const char* l2_sectors_from_sms = "lts__t_sectors_srcunit_tex.sum";
inline constexpr const char* l2_sectors_from_fabric = "lts__t_sectors_srcunit_ltcfabric.sum";
// --- Memory Workload Analysis: shared memory ---
inline constexpr const char* shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* shared_load_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* shared_store_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// Shared load / store instructions (requests). ncu's tables use the SASS-patched counters (smsp__sass_...),
// which memory_chart() reads where present (an ncu file); CUPTI's host planner accepts them, but in-process they
// read 0 (H200, CUDA 13.0: docs/why.md). napkin collects the hardware counters of instructions with at least one thread predicated on: the
// plain counters also count warps whose every thread is predicated off, 5.4x ncu's requests on a shared tree
// reduction (`if (tid < s)` compiled to predicates) on an H100 (docs/why.md).
inline constexpr const char* shared_load_instructions = "smsp__inst_executed_op_shared_ld_pred_on_any.sum";
inline constexpr const char* shared_store_instructions = "smsp__inst_executed_op_shared_st_pred_on_any.sum";
inline constexpr const char* shared_load_instructions_sass = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr const char* shared_store_instructions_sass = "smsp__sass_inst_executed_op_shared_st.sum";
// --- Divergence and access width (the deeper verdict's measured inputs, deeper_verdict.hpp) ---
// Threads active per executed warp instruction, and of those the ones not predicated off (ncu's ThreadDivergence
// rule: "an average of 32.0 threads being active per cycle ... further reduced to 14.9 threads per warp due to
// predication").
inline constexpr const char* active_threads_per_instruction = "smsp__thread_inst_executed_per_inst_executed.ratio";
inline constexpr const char* predicated_on_threads_per_instruction =
    "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio";
// Bytes the threads' global loads / stores asked for (SASS-patched): the ideal sectors of the access width,
// bytes / 32 per request.
inline constexpr const char* global_load_bytes_requested = "smsp__sass_data_bytes_mem_global_op_ld.sum";
inline constexpr const char* global_store_bytes_requested = "smsp__sass_data_bytes_mem_global_op_st.sum";
}  // namespace metric

// ---------------------------------------------------------------------------------------------------
// Warp stall reasons: the states ncu's Warp State Statistics chart shows, each measured as warp cycles per
// issued instruction (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio).
enum class stall_reason {
  barrier, branch_resolving, dispatch_stall, drain, gmma, imc_miss, lg_throttle, long_scoreboard,
  math_pipe_throttle, membar, mio_throttle, misc, no_instruction, not_selected, selected, short_scoreboard,
  sleeping, tex_throttle, wait,
};
inline constexpr std::array<stall_reason, 19> all_stall_reasons{
    stall_reason::barrier,         stall_reason::branch_resolving, stall_reason::dispatch_stall,
    stall_reason::drain,           stall_reason::gmma,             stall_reason::imc_miss,
    stall_reason::lg_throttle,     stall_reason::long_scoreboard,  stall_reason::math_pipe_throttle,
    stall_reason::membar,          stall_reason::mio_throttle,     stall_reason::misc,
    stall_reason::no_instruction,  stall_reason::not_selected,     stall_reason::selected,
    stall_reason::short_scoreboard, stall_reason::sleeping,        stall_reason::tex_throttle,
    stall_reason::wait};

// The name inside ncu's metric ("long_scoreboard"); "unknown" outside the enumerators.
constexpr std::string_view to_string(stall_reason r) noexcept {
  switch (r) {
    case stall_reason::barrier: return "barrier";
    case stall_reason::branch_resolving: return "branch_resolving";
    case stall_reason::dispatch_stall: return "dispatch_stall";
    case stall_reason::drain: return "drain";
    case stall_reason::gmma: return "gmma";
    case stall_reason::imc_miss: return "imc_miss";
    case stall_reason::lg_throttle: return "lg_throttle";
    case stall_reason::long_scoreboard: return "long_scoreboard";
    case stall_reason::math_pipe_throttle: return "math_pipe_throttle";
    case stall_reason::membar: return "membar";
    case stall_reason::mio_throttle: return "mio_throttle";
    case stall_reason::misc: return "misc";
    case stall_reason::no_instruction: return "no_instruction";
    case stall_reason::not_selected: return "not_selected";
    case stall_reason::selected: return "selected";
    case stall_reason::short_scoreboard: return "short_scoreboard";
    case stall_reason::sleeping: return "sleeping";
    case stall_reason::tex_throttle: return "tex_throttle";
    case stall_reason::wait: return "wait";
  }
  return "unknown";
}

// ncu's label for the reason ("Long Scoreboard").
constexpr std::string_view describe(stall_reason r) noexcept {
  switch (r) {
    case stall_reason::barrier: return "Barrier";
    case stall_reason::branch_resolving: return "Branch Resolving";
    case stall_reason::dispatch_stall: return "Dispatch Stall";
    case stall_reason::drain: return "Drain";
    case stall_reason::gmma: return "GMMA";
    case stall_reason::imc_miss: return "IMC Miss";
    case stall_reason::lg_throttle: return "LG Throttle";
    case stall_reason::long_scoreboard: return "Long Scoreboard";
    case stall_reason::math_pipe_throttle: return "Math Pipe Throttle";
    case stall_reason::membar: return "Membar";
    case stall_reason::mio_throttle: return "MIO Throttle";
    case stall_reason::misc: return "Misc";
    case stall_reason::no_instruction: return "No Instruction";
    case stall_reason::not_selected: return "Not Selected";
    case stall_reason::selected: return "Selected";
    case stall_reason::short_scoreboard: return "Short Scoreboard";
    case stall_reason::sleeping: return "Sleeping";
    case stall_reason::tex_throttle: return "Tex Throttle";
    case stall_reason::wait: return "Wait";
  }
  return "unknown";
}

// The metric ncu collects for a reason.
std::string stall_metric(stall_reason r);

// Reasons CUPTI knows on GH100 only among the chips it plans for (checked per chip in the sections test):
// GMMA (Hopper's warpgroup MMA) everywhere but GH100, IMC Miss on GB100/GB202.
constexpr bool stall_reason_gh100_only(stall_reason r) noexcept {
  return r == stall_reason::gmma || r == stall_reason::imc_miss;
}

// ---------------------------------------------------------------------------------------------------
// SM pipes as ncu's Compute Workload Analysis shows them: utilization by executed instructions
// (sm__inst_executed_pipe_<name>) and, for the pipes that have it, by cycles the pipe was busy
// (sm__pipe_<name>_cycles_active, which takes the rates of its instructions into account). Both over active
// cycles as ncu's chart shows them; the cycles view also over elapsed cycles, which ncu's HighPipeUtilization
// rule ranks by.
struct sm_pipe_info {
  std::string_view name;   // inside the metric name: "fma", "tensor_op_hmma"
  std::string_view label;  // ncu's label: "FMA", "Tensor (FP)"
  bool by_instructions;    // has sm__inst_executed_pipe_<name>
  bool by_cycles;          // has sm__pipe_<name>_cycles_active
  bool gh100_only;         // not on every chip CUPTI plans for (the sections test names where)
  std::string_view parent; // the aggregate pipe it is part of ("shared" for fp64, "tensor" for hmma), or empty
};

inline constexpr std::array<sm_pipe_info, 17> all_sm_pipes{{
    {"adu", "ADU", true, false, false, ""},
    {"alu", "ALU", true, true, false, ""},
    {"cbu", "CBU", true, false, false, ""},
    {"fma", "FMA", true, true, false, ""},
    {"fma_type_fp16", "FMA (FP16)", true, false, true, "fma"},
    {"fp64", "FP64", true, true, false, "shared"},
    {"lsu", "LSU", true, false, false, ""},
    {"shared", "Shared", false, true, true, ""},
    {"tensor", "Tensor", false, true, false, "shared"},
    {"tensor_op_dmma", "Tensor (DP)", true, true, true, "tensor"},
    {"tensor_op_gmma", "Tensor (GMMA)", true, false, true, "tensor"},
    {"tensor_op_hmma", "Tensor (FP)", true, true, true, "tensor"},
    {"tensor_op_imma", "Tensor (INT)", true, true, true, "tensor"},
    {"tex", "TEX", true, false, false, ""},
    {"tma", "TMA", true, true, true, ""},
    {"uniform", "Uniform", true, false, false, ""},
    {"xu", "XU", true, false, false, ""},
}};

std::string pipe_instructions_metric(std::string_view pipe);
std::string pipe_cycles_metric(std::string_view pipe);
std::string pipe_cycles_elapsed_metric(std::string_view pipe);

// ---------------------------------------------------------------------------------------------------
// The sets. Each is GH100's (H100, H200: the names ncu collects there) and falls back, on other chips, to the
// same set without the names those chips lack. Passes per chip: docs/why.md (CUPTI's host planner).
namespace metric_sets {
// Warp State Statistics: warp cycles per issued instruction and every stall reason (7 passes on GH100).
metric_set warp_state_portable();
metric_set warp_state();
// Compute Workload Analysis' pipe utilization, by instructions and by busy cycles.
metric_set pipes_portable();
metric_set pipes();
// Memory Workload Analysis' chart: hit rates, sectors per request, shared wavefronts and bank conflicts, DRAM
// bytes.
metric_set memory_chart_portable();
metric_set memory_chart();
// Everything "why is the kernel where it is" needs, in one measurement: the three sections, achieved occupancy,
// the measured inputs of the deeper verdict's estimates (active threads per instruction, bytes requested by
// global loads and stores) and the SOL numbers, planned together. On GH100 the fast SOL set's metrics and its
// derivation (sol_fast.hpp), 17 passes where ncu needs 33 for its equivalent sections; elsewhere ncu's full SOL
// names (docs/why.md lists the passes per chip).
metric_set why_portable();
metric_set why();
}  // namespace metric_sets

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/section_metrics_impl.hpp"
#endif
