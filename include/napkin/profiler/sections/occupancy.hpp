// SPDX-License-Identifier: Apache-2.0
// The Occupancy section: the warps a kernel kept resident (achieved occupancy, measured) next to the warps
// its launch allows (theoretical occupancy, napkin's calculator fed by the launch CUPTI recorded), and the
// gap between them explained with numbers.
//
//   theoretical   blocks per SM by each resource and the limiter(s), as Nsight Compute's Occupancy section
//                 and cudaOccupancyMaxActiveBlocksPerMultiprocessor compute them (napkin/occupancy/), with
//                 the shared memory per SM the driver configured for the launch (ncu's "Shared Memory
//                 Configuration Size"); the 1 KiB the driver reserves per block from CC 8.0 is counted
//   waves         grid blocks / (blocks per SM x SMs), ncu's "Waves Per SM"
//   wave bound    the occupancy the grid's waves allow on average over the SMs' active cycles, when every
//                 block runs as long as the others: under one wave, the blocks an active SM gets (grid / SMs,
//                 at least 1); over one, the theoretical occupancy x waves / (waves rounded up), the last,
//                 partial wave holding only its share of the slots (the tail effect)
//   achieved      sm__warps_active.avg.pct_of_peak_sustained_active (and .per_cycle_active, warps per SM):
//                 resident warps per active cycle, as a share of the SM's warp slots
//
// The gap theoretical - achieved splits into what the waves cost (theoretical - wave bound: too few blocks,
// or a partial last wave) and what is lost inside them (wave bound - achieved: warps and blocks that finish
// at different times, work spread unevenly over warps, blocks and SMs). Sources: NVIDIA's CUDA C++ Best
// Practices Guide (Occupancy; Calculating Occupancy) and Nsight Compute's Kernel Profiling Guide (Occupancy;
// Launch Statistics: waves per SM; the AchievedOccupancy rule). docs/occupancy.md, "Achieved against
// theoretical occupancy", checks the numbers against ncu's on an H200.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/occupancy/calculator.hpp"
#include "napkin/occupancy/next_step.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

// The metrics the section reads (ncu's Occupancy section collects them under these names).
namespace occupancy_metrics {
inline constexpr const char* achieved_pct = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* achieved_warps = "sm__warps_active.avg.per_cycle_active";
}  // namespace occupancy_metrics

// What costs the most of the gap between theoretical and achieved occupancy.
enum class occupancy_gap {
  none,               // achieved within occupancy_gap_floor_pct points of theoretical
  too_few_blocks,     // the grid fills less than one wave: SMs hold fewer blocks than they could
  partial_last_wave,  // the tail effect: the last wave holds only part of the slots
  uneven_warps,       // inside the waves: warps and blocks finish at different times, uneven work
};
inline constexpr std::array<occupancy_gap, 4> all_occupancy_gaps{occupancy_gap::none, occupancy_gap::too_few_blocks,
                                                                 occupancy_gap::partial_last_wave,
                                                                 occupancy_gap::uneven_warps};

constexpr std::string_view to_string(occupancy_gap g) noexcept {
  switch (g) {
    case occupancy_gap::none: return "none";
    case occupancy_gap::too_few_blocks: return "too_few_blocks";
    case occupancy_gap::partial_last_wave: return "partial_last_wave";
    case occupancy_gap::uneven_warps: return "uneven_warps";
  }
  return "unknown";
}
constexpr std::string_view describe(occupancy_gap g) noexcept {
  switch (g) {
    case occupancy_gap::none: return "achieved is close to theoretical";
    case occupancy_gap::too_few_blocks: return "too few blocks to fill the GPU";
    case occupancy_gap::partial_last_wave: return "partial last wave (tail effect)";
    case occupancy_gap::uneven_warps: return "warps finish at different times (imbalance)";
  }
  return "unknown";
}

// Gaps below this many points of the SM's warp slots are not explained: ncu's AchievedOccupancy rule did not
// fire below 18 points on the zoo kernels (H200), and gaps up to ~10 points came from scheduling alone on
// kernels of one full wave.
inline constexpr double occupancy_gap_floor_pct = 10.0;

struct occupancy_section {
  std::string kernel;
  kernel_launch launch;
  // napkin's calculator for the launch: blocks per SM by each resource, the limiter(s), the warps.
  occupancy_result theoretical{};
  occupancy_advice next{};  // what reaches the next level (registers, shared memory, carveout, block size)
  double theoretical_pct = 0;
  int sm_count = 0;
  double waves_per_sm = 0;
  double wave_bound_pct = 0;  // what the waves allow (see the header)
  double wave_bound_warps = 0;
  double achieved_pct = 0;
  double achieved_warps = 0;  // per SM, per active cycle
  occupancy_gap gap = occupancy_gap::none;
  std::string explanation;      // the gap in words, with its numbers
  std::vector<std::string> notes;  // assumptions (block barriers, the carveout) the numbers rest on

  double max_warps_per_sm() const { return theoretical.max_warps_per_sm; }
  double theoretical_warps() const { return theoretical.active_warps(); }
  double points_lost_to_waves() const { return theoretical_pct - wave_bound_pct; }
  double points_lost_inside_waves() const { return wave_bound_pct - achieved_pct; }
};

// The section for a launch on an SM with `limits` (limits.sm_count: the device's SMs, else launch.sm_count),
// and the achieved occupancy measured: percent of the SM's warp slots, and warps per SM (NaN: derived from
// the percentage). Bad input (no block or grid, an unknown compute capability, a launch that cannot run, a
// non-finite or out-of-range achieved value) is napkin's input error.
occupancy_section make_occupancy_section(const std::string& kernel, const kernel_launch& launch,
                                         const sm_limits& limits, double achieved_pct, double achieved_warps = NAN);

// The section of a measured kernel: its launch (sol_report::launch) on the limits napkin's table has for
// its compute capability, and the achieved occupancy the report collected (occupancy_metrics). None when the
// report has no launch (measure() over several kernels, no activity records) or no achieved occupancy (a set
// without those metrics); bad values are napkin's input error, as above.
std::optional<occupancy_section> occupancy(const sol_report& r);

// The section as a person reads it: achieved next to theoretical, the limits, the waves, the gap and the next
// step.
std::string to_text(const occupancy_section& s);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/occupancy_impl.hpp"
#endif
