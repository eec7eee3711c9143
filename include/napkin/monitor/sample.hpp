// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/sample.hpp — what the phase monitor records: decoded PM-sampling windows (device-wide
// counter values over a stretch of time), windows whose samples were lost, and kernel launches with the
// NVTX phase that launched them. Plain C++17 value types and their validation; no CUDA or CUPTI needed.
//
// Every time is on one clock: CUPTI's timestamp (cuptiGetTimestamp, nanoseconds), which is what PM
// sampling's sample info (CUpti_PmSampling_CounterData_GetSampleInfo_Params::startTimestamp/endTimestamp)
// and CUPTI's kernel activity records (start/end) both report. A window is the half-open [start_ns, end_ns).
// Rules and arithmetic: docs/monitor.md.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

// One decoded PM-sampling window. Each reading is the device-wide value over the whole window; a reading
// the sample did not carry is std::nullopt (never 0: "not measured" and "idle" must not look alike).
struct pm_sample {
  std::uint64_t start_ns = 0;  // CUPTI timestamp clock
  std::uint64_t end_ns = 0;    // after start_ns
  // TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> sm_pct;
  // SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> l1tex_pct;
  // LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed: the L2 *slices* (LTS). On GH100
  // ncu's L2 figure in SpeedOfLight is the L2 fabric (lts__ltcfabric2ltc...), which PM sampling cannot
  // collect; the slices read lower (50.7 % against ncu's 92.4 % on a copy kernel, issue 17's H200 probe),
  // so this is named for what it measures and never printed as ncu's "L2".
  std::optional<double> l2_slices_pct;
  // dram__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> dram_pct;
  // dram__bytes_read.sum / dram__bytes_write.sum over the window (bytes)
  std::optional<double> dram_read_bytes;
  std::optional<double> dram_write_bytes;
  // gpc__cycles_elapsed.max: the GPU clocks the window spans. Not a reading for the reports: it places
  // samples CUPTI returned without a usable time (sample_timeline.hpp).
  std::optional<double> elapsed_cycles;
  // Inputs of ncu's SM %, each a counter over elapsed cycles and so additive over time, in sm_input_names'
  // order (percent of peak): sampled where the chip's set has them (GH100), else missing. The first eight are
  // what the sampled sm_pct is the maximum of; the ninth, the LSU pipe's instruction rate, is one ncu's SM %
  // takes and the sampled one does not. The rate solve solves each and takes a kernel's maximum (docs/monitor.md,
  // "SM % from its inputs", "The LSU pipe").
  std::array<std::optional<double>, 9> sm_inputs{};
  // TPC.TriageCompute.sm__cycles_active (percent): tells a window whose SM counters dropped out.
  std::optional<double> sm_active_pct;
  // The L1's LSU and TEX data-pipe wavefront rates (SM_A.TriageCompute.l1tex__data_pipe_{lsu,tex}_wavefronts,
  // percent of peak), where the chip's set has them (GH100). Not SM % inputs: their larger bounds the inputs of
  // ncu's SM % that the pass lacks (LSU and TEX instruction issue, the MIO queues, write-back), each an
  // instruction the L1 then works on as at least one wavefront (docs/monitor.md, "Which SM % inputs the pass
  // lacks, and a bound on them").
  std::array<std::optional<double>, 2> l1_wavefronts{};

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
  // Did the GPU work in the window (any process)? An SM or DRAM reading above 1 %: an idle GPU reads ~0.
  bool busy() const noexcept {
    const auto above = [](const std::optional<double>& v) { return v && *v > 1.0; };
    return above(sm_active_pct) || above(sm_pct) || above(dram_pct);
  }
};

// A stretch of time whose samples were lost (the hardware buffer was drained too late, or the first
// sample of a session, which spans the setup). Nothing is attributed in it; a kernel that touches one is
// marked incomplete.
inline constexpr std::size_t sm_input_count = 9;
// What each of pm_sample::sm_inputs counts, for people (the metrics: napkin/monitor/pm_sampler.hpp).
inline constexpr std::array<const char*, sm_input_count> sm_input_names = {
    "instructions", "ALU pipe",    "FMA pipe", "FMA-heavy pipe", "FP64 pipe",
    "tensor pipe",  "uniform pipe", "XU pipe",  "LSU pipe"};

inline constexpr std::size_t l1_wavefront_count = 2;  // pm_sample::l1_wavefronts: LSU, TEX

struct dropped_window {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;   // after start_ns
  std::uint64_t samples = 1;  // how many samples the window stands for (at least 1)
};

// One kernel execution, from CUPTI's kernel activity record, with the NVTX range stack of the launching
// thread at launch time.
struct kernel_record {
  std::string name;
  std::uint64_t start_ns = 0;  // CUPTI timestamp clock
  std::uint64_t end_ns = 0;    // at or after start_ns
  int device = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::vector<std::string> phase;  // NVTX range names, outermost first; empty: launched outside any range
  std::uint64_t blocks = 0;        // thread blocks in its grid (0: unknown); tells a kernel that fills the SMs
  std::uint64_t warps = 0;         // warps in its grid (0: unknown); what PM sampling's instruction counts
                                   // owe to warp launches (rate_solver.hpp, warp_launch_excess)

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

// The phase a kernel is reported under: the innermost range ("" outside any range).
inline std::string innermost_phase(const std::vector<std::string>& phase) {
  return phase.empty() ? std::string() : phase.back();
}

// The full range path, outermost first: {"decode", "attention"} -> "decode/attention" ("" when empty).
inline std::string phase_path(const std::vector<std::string>& phase) {
  std::string path;
  for (const std::string& p : phase) {
    if (!path.empty()) path += '/';
    path += p;
  }
  return path;
}

namespace detail {

NAPKIN_DETAIL_COLD inline void monitor_bad_window(const char* what, std::size_t index, const std::string& problem) {
  raise_input_error<std::invalid_argument>("napkin: monitor " + std::string(what) + " " + std::to_string(index) + ": " +
                                           problem);
}

inline void check_reading(const std::optional<double>& v, const char* name, std::size_t index) {
  if (v && !(std::isfinite(*v) && *v >= 0.0))  // also refuses NaN
    monitor_bad_window("sample", index, std::string(name) + " must be finite and >= 0, got " + general(*v));
}

}  // namespace detail

// Refuses a sample with end_ns <= start_ns or a reading that is NaN, infinite or negative. `index` names
// the sample in the message. A percentage above 100 is accepted: pct_of_peak_sustained can exceed it.
inline void check_sample(const pm_sample& s, std::size_t index = 0) {
  if (s.end_ns <= s.start_ns)
    detail::monitor_bad_window(
        "sample", index,
        "end_ns (" + std::to_string(s.end_ns) + ") must be after start_ns (" + std::to_string(s.start_ns) + ")");
  detail::check_reading(s.sm_pct, "sm_pct", index);
  detail::check_reading(s.l1tex_pct, "l1tex_pct", index);
  detail::check_reading(s.l2_slices_pct, "l2_slices_pct", index);
  detail::check_reading(s.dram_pct, "dram_pct", index);
  detail::check_reading(s.dram_read_bytes, "dram_read_bytes", index);
  detail::check_reading(s.dram_write_bytes, "dram_write_bytes", index);
  detail::check_reading(s.elapsed_cycles, "elapsed_cycles", index);
  for (const auto& v : s.sm_inputs) detail::check_reading(v, "sm_inputs", index);
  for (const auto& v : s.l1_wavefronts) detail::check_reading(v, "l1_wavefronts", index);
  detail::check_reading(s.sm_active_pct, "sm_active_pct", index);
}

inline void check_dropped_window(const dropped_window& d, std::size_t index = 0) {
  if (d.end_ns <= d.start_ns)
    detail::monitor_bad_window(
        "dropped window", index,
        "end_ns (" + std::to_string(d.end_ns) + ") must be after start_ns (" + std::to_string(d.start_ns) + ")");
  if (d.samples == 0) detail::monitor_bad_window("dropped window", index, "must stand for at least one sample");
}

// Refuses a kernel that ends before it starts, or without a name.
inline void check_kernel_record(const kernel_record& k, std::size_t index = 0) {
  if (k.end_ns < k.start_ns)
    detail::monitor_bad_window("kernel", index,
                               "\"" + k.name + "\" ends (" + std::to_string(k.end_ns) + ") before it starts (" +
                                   std::to_string(k.start_ns) + ")");
  if (k.name.empty()) detail::monitor_bad_window("kernel", index, "has no name");
}

// Checks every sample, and that they are in time order without overlap (each starts at or after the
// previous one's end).
inline void check_samples(const std::vector<pm_sample>& samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    check_sample(samples[i], i);
    if (i > 0 && samples[i].start_ns < samples[i - 1].end_ns)
      detail::monitor_bad_window("sample", i,
                                 "starts at " + std::to_string(samples[i].start_ns) +
                                     ", before the previous sample ends (" + std::to_string(samples[i - 1].end_ns) +
                                     "): samples must be in time order and must not overlap");
  }
}

// The first sample of a PM-sampling session spans the session's setup (issue 17's probe): its readings
// are not the work's. Returns it as a dropped window and removes it from `samples` (nothing when empty).
inline std::optional<dropped_window> drop_setup_sample(std::vector<pm_sample>& samples) {
  if (samples.empty()) return std::nullopt;
  const dropped_window d{samples.front().start_ns, samples.front().end_ns, 1};
  samples.erase(samples.begin());
  return d;
}

NAPKIN_END_NAMESPACE
