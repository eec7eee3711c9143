// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/rate_solution.hpp — what the rate solve gives each kernel class (rate_metric, class_rate,
// rate_solution), the solver's options, and what PM sampling's instruction counts owe to warp launches
// (warp_launch_excess). The solver itself: rate_solver.hpp. Plain C++17; no CUDA or CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "napkin/monitor/rate_status.hpp"

NAPKIN_BEGIN_NAMESPACE

// What the solver gives a class, in this order: SM, L1, L2-slices, DRAM (percent), DRAM read and write bytes per ns
// of the window, and the most SM % can be (sm_upper_pct: the larger of the solved SM % inputs and, where the windows
// carried them, the solved L1 wavefront rates, which bound the inputs the pass lacks; docs/monitor.md, "SM % as a
// range"; set only where it is more than SM %, the least it can be: with wavefronts, or where warp launches
// lowered the inputs). Where the inputs were sampled, SM % is the inputs less what PM sampling counts for each
// warp launched (warp_launch_excess).
enum class rate_metric {
  sm_pct,
  l1tex_pct,
  l2_slices_pct,
  dram_pct,
  dram_read_bytes_per_ns,
  dram_write_bytes_per_ns,
  sm_upper_pct
};
inline constexpr std::size_t rate_metric_count = 7;
inline constexpr std::size_t rate_pct_metrics = 4;  // the first four, which decide resolution

struct rate_solver_options {
  std::size_t max_classes = 48;         // classes with their own column; the rest share one
  double max_standard_error_pct = 1.5;  // points, on every percentage: 2 standard errors within 3 points
  double max_collinearity = 100.0;      // variance inflation: 100 is R^2 = 0.99 against the others
  std::uint64_t min_windows = 3;        // unless alone in every window it ran in
  // The device's SM count (0: unknown, and SM % is not lowered by warp_launch_excess); make_rate_solver sets it
  // from attribution_options::sm_count.
  std::uint64_t sm_count = 0;
};

// What PM sampling's instruction counters count beyond ncu's sm__inst_executed for each warp a kernel launches, at
// most, in the kernels measured on GH100 (an H200: benchmarks/device/pm_warp_launch_probe.cu, empty and ALU-loop
// kernels of 1-32 warps a block, and the monitor workload's copy and naive transpose with pm_inputs_check.py;
// docs/monitor.md, "The instruction rate and warp launches"). The excess is per warp, not per block, and lies
// between 2.3 and 8.2 instructions by kernel, so a kernel of many short warps (a copy's ~40 instructions a warp)
// reads its instruction rate up to ~20 % high, and one of long warps reads ncu's. The other inputs read ncu's.
struct warp_launch_excess {
  static constexpr double instructions = 8.2;  // against the instruction rate's peak of 4 a cycle per SM
  static constexpr double alu_pipe = 4.0;      // against the ALU pipe's peak of 2 a cycle per SM
};

// One class's solution: its readings (nullopt when not resolved, never a blend) and how well resolved.
struct class_rate {
  std::string name;
  std::vector<std::string> phase;
  rate_status status = rate_status::not_sampled;
  std::string reason;
  std::uint64_t windows = 0;           // kept windows it ran in
  std::uint64_t sampled_ns = 0;        // its time in them
  std::optional<double> solo_share;    // of sampled_ns, in windows it had alone
  std::optional<double> collinearity;  // the largest over the percentages; 1: independent of the others
  std::array<std::optional<double>, rate_metric_count> value{}, standard_error{};
  // Where the windows carried SM % inputs (pm_sample::sm_inputs): the one whose solved rate is the class's SM %
  // (an index into sm_input_names). SM % is their maximum, as the sampled SM % is in each window.
  std::optional<std::size_t> sm_lead_input;
};

struct rate_solution {
  std::vector<class_rate> classes;  // in the order the classes were first seen
  std::uint64_t windows = 0;        // windows in the fit
  std::uint64_t blended_classes = 0;
  std::optional<double> idle_value_sm_pct;  // time_share only: the solved idle SM %

  const class_rate* find(const std::string& name, const std::vector<std::string>& phase) const {
    for (const class_rate& c : classes)
      if (c.name == name && c.phase == phase) return &c;
    return nullptr;
  }
};

NAPKIN_END_NAMESPACE
