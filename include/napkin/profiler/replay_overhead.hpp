// SPDX-License-Identifier: Apache-2.0
// What a replay mode counts of its own, measured in the same passes and taken out of each kernel's counts.
//
// Application replay (CUPTI's auto range in user-replay mode) counted one global store request and one store
// sector per kernel more than Nsight Compute on every kernel of the zoo, an FMA loop that stores nothing
// included (NVIDIA H200, CUPTI 13.0; docs/why.md, "One store request of one sector per kernel"). Rather than
// subtract that constant, per_kernel(fn, replay::application) appends a kernel that executes no memory
// instruction to every pass (launch_no_memory_kernel, l2_flush.hpp): such a kernel can make no memory request,
// sector or wavefront, so whatever its range counts of them is the mode's own, on this chip and CUPTI version.
// Those counts are taken out of every kernel's range of the same measurement (clamped at 0), and the report
// says so (sol_report::derivations["replay_overhead"]). Other counters (cycles, instructions, L2 and DRAM
// traffic, which other units and the kernel's own launch make) are left as collected. User ranges (measure(),
// scope, a watched phase) count the same per kernel in the range (measure() of one store read 2 requests and 2
// sectors); a user range has no reference range yet, so their reports say so (replay_overhead_not_measured).
// Plain C++17; no CUDA.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/profiler/sol_report.hpp"
#include "napkin/text.hpp"

NAPKIN_BEGIN_NAMESPACE

// Does `metric` count a kernel's memory instructions, or the requests, sectors, wavefronts or bank conflicts
// they make in L1TEX (global, local and shared memory)? A kernel that executes no memory instruction reads 0
// on each of them. Sums only: a rate or percentage is not a count.
constexpr bool counts_memory_instructions(std::string_view metric) noexcept {
  constexpr std::string_view sum = ".sum";
  if (metric.size() < sum.size() || metric.substr(metric.size() - sum.size()) != sum) return false;
  for (std::string_view prefix :
       {std::string_view("l1tex__t_requests_pipe_lsu_mem_"), std::string_view("l1tex__t_sectors_pipe_lsu_mem_"),
        std::string_view("l1tex__data_pipe_lsu_wavefronts_mem_shared"),
        std::string_view("l1tex__data_bank_conflicts_pipe_lsu_mem_shared"),
        std::string_view("smsp__inst_executed_op_global"), std::string_view("smsp__inst_executed_op_local"),
        std::string_view("smsp__inst_executed_op_shared"), std::string_view("smsp__sass_inst_executed_op_global"),
        std::string_view("smsp__sass_inst_executed_op_local"), std::string_view("smsp__sass_inst_executed_op_shared")})
    if (metric.substr(0, prefix.size()) == prefix) return true;
  return false;
}

namespace detail {

// The memory-instruction counts a replay mode made of its own in one range: those above zero, by metric name.
struct replay_overhead {
  std::vector<std::pair<std::string, double>> counts;
};

// The overhead read from the range of a kernel that executes no memory instruction, measured in the same mode.
inline replay_overhead replay_overhead_of(const sol_report& no_memory_kernel) {
  replay_overhead o;
  for (const auto& [metric, value] : no_memory_kernel.values)
    if (counts_memory_instructions(metric) && value > 0) o.counts.emplace_back(metric, value);
  return o;
}

// Takes `o` out of r's collected values (none goes below 0) and says so in r.derivations["replay_overhead"].
// Nothing to take out: r is left as it is.
inline void take_out_replay_overhead(sol_report& r, const replay_overhead& o, std::string_view mode) {
  std::string what;
  for (const auto& [metric, count] : o.counts) {
    const auto it = r.values.find(metric);
    if (it == r.values.end()) continue;
    it->second = std::max(0.0, it->second - count);
    what += (what.empty() ? "" : ", ") + general(count) + " " + metric;
  }
  if (what.empty()) return;
  r.derivations["replay_overhead"] = std::string(mode) + "'s own counts, read on a kernel that executes no memory " +
                                     "instruction in the same passes, taken out of the collected values: " + what;
}

// The overhead could not be measured (the appended kernel did not fit the ranges, or did not load): the report
// says that the memory-instruction counts may include the mode's own.
inline void replay_overhead_not_measured(sol_report& r, std::string_view mode, std::string_view why) {
  for (const auto& value : r.values)
    if (counts_memory_instructions(value.first)) {
      r.derivations["replay_overhead"] = "not measured (" + std::string(why) + "): the memory-instruction counts may " +
                                         "include " + std::string(mode) + "'s own";
      return;
    }
}

}  // namespace detail
NAPKIN_END_NAMESPACE
