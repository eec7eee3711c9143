// SPDX-License-Identifier: Apache-2.0
// The Warp State Statistics section: where a warp's cycles between two issued instructions go, by stall reason,
// sorted, with the leading reason, whether it leads clearly, and what each reason means and usually fixes.
//
// Numbers as ncu shows them: each reason in warp cycles per issued instruction
// (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio), its share as a percentage of the warp
// cycles per issued instruction (smsp__average_warp_latency_per_inst_issued.ratio), which is how ncu's CPIStall
// rule states it ("represents about X% of the total average of Y cycles"). Reasons are collected in different
// replay passes, so shares may add up to a little more or less than 100 %. The meanings and fixes below are
// napkin's words for the facts in the Nsight Compute Kernel Profiling Guide's "Warp Stall Reasons"
// (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/profiler/sections/section_metrics.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

// What a stall reason means, in one sentence a CUDA engineer recognizes.
constexpr std::string_view stall_meaning(stall_reason r) noexcept {
  switch (r) {
    case stall_reason::barrier: return "warps wait at a block barrier (__syncthreads) for the rest of the block";
    case stall_reason::branch_resolving: return "warps wait for a branch target to be computed and their PC updated";
    case stall_reason::dispatch_stall:
      return "the dispatcher could not take the selected warp's instruction (pipeline conflict)";
    case stall_reason::drain: return "exited warps wait for their memory stores to drain before they leave";
    case stall_reason::gmma: return "warps wait on Hopper's warpgroup MMA (wgmma) operations";
    case stall_reason::imc_miss: return "warps wait for an immediate-constant cache miss";
    case stall_reason::lg_throttle: return "the local/global memory instruction queue is full";
    case stall_reason::long_scoreboard:
      return "warps wait for data from L1TEX: global, local, texture or surface loads";
    case stall_reason::math_pipe_throttle: return "warps wait for a busy math pipe to accept their instruction";
    case stall_reason::membar: return "warps wait at a memory fence (__threadfence, membar)";
    case stall_reason::mio_throttle: return "the MIO queue (shared memory, special math, shuffles) is full";
    case stall_reason::misc: return "a rare hardware reason ncu does not break out";
    case stall_reason::no_instruction: return "warps wait for instructions: an instruction cache miss or a branch";
    case stall_reason::not_selected: return "warps were ready but the scheduler issued another warp";
    case stall_reason::selected: return "the cycle the warp issues (not a stall: one per instruction)";
    case stall_reason::short_scoreboard:
      return "warps wait for an MIO result: shared memory, special math (MUFU), shuffles";
    case stall_reason::sleeping: return "all threads of the warp are sleeping (__nanosleep), yielded or blocked";
    case stall_reason::tex_throttle: return "the texture/L1TEX instruction queue is full";
    case stall_reason::wait: return "warps wait out a fixed-latency dependency (the compiler's wait counts)";
  }
  return "unknown";
}

// What usually removes it.
constexpr std::string_view stall_fix(stall_reason r) noexcept {
  switch (r) {
    case stall_reason::barrier:
      return "balance the work before each __syncthreads, use smaller blocks, or fewer barriers";
    case stall_reason::branch_resolving: return "make branches uniform per warp; fewer jumps (predication, unrolling)";
    case stall_reason::dispatch_stall:
      return "rarely actionable; check the instruction mix for register bank or pipe conflicts";
    case stall_reason::drain: return "usually only at the kernel's end; fewer or wider stores at exit";
    case stall_reason::gmma: return "keep more wgmma groups in flight (deeper pipelining) and overlap loads with MMAs";
    case stall_reason::imc_miss: return "fewer distinct constants per warp; keep constant accesses uniform";
    case stall_reason::lg_throttle:
      return "fewer, wider memory instructions (vector loads), fewer spills to local memory";
    case stall_reason::long_scoreboard:
      return "coalesce accesses, raise cache hit rates, keep more loads in flight (ILP, occupancy), stage in "
             "shared memory";
    case stall_reason::math_pipe_throttle:
      return "the pipe is the limit: spread work over other pipes or use a faster one (tensor cores)";
    case stall_reason::membar:
      return "drop fences that are not needed, or use narrower scopes (block instead of device)";
    case stall_reason::mio_throttle:
      return "fewer shared-memory or special-math instructions, wider ones, no bank conflicts";
    case stall_reason::misc: return "look at the other reasons first";
    case stall_reason::no_instruction: return "smaller code in hot loops (less unrolling), fewer divergent jumps";
    case stall_reason::not_selected: return "nothing to fix: enough warps are ready; the issue rate is the limit";
    case stall_reason::selected: return "nothing to fix";
    case stall_reason::short_scoreboard:
      return "remove shared-memory bank conflicts, fewer MUFU/shuffle round trips, keep values in registers";
    case stall_reason::sleeping: return "shorter or fewer sleeps and spin-waits";
    case stall_reason::tex_throttle: return "fewer texture/L1TEX instructions, wider ones; spread them among math";
    case stall_reason::wait: return "more independent instructions between dependent ones (ILP), more warps";
  }
  return "unknown";
}

struct stall_entry {
  stall_reason reason = stall_reason::misc;
  std::string metric;       // ncu's metric
  double cycles = 0;        // warp cycles per issued instruction spent in this state
  double share_pct = 0;     // cycles over warp cycles per issued instruction, in %
};

// The clear-leader rule: the top stall (Selected excluded: it is the issue itself) leads clearly when its
// share is at least 1.5x the runner-up's AND at least 10 points above it. Both, because the reasons come from
// different replay passes, so a near tie may swap places between runs; the ratio alone would call a 3 % vs 1 %
// split clear, the points alone a 60 % vs 50 % one. On the H200 zoo (docs/why.md) the rule leaves out the
// ties (FP64 FMA: Math Pipe Throttle 43.6 % vs Not Selected 43.5 %) and keeps the memory-bound kernels.
inline constexpr double clear_leader_ratio = 1.5;
inline constexpr double clear_leader_points = 10.0;

struct warp_state_section {
  double warp_cycles_per_issued = 0;  // ncu's "Warp Cycles Per Issued Instruction"
  std::vector<stall_entry> stalls;    // every reason collected, most cycles first (Selected included)
  std::vector<std::string> missing;   // reasons the report lacks (the chip has no such counter)
  // The top stall (never Selected) and whether it leads clearly; no leader when no stall has cycles.
  std::optional<stall_entry> leader() const;
  std::optional<stall_entry> runner_up() const;
  bool clear_leader() const;
};

// The section from a report holding the warp-state metrics; std::nullopt when it lacks warp cycles per issued
// instruction or every stall reason. Bad values (NaN, negative) are an input error.
std::optional<warp_state_section> warp_state(const sol_report& r);

// The section for people: the reasons with cycles, share, meaning, and for the leader what usually fixes it.
// `top`: how many reasons to list (the rest are summed in one line).
std::string to_text(const warp_state_section& s, std::size_t top = 6);

// One line for scripts: "NAPKIN_WARP_STATE warp_cycles_per_issued=... leader=... clear_leader=0|1" and each
// reason's cycles and share ("long_scoreboard_cycles=", "long_scoreboard_pct=").
std::string to_key_values(const warp_state_section& s);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/warp_state_impl.hpp"
#endif
