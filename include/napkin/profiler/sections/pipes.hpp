// SPDX-License-Identifier: Apache-2.0
// The pipe utilization of ncu's Compute Workload Analysis: each SM pipe's utilization by executed instructions
// and by busy cycles, and the busiest pipe.
//
// "Busiest" follows ncu's HighPipeUtilization rule ("X is the highest-utilized pipeline (Y%) based on elapsed
// cycles in the workload, taking into account the rates of its different instructions"): the highest
// sm__pipe_<name>_cycles_active over elapsed cycles. Pipes that only have an instruction count (XU, LSU, ...)
// are not ranked there, so the busiest pipe by executed instructions is reported beside it (the SFU kernel of
// the zoo: FMA 32 % by cycles, XU 97 % by instructions). Aggregates tie with their parts (Shared = FP64 + tensor,
// Tensor = its sub-pipes): on a tie within 0.05 points napkin names the most specific pipe, whose instructions
// the code controls. Pipe names and meanings: Nsight Compute Kernel Profiling Guide, "Pipelines"
// (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

struct pipe_utilization {
  std::string_view name;   // "fma", as in the metric names
  std::string_view label;  // ncu's label, "FMA"
  std::optional<double> instructions_pct;    // sm__inst_executed_pipe_<name>, % of peak over active cycles
  std::optional<double> cycles_pct;          // sm__pipe_<name>_cycles_active, % of peak over active cycles
  std::optional<double> cycles_elapsed_pct;  // the same over elapsed cycles (what ncu's rule ranks)
};

// Two pipes within this many points count as tied (the aggregate and its only busy part read the same).
inline constexpr double pipe_tie_points = 0.05;
// Below this, ncu says "All compute pipelines are under-utilized" instead of naming one (on the H200 zoo it
// named ALU at 20.4 % and called 19.1 % under-utilized); napkin still names the busiest and says so.
inline constexpr double pipe_underused_pct = 20.0;

struct pipes_section {
  std::vector<pipe_utilization> pipes;  // every pipe the report holds a number for, in ncu's order
  std::vector<std::string> missing;     // metrics the report lacks
  // ncu's busiest: the highest cycles-active utilization over elapsed cycles (the most specific pipe on a tie).
  std::optional<pipe_utilization> busiest() const { return pick(&pipe_utilization::cycles_elapsed_pct); }
  // The busiest by executed instructions over active cycles (covers XU, LSU, ... that have no cycle count).
  std::optional<pipe_utilization> busiest_by_instructions() const {
    return pick(&pipe_utilization::instructions_pct);
  }

 private:
  std::optional<pipe_utilization> pick(std::optional<double> pipe_utilization::*field) const;
  static bool is_part_of(std::string_view part, std::string_view whole);
};

// The section from a report holding the pipe metrics; std::nullopt when it holds none. Bad values are an input error.
std::optional<pipes_section> pipes(const sol_report& r);

// The section for people: each pipe with some use, both views, and the busiest named.
std::string to_text(const pipes_section& s);

// One line for scripts: "NAPKIN_PIPES busiest=fma busiest_pct=... busiest_by_instructions=xu ..." and each
// pipe's numbers ("fma_instructions_pct=", "fma_cycles_pct=", "fma_cycles_elapsed_pct=").
std::string to_key_values(const pipes_section& s);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/pipes_impl.hpp"
#endif
