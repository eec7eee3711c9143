// Sample inputs for the picture tests: sol_reports with realistic numbers for an H100 SXM (sample numbers,
// not a measurement): a 4096^3 SGEMM, a softmax over 8192 x 8192 floats before (three passes over the
// input) and after (one pass) a fix, and an element-wise kernel measured with the plain SOL set (no FLOP
// counters). browser_test.py holds the same numbers and computes every expected position from them.
#pragma once

#include <string>
#include <vector>

#include "napkin/cupti/metrics.hpp"
#include "napkin/profiler/sol_report.hpp"

namespace pics_samples {

struct sol_numbers {
  double ns, sm, memory, dram, l1, l2;
};

inline napkin::sol_report report(std::string name, const sol_numbers& n, double dram_bytes) {
  namespace m = napkin::metric;
  napkin::sol_report r;
  r.name = std::move(name);
  r.chip = "GH100";
  r.metric_set = "sol";
  r.passes = 9;
  r.how = napkin::measured_by::kernel_replay;
  r.values = {{m::duration_ns, n.ns},           {m::sm_throughput_pct, n.sm},    {m::memory_throughput_pct, n.memory},
              {m::dram_throughput_pct, n.dram}, {m::l1tex_throughput_pct, n.l1}, {m::l2_throughput_pct, n.l2},
              {m::dram_bytes, dram_bytes}};
  r.cost.enable_s = 0.05;
  r.cost.setup_s = 0.02;
  r.cost.passes_s = 0.1;
  r.cost.decode_s = 0.01;
  return r;
}

// The roofline set: the SOL numbers plus executed FP32 instructions (FLOP = fadd + fmul + 2 x ffma).
inline napkin::sol_report roofline_report(std::string name, const sol_numbers& n, double dram_bytes, double fadd,
                                          double fmul, double ffma) {
  namespace m = napkin::metric;
  napkin::sol_report r = report(std::move(name), n, dram_bytes);
  r.metric_set = "roofline";
  r.passes = 10;
  r.values[m::fadd] = fadd;
  r.values[m::fmul] = fmul;
  r.values[m::ffma] = ffma;
  return r;
}

inline constexpr double softmax_elements = 8192.0 * 8192.0;  // 67,108,864

// 2 x 4096^3 FLOP (+ alpha/beta); tiles of A and B re-read from DRAM: 15 x 64 MiB (10.8% of 3.35 TB/s).
inline napkin::sol_report sgemm(std::string name = "sgemm_128x128_kernel<float, 4096>") {
  return roofline_report(std::move(name), {2780000, 82.5, 45.0, 10.8, 61.0, 38.0}, 1006632960.0, 0, 16777216.0,
                         68736253952.0);
}
// Three passes over the input (max, sum, normalize) and one write: 4 x 256 MiB; 2 fadd + 2 fmul per element.
inline napkin::sol_report softmax_naive(std::string name = "softmax_kernel") {
  return roofline_report(std::move(name), {620000, 24.0, 55.0, 52.0, 40.0, 47.0}, 1073741824.0, 2 * softmax_elements,
                         2 * softmax_elements, 0);
}
// One pass (online softmax): 2 x 256 MiB; 3 fadd + 3 fmul per element.
inline napkin::sol_report softmax_fused(std::string name = "softmax_kernel") {
  return roofline_report(std::move(name), {182000, 36.0, 89.0, 88.0, 52.0, 71.0}, 536870912.0, 3 * softmax_elements,
                         3 * softmax_elements, 0);
}
inline napkin::sol_report add_bias() {
  return report("add_bias<float>", {95000, 18.0, 86.0, 84.4, 30.0, 62.0}, 268435456.0);
}

}  // namespace pics_samples
