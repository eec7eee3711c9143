// SPDX-License-Identifier: Apache-2.0
// The findings of the deeper verdict (deeper_verdict.hpp): the rules that read the sections beyond SOL (warp state,
// pipes, memory chart) the way Nsight Compute's rules do, each finding with the numbers it rests on and, where a fix
// has a measurable size, an estimate from napkin's quantify formulas (measured_quantify.hpp) over the part of the
// time the problem can explain:
//
//   uncoalesced global accesses  sectors over the access width's ideal, over Memory % (the busiest memory unit)
//   bank conflicts               wavefronts over the conflict-free ones, over L1/TEX %
//   thread divergence            32 lanes over the predicated-on ones, over the warp cycles not waiting on memory
//   DRAM traffic                 bytes over the algorithm's minimum (when given), over DRAM %
//   stall reasons, busiest pipe, cache traffic: the numbers, no estimate (no formula gives the gain)
//
// The thresholds are napkin's, stated below; the facts each rule rests on are the Nsight Compute Kernel Profiling
// Guide's (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/profiler/sections/measured_quantify.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/warp_state.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

// What a finding is about.
enum class deeper_rule { stall_reasons, busiest_pipe, dram_traffic, cache_traffic, bank_conflicts,
                         uncoalesced_global, thread_divergence };
inline constexpr std::array<deeper_rule, 7> all_deeper_rules{
    deeper_rule::stall_reasons,  deeper_rule::busiest_pipe,       deeper_rule::dram_traffic,
    deeper_rule::cache_traffic,  deeper_rule::bank_conflicts,     deeper_rule::uncoalesced_global,
    deeper_rule::thread_divergence};

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(deeper_rule r) noexcept {
  switch (r) {
    case deeper_rule::stall_reasons: return "stall-reasons";
    case deeper_rule::busiest_pipe: return "busiest-pipe";
    case deeper_rule::dram_traffic: return "dram-traffic";
    case deeper_rule::cache_traffic: return "cache-traffic";
    case deeper_rule::bank_conflicts: return "bank-conflicts";
    case deeper_rule::uncoalesced_global: return "uncoalesced-global";
    case deeper_rule::thread_divergence: return "thread-divergence";
  }
  return "unknown";
}
constexpr std::string_view describe(deeper_rule r) noexcept {
  switch (r) {
    case deeper_rule::stall_reasons: return "stall reasons";
    case deeper_rule::busiest_pipe: return "busiest pipe";
    case deeper_rule::dram_traffic: return "DRAM traffic";
    case deeper_rule::cache_traffic: return "cache traffic";
    case deeper_rule::bank_conflicts: return "shared-memory bank conflicts";
    case deeper_rule::uncoalesced_global: return "uncoalesced global accesses";
    case deeper_rule::thread_divergence: return "thread divergence";
  }
  return "unknown";
}

// A number a finding rests on, named as a document member is (snake_case, unit suffix: named_number prints it).
struct finding_number {
  std::string name;
  double value = 0;
};

struct finding {
  deeper_rule rule = deeper_rule::stall_reasons;
  std::string summary;                    // a few words with the key number: "32.0-way" (bank conflicts)
  std::string text;                       // the sentences, with the numbers and the estimate's assumption
  std::vector<finding_number> numbers;    // what it rests on
  std::optional<measured_estimate> estimate;  // "fix this and expect about N x"; none where no formula applies
};

struct deeper_options {
  // Bytes each thread's global access moves, for the coalescing ideal when the report lacks the bytes requested
  // (smsp__sass_data_bytes_mem_global_op_{ld,st}.sum, in metric_sets::why()): 4 for float or int, 16 for float4.
  double assumed_access_bytes = 4;
  std::size_t top_stalls = 3;  // stall reasons a latency finding names (those with at least 10 % of the cycles)
  // The algorithm's minimum DRAM bytes (napkin math: a workload's bytes), for the DRAM finding's traffic overhead
  // and its estimate; without it the finding gives the traffic only.
  std::optional<double> minimum_bytes;
};

// Thresholds (napkin's; ncu's rules fire at similar levels on the zoo: docs/why.md).
inline constexpr double deeper_conflict_pct = 10.0;        // bank conflicts: share of shared wavefronts
inline constexpr double deeper_excess_sector_ratio = 1.25;  // uncoalesced: sectors over ideal sectors
inline constexpr double deeper_divergence_waste = 0.10;     // divergence: share of lanes idle
inline constexpr double deeper_stall_share_pct = 10.0;      // stall reasons named after the leader
inline constexpr double deeper_leading_speedup = 1.5;       // a cause estimated at this or more comes first

namespace detail {

// Below this an estimate is called worth little (the pointer chase's sectors, over Memory 0.07 %).
inline constexpr double deeper_little_speedup = 1.05;

std::optional<finding> stall_finding(const warp_state_section& w, std::optional<double> occupancy_pct,
                                     const std::optional<occupancy_section>& occupancy, std::size_t top);
std::optional<finding> pipe_finding(const pipes_section& p);
std::optional<finding> dram_finding(const sol_report& r, const memory_chart_section& m, const deeper_options& o);
finding cache_finding(const sol_report& r, const memory_chart_section& m);
std::optional<finding> bank_finding(const sol_report& r, const memory_chart_section& m,
                                    std::vector<std::string>& not_looked_at);
std::optional<finding> coalescing_finding(const sol_report& r, const memory_chart_section& m, const deeper_options& o,
                                          std::vector<std::string>& not_looked_at);
std::optional<finding> divergence_finding(const sol_report& r, const std::optional<warp_state_section>& w,
                                          std::vector<std::string>& not_looked_at);

}  // namespace detail

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/deeper_findings_impl.hpp"
#endif
