// A phase monitor's report from synthetic windows (sample numbers, not a measurement), for the monitor page's
// tests: the host test (monitor_page_test.cpp), the browser test's page (browser/write_samples.cpp) and the
// CLI's monitor documents (tests/cli/make_runs.cpp). Every expected number is hand arithmetic on these windows:
//   [0,1000)     SM load_sm DRAM 80 L1 30 L2s 40, 600 + 400 B:  `load<"a"&b>` in decode / attn <x>
//   [1000,2000)  SM 75 DRAM 10 L1 20 L2s 15, 100 + 100 B:       "gemm" in decode
//   [2000,3000)  no reading at all:                             "bare", outside any range
//   `load<"a"&b>` again at [3000,4000), after the last window: never sampled, so its rows are partial.
// With `transpose`, a fourth window [5000,6000) (SM 30 DRAM 70 L1 20 L2s 30, 500 + 500 B) holds "transpose"
// in decode: a row only a baseline has.
#pragma once

#include <vector>

#include "monitor/helpers.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_report.hpp"

namespace monitor_samples {

inline const char* const load_name = "load<\"a\"&b>";
inline const char* const inner_phase = "attn <x>";

inline napkin::monitor_report report(double load_sm = 20, bool transpose = false) {
  using monitor_test::kernel;
  using monitor_test::sample;
  napkin::pm_sample bare;
  bare.start_ns = 2000;
  bare.end_ns = 3000;
  std::vector<napkin::pm_sample> samples = {sample(0, 1000, load_sm, 80, 30, 40, 600, 400),
                                            sample(1000, 2000, 75, 10, 20, 15, 100, 100), bare};
  std::vector<napkin::kernel_record> k = {kernel(load_name, 0, 1000, {"decode", inner_phase}),
                                          kernel("gemm", 1000, 2000, {"decode"}), kernel("bare", 2000, 3000),
                                          kernel(load_name, 3000, 4000, {"decode", inner_phase})};
  if (transpose) {
    samples.push_back(sample(5000, 6000, 30, 70, 20, 30, 500, 500));
    k.push_back(kernel("transpose", 5000, 6000, {"decode"}));
  }
  napkin::monitor_report r =
      napkin::make_monitor_report(k, napkin::attribute(samples, k, {}, monitor_test::keep_first()), 1);
  r.context.device_name = "NVIDIA H200 <sample>";
  r.context.device_uuid = "GPU-00000000-1111-2222-3333-444444444444";
  return r;
}

}  // namespace monitor_samples
