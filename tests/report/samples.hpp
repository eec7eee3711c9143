// Reports the report tests serialize, compare and validate: realistic measurements (numbers of the
// shape an H100 gives, docs/profiler.md) and edge cases (missing metrics, passes that disagree, names
// with quotes, newlines and non-ASCII text). Built by hand, as a measurement would fill them.
#pragma once

#include <string>

#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/profiler/sol_report.hpp"

namespace samples {

// A full SOL-set measurement: SM 30 %, Memory 85 %, DRAM 80 % (memory-bound (DRAM) by the SOL table).
inline napkin::sol_report sol(std::string name, double duration_ns, double dram_pct = 80.0) {
  namespace m = napkin::metric;
  napkin::sol_report r;
  r.name = std::move(name);
  r.chip = "GH100";
  r.metric_set = "sol";
  r.passes = 9;
  r.how = napkin::measured_by::kernel_replay;
  r.values = {{m::duration_ns, duration_ns},     {m::sm_throughput_pct, 30.0},  {m::memory_throughput_pct, 85.0},
              {m::dram_throughput_pct, dram_pct}, {m::l1tex_throughput_pct, 40.0}, {m::l2_throughput_pct, 50.0},
              {m::elapsed_cycles, 1980.0},        {m::sm_active_cycles, 1900.0}, {m::sm_frequency_hz, 1.98e9},
              {m::dram_frequency_hz, 2.619e9},    {m::dram_bytes, 2.5e6}};
  r.cost = {0.0, 0.25, 0.5, 0.0, 0.125, 0.375, 0.0625};
  return r;
}

// The one-pass set: no SM % / Memory %, so no verdict.
inline napkin::sol_report one_pass(std::string name) {
  napkin::sol_report r;
  r.name = std::move(name);
  r.chip = "GH100";
  r.metric_set = "one-pass";
  r.passes = 1;
  r.how = napkin::measured_by::scope;
  r.values = {{napkin::metric::duration_ns, 2000.0}, {napkin::metric::dram_bytes, 1e6}};
  return r;
}

// measure() whose passes disagree (the first cuBLAS call of a process).
inline napkin::sol_report disagreeing(std::string name) {
  napkin::sol_report r = sol(std::move(name), 1.4e8);
  r.how = napkin::measured_by::user_range;
  r.pass_samples = {{1.4e8, 3}, {2.8e6, 3}};
  r.passes_disagree = napkin::find_pass_disagreement(r.pass_samples);
  return r;
}

// A GPU with round numbers: FP32 10 TFLOP/s, 1 TB/s (ridge 10 FLOP/B).
inline constexpr napkin::gpu_spec round_gpu{"round-gpu", "Round GPU", 9, 0, 100, 1500, 1e12, 50 * napkin::MB,
                                            napkin::make_peaks({{napkin::pipe::fp32, 1e13}}), "hand-made for tests"};

}  // namespace samples
