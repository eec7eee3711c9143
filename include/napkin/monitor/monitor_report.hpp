// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_report.hpp — the phase monitor's report: per kernel name, per phase (innermost NVTX
// range) and per phase path ("decode/attention"): count, GPU time, the SM / L1 / L2-slices / DRAM
// percentages, DRAM bytes and bandwidth, concurrent time and a verdict; and the device as a whole (sampled
// time, busy time, idle fraction, lost samples). Plain data, so that the reports' writers can serialize it;
// to_text for people (<= 100 columns), to_key_values for scripts. Plain C++17; no CUDA or CUPTI. The code
// that builds a report from attributed totals and the rate solve, make_monitor_report, is in
// monitor/make_monitor_report.hpp: writing, reading or drawing a report does not compile the solve.
//
// The verdict is napkin's SOL table (classify_by_sol_table, napkin/profiler/verdicts.hpp) fed with SM %,
// Memory % = max(DRAM %, L1 %, L2-slices %) and DRAM %. That Memory % is the monitor's reading, not ncu's
// (ncu's takes the max over more units, and its GH100 L2 is the fabric, which PM sampling cannot read).
// DRAM bytes: a row's totals cover only the sampled part of its launches; when some launches were not
// fully sampled (the hardware buffer holds a bounded number of samples) the row is `partial` and the
// comparable figure is DRAM bytes per complete launch (a launch fully inside kept samples). Nothing is
// extrapolated. Communication: the share of a row's GPU time in NCCL/NVSHMEM kernels (system/communication.hpp);
// a row mostly in them is reported as communication. Arithmetic and rules: docs/monitor.md.
//
// Readings are the rate solve's (monitor/rate_solver.hpp): each (kernel name, phase) class's own rates,
// never the mean of the windows it ran in, which is a blend of its neighbours. A row of several classes
// (a kernel under several phases, a phase of several kernels) is their mean weighted by sampled time, with
// the standard errors combined as if independent. A row is resolved only when all its classes are; any
// other row has no readings, no DRAM bytes and no verdict, and its resolution says why. A kernel row whose
// kernel shared the device (ran alongside others for more than 3 % of its time) keeps its readings and has
// no verdict: they are its part of the device, not its own limit.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "napkin/document/report_context.hpp"
#include "napkin/system/communication.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/monitor/monitor_totals.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

// One row: a kernel name, a phase or a phase path, with its sums and what follows from them.
struct monitor_row {
  std::string name;  // "" for kernels launched outside any NVTX range (phase and path rows)
  monitor_totals totals;
  double mean_ns = 0;  // totals.gpu_ns / totals.count
  std::optional<double> sm_pct, l1tex_pct, l2_slices_pct, dram_pct;
  // The most SM % can be (GH100): ncu's SM % is a maximum over inputs of which the one pass samples nine;
  // the rest are bounded by the L1's data-pipe wavefront rates, also sampled. sm_pct is the least it can be
  // (the inputs less what PM sampling counts for each warp launched: rate_solver.hpp, warp_launch_excess), so
  // the true SM % lies in [sm_pct, sm_pct_upper]; sm_pct_range() says whether that is wide enough to print as one.
  std::optional<double> sm_pct_upper;
  std::optional<double> memory_pct;  // max(DRAM, L1, L2 slices): the monitor's, not ncu's Memory %
  std::optional<double> dram_read_bytes, dram_write_bytes;
  std::optional<double> dram_bytes;        // read + write, when both were read over the same time
  std::optional<double> dram_bytes_per_s;  // dram_bytes over the GPU time they were read in
  std::uint64_t complete = 0;              // launches fully inside kept samples (count - incomplete)
  bool partial = false;                    // some launches were not fully sampled: totals cover part of them
  std::optional<double> dram_bytes_per_complete_launch;  // mean over complete launches that read bytes
  time_split split;                                      // GPU time in NCCL/NVSHMEM kernels and in compute
  sol_verdict verdict;
  row_resolution resolution;

  bool communication() const { return split.mostly_communication(); }
  // The share of its measured time (sampled or dropped) that it ran alongside another kernel.
  double concurrent_fraction() const {
    const std::uint64_t measured = totals.sampled_ns + totals.dropped_ns;
    return measured ? static_cast<double>(totals.concurrent_ns) / static_cast<double>(measured) : 0.0;
  }
  // A kernel that shared the device for more than this share of its time gets no verdict: while it shares,
  // its readings are its part of the device, not its own limit (a profiler replays each kernel alone), and a
  // reading is off its own by at most the shared share x 100 points: 3 % of the time, 3 points, the accuracy
  // goal. Phases keep theirs: what a phase ran together is the phase.
  bool shared_device() const { return concurrent_fraction() > concurrent_limit; }
  // SM % is a range rather than a number: its bound is more than sm_range_points above it.
  bool sm_pct_range() const { return sm_pct && sm_pct_upper && *sm_pct_upper > *sm_pct + sm_range_points; }
  static constexpr double sm_range_points = 3.0;  // the monitor's accuracy goal against ncu, in points
  static constexpr double concurrent_limit = sm_range_points / 100.0;  // the goal's points as a share of 100
};

// "SM % between 1.6 and 28.6 (...)": what a row whose SM % is a range says about it, in every rendering.
std::string sm_range_text(const monitor_row& r);

// Which L2 the monitor's L2 % is, for every rendering: the slices, which PM sampling reads.
inline constexpr const char* monitor_l2_figure = "slices";
inline constexpr const char* monitor_l2_explained =
    "L2 slices (lts__throughput), not ncu's GH100 L2 fabric (lts__ltcfabric2ltc, which PM sampling cannot read)";

struct monitor_report {
  int device = 0;
  report_context context;  // device_index set from `device`; name, UUID, rank where the caller knows them
  idle_model idle = idle_model::no_work_when_idle;
  device_totals totals;
  std::optional<double> idle_fraction;                                // totals.idle_ns / totals.sampled_ns
  std::optional<double> idle_sm_pct, idle_dram_pct, idle_dram_bytes;  // what the idle bucket received
  std::vector<monitor_row> kernels, phases, paths;                    // each sorted by GPU time, largest first
  // What the monitor was doing when it made the report (napkin::monitor::status(): "off (NAPKIN_MONITOR is
  // not set to on)", "off: no CUDA device ...", "sampling GH100 ..."); empty for a report read back or built by
  // hand. to_text says it when nothing was sampled, so that an empty report tells off from found nothing.
  std::string status;
  // The system view (system/system_report.hpp): idle time and why, copies, waits, rules, the next kernel to
  // profile; absent when it was not collected.
  std::optional<system_report> system;
};

namespace detail {
bool monitor_over_peak(const std::vector<monitor_row>& rows);
}  // namespace detail

// The monitor's text, then the system view's when the report has one.
std::string to_text(const monitor_report& r);

// One line for the device ("NAPKIN_MONITOR ...") and one per row ("NAPKIN_MONITOR_ROW by=phase|path|kernel
// name=..."); spaces in names become '_', the empty phase is "-"; a reading never taken is left out. Each row
// ends with its resolution (the rate solve's status, windows, standard error, share alone, collinearity).
// With the system view: a "NAPKIN_SYSTEM phase=..." line per phase and the run, "NAPKIN_SYSTEM_FINDING" per
// finding and "NAPKIN_SYSTEM_NEXT" for the next kernel to profile.
std::string to_key_values(const monitor_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/monitor/monitor_report_impl.hpp"
#endif
