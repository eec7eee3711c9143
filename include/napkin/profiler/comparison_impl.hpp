// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/comparison.hpp's measurement against napkin math: the function bodies. Included by
// comparison.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "napkin/profiler/comparison.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"
#include "napkin/math/gpu_table.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workload.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC workload_comparison compare(const sol_report& r, const workload& w, const roof& roof) {
  workload_comparison c;
  c.model = estimate(w, roof);
  c.intensity = c.model.intensity;
  c.ridge = c.model.ridge;
  c.expect_compute_bound = c.model.bound == regime::compute_bound;
  c.bound_ns = c.model.lower_bound_seconds() * 1e9;
  if (auto t = r.duration_ns(); t && *t > 0) {
    c.time_over_bound = *t / c.bound_ns;
    c.flops_of_peak = c.model.flops / (*t * 1e-9) / roof.peak_flops;
  }
  if (auto b = r.dram_bytes()) {
    c.traffic_overhead = *b / c.model.bytes;
    if (*c.traffic_overhead > 2.0)
      c.traffic_reading = "more than 2x the minimum traffic: the kernel re-reads data it should reuse (lack of "
                          "tiling) or writes intermediate data that fusing kernels would avoid.";
    else if (*c.traffic_overhead < 0.9)
      c.traffic_reading = "below the minimum: part of the data was served from L2 (a warm cache), or the "
                          "workload model counts bytes the kernel does not need.";
    else
      c.traffic_reading = "within 2x of the minimum traffic: DRAM traffic is not the waste.";
  }
  if (auto bw = r.dram_bytes_per_s()) c.bandwidth_of_peak = *bw / roof.bandwidth;

  const sol_verdict v = r.sol_table();
  std::string s = "intensity " + significant(c.intensity) + " FLOP/B vs ridge " +
                  significant(c.ridge) + " FLOP/B: expected " + std::string(to_string(c.model.bound)) +
                  "; measured " + std::string(describe(v.kind)) + ". ";
  const bool measured_memory = v.kind == bottleneck::memory_bound_dram || v.kind == bottleneck::internal_congestion;
  if (v.kind == bottleneck::not_measured)
    s += "Measure with the sol set to compare regimes.";
  else if (v.kind == bottleneck::passes_disagree)
    s += "No regime to compare: the replay passes disagree.";
  else if (c.expect_compute_bound && measured_memory)
    s += "The algorithm should be compute-bound but the kernel is memory-bound: it moves far more data than it "
         "needs (missing reuse/tiling).";
  else if (!c.expect_compute_bound && v.kind == bottleneck::compute_bound)
    s += "The algorithm should be memory-bound but the kernel is compute-bound: it does work the algorithm does "
         "not need (redundant computation, index math, FP64).";
  else if (v.kind == bottleneck::latency_bound)
    s += "Neither ceiling is reached: the kernel is latency-bound, far below its roofline.";
  else
    s += "Consistent with the napkin math.";
  c.expectation = std::move(s);
  return c;
}

NAPKIN_DETAIL_FUNC workload_comparison compare(const sol_report& r, const workload& w, const gpu_spec& g, pipe p,
                                               sparsity s) {
  return compare(r, w, roof_of(g, p, s));
}

NAPKIN_DETAIL_FUNC workload_comparison compare(const sol_report& r, const workload_model& m) {
  constexpr double counts_end = 18446744073709551616.0;  // 2^64: napkin::workload holds 64-bit counts
  const bool counts_ok = std::isfinite(m.flops) && m.flops >= 0 && m.flops < counts_end &&
                         std::isfinite(m.min_bytes) && m.min_bytes >= 1 && m.min_bytes < counts_end;
  const bool peaks_ok = std::isfinite(m.peak_flops) && m.peak_flops > 0 && std::isfinite(m.peak_bytes_per_s) &&
                        m.peak_bytes_per_s > 0;
  if (!counts_ok || !peaks_ok)
    detail::raise_input_error<std::invalid_argument>(
        "napkin: workload \"" + m.name +
        "\" needs finite flops >= 0 and min_bytes >= 1 (counts below 2^64), and peak FLOP/s and peak bandwidth > 0");
  workload w;
  w.flops = static_cast<std::uint64_t>(std::round(m.flops));
  w.bytes_read = static_cast<std::uint64_t>(std::round(m.min_bytes));
  return compare(r, w, roof{m.peak_flops, m.peak_bytes_per_s});
}

NAPKIN_DETAIL_FUNC workload_model make_workload_model(std::string name, const workload& w, const gpu_spec& g, pipe p,
                                                      sparsity s) {
  return {std::move(name), static_cast<double>(w.flops), static_cast<double>(w.bytes()), peak_flops(g, p, s),
          g.memory_bandwidth};
}

NAPKIN_DETAIL_FUNC std::string to_text(const workload_comparison& c) {
  std::string out = "    Napkin: " + c.expectation + "\n";
  out += "    Roofline lower bound " + duration(c.bound_ns / 1e9);
  if (c.time_over_bound) out += "; measured " + fixed(*c.time_over_bound, 2) + "x the bound";
  out += "\n";
  if (c.traffic_overhead)
    out += "    Traffic overhead " + fixed(*c.traffic_overhead, 2) + "x the minimum bytes: " +
           c.traffic_reading + "\n";
  if (c.bandwidth_of_peak) out += "    Achieved DRAM bandwidth " + percent_of(*c.bandwidth_of_peak) + " of peak";
  if (c.flops_of_peak) out += "; workload FLOP/s " + percent_of(*c.flops_of_peak) + " of peak";
  out += "\n";
  return out;
}

NAPKIN_END_NAMESPACE
