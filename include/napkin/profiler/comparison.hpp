// SPDX-License-Identifier: Apache-2.0
// A measurement against napkin math: the regime the roofline expects against the one measured, the time
// against the roofline's lower bound, the DRAM traffic against the workload's minimum.
//
// One model: the expectation is napkin::estimate (napkin/math/roofline.hpp), the estimate the `napkin` CLI
// prints, with its tie rule (an intensity at or above the ridge is compute-bound) and its peaks, 2:4
// sparsity included. What is computed here is only the measured side (duration, DRAM bytes) over it.
//
//   auto r = prof.measure("softmax", [&] { ... });
//   auto c = napkin::compare(r, napkin::softmax(rows, cols), napkin::find_gpu("h100-sxm"), napkin::pipe::fp32);
//   std::cout << napkin::to_text(c);
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>

#include "napkin/math/gpu_table.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workload.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

struct workload_comparison {
  roofline_estimate model;  // napkin::estimate of the workload on the roof: what the comparison expects
  // The model's numbers, flattened (copies of `model`'s):
  double intensity = 0;               // FLOP / min byte
  double ridge = 0;                   // peak FLOP/s / peak B/s
  bool expect_compute_bound = false;  // intensity >= ridge
  double bound_ns = 0;                // roofline lower bound on time: max(FLOP / peak, bytes / bandwidth)
  std::optional<double> time_over_bound;    // measured duration / bound_ns (>= 1 when the peaks are right)
  std::optional<double> traffic_overhead;   // DRAM bytes / min bytes
  std::optional<double> bandwidth_of_peak;  // achieved DRAM B/s / peak B/s
  std::optional<double> flops_of_peak;      // workload FLOP / duration / peak FLOP/s
  std::string expectation;      // expected vs measured regime, in words
  std::string traffic_reading;  // what the overhead means, in words
};

// A report against workload `w` on the roof `roof` (its peak FLOP/s and bandwidth).
workload_comparison compare(const sol_report& r, const workload& w, const roof& roof);

// A report against workload `w` on GPU `g`'s pipe `p` (dense, or 2:4-sparse where the pipe has it).
workload_comparison compare(const sol_report& r, const workload& w, const gpu_spec& g, pipe p,
                            sparsity s = sparsity::dense);

// ---------------------------------------------------------------------------------------------------
// Generic inputs, for a workload model napkin does not have: the same as
// compare(r, workload{flops, min_bytes}, roof{peak_flops, peak_bytes_per_s}).
struct workload_model {
  std::string name;
  double flops = 0;             // FLOP the algorithm must do (a count: rounded to a whole number)
  double min_bytes = 0;         // bytes it must move at minimum (compulsory traffic; rounded likewise)
  double peak_flops = 0;        // FLOP/s of the unit it should run on (FP32 CUDA cores, tensor cores, ...)
  double peak_bytes_per_s = 0;  // DRAM bandwidth
};

workload_comparison compare(const sol_report& r, const workload_model& m);

// The generic inputs taken from a napkin workload and GPU `g`'s peak on pipe `p`.
workload_model make_workload_model(std::string name, const workload& w, const gpu_spec& g, pipe p,
                                   sparsity s = sparsity::dense);

// ---------------------------------------------------------------------------------------------------
// Rendering: the napkin lines under a report.

std::string to_text(const workload_comparison& c);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/comparison_impl.hpp"
#endif
