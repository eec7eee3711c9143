// SPDX-License-Identifier: Apache-2.0
// Writes the measured runs the CLI tests read (napkin report, napkin roofline RUN.json) into argv[1],
// through the report library, as a measurement would fill them:
//   baseline.json  kernel-reports on h100-sxm: "softmax" 5000 ns, 2.5 MB of DRAM, 1e6 fadd + 1e6 fmul +
//                  2e6 ffma = 6e6 FLOP (add + mul + 2 fma): 2.4 FLOP/B at 1.2 TFLOP/s; "copy" (no FLOP)
//   run.json       the same kernels after a fix: "softmax" 2000 ns, 1.25 MB: 4.8 FLOP/B at 3 TFLOP/s
//   nokey.json     run.json without the GPU key (chip GH100 only)
//   run_a100.json  run.json said to be of a100-sxm-80gb: a baseline about another GPU
//   monitor.json, monitor_baseline.json   monitor-report documents of tests/report/monitor_samples.hpp: load's
//                  SM 20 % (40 % in the baseline, which also has "transpose"); names with <, & and quotes
//   sections.json, sections_worse.json   run.json's softmax with the report sections of
//                  tests/report/section_samples.hpp: L1 hit rate 90 % (80 % in sections_worse.json), 4 sectors
//                  per request, stalls 60 / 30 / 10 (70 / 20 / 10): the sections are made again on reading
//   source_lines.json, source_lines_fixed.json   source-lines documents of tests/report/source_lines_samples.hpp:
//                  strided_sum's line 10 has 980 of its 1000 samples (180 of 200 after the fix)
#include <fstream>
#include <iostream>
#include <string>

#include "napkin/profiler/sol_report.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/report/profiler_documents.hpp"
#include "napkin/report/source_lines_documents.hpp"
#include "report/monitor_samples.hpp"
#include "report/section_samples.hpp"
#include "report/source_lines_samples.hpp"

namespace {

napkin::sol_report kernel(std::string name, double ns, double dram_bytes, bool flops) {
  namespace m = napkin::metric;
  napkin::sol_report r;
  r.name = std::move(name);
  r.chip = "GH100";
  r.metric_set = "roofline";
  r.passes = 4;
  r.how = napkin::measured_by::kernel_replay;
  r.values = {{m::duration_ns, ns},          {m::sm_throughput_pct, 30.0},   {m::memory_throughput_pct, 85.0},
              {m::dram_throughput_pct, 80.0}, {m::l1tex_throughput_pct, 40.0}, {m::l2_throughput_pct, 50.0},
              {m::dram_bytes, dram_bytes}};
  if (flops) r.values.insert({{m::fadd, 1e6}, {m::fmul, 1e6}, {m::ffma, 2e6}});
  r.cost = {0.0, 0.25, 0.5, 0.0, 0.125, 0.375, 0.0625};
  return r;
}

bool write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_runs OUTDIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  napkin::document_options on_h100;
  on_h100.gpu.key = "h100-sxm";
  on_h100.gpu.name = "H100 SXM5 80GB";
  napkin::document_options on_a100;
  on_a100.gpu.key = "a100-sxm-80gb";
  napkin::kernel_reports baseline, run;
  baseline.kernels = {kernel("softmax", 5000, 2.5e6, true), kernel("copy", 1000, 2e6, false)};
  run.kernels = {kernel("softmax", 2000, 1.25e6, true), kernel("copy", 1000, 2e6, false)};
  const bool ok = write(dir + "/baseline.json", napkin::to_json(baseline, on_h100)) &&
                  write(dir + "/run.json", napkin::to_json(run, on_h100)) && write(dir + "/nokey.json", napkin::to_json(run)) &&
                  write(dir + "/run_a100.json", napkin::to_json(run, on_a100)) &&
                  write(dir + "/monitor.json", napkin::to_json(monitor_samples::report(20))) &&
                  write(dir + "/monitor_baseline.json", napkin::to_json(monitor_samples::report(40, true)));
  napkin::kernel_reports sectioned, worse;
  sectioned.kernels = {section_samples::with_metrics(kernel("softmax", 2000, 1.25e6, true), 90, 400, 100, 60, 30, 10)};
  worse.kernels = {section_samples::with_metrics(kernel("softmax", 2000, 1.25e6, true), 80, 400, 100, 70, 20, 10)};
  const bool sections_ok =
      write(dir + "/sections.json", napkin::to_json(sectioned, on_h100, section_samples::makers())) &&
      write(dir + "/sections_worse.json", napkin::to_json(worse, on_h100, section_samples::makers()));
  const bool lines_ok = write(dir + "/source_lines.json", napkin::to_json(source_lines_samples::report())) &&
                        write(dir + "/source_lines_fixed.json", napkin::to_json(source_lines_samples::fixed()));
  if (!ok || !sections_ok || !lines_ok) std::cerr << "make_runs: cannot write to " << dir << "\n";
  return ok && sections_ok && lines_ok ? 0 : 1;
}
