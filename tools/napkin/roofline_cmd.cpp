// SPDX-License-Identifier: Apache-2.0
// napkin roofline: a roofline chart (SVG) of one GPU with napkin estimates and/or measured kernels.
//   napkin roofline --gpu h100 --workload "gemm 4096 4096 4096 --dtype fp16" --workload "softmax 32000 16384"
//   napkin roofline run.json baseline.json -o chart.svg
// --format json, csv or markdown: the chart's numbers instead of the picture.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "charts.hpp"
#include "command.hpp"
#include "options.hpp"
#include "run_files.hpp"

namespace {

using namespace napkin::cli;

struct roofline_args {
  std::string run, baseline, gpu = "h100-sxm", title, output;
  std::vector<std::string> workloads;
  CLI::Option* gpu_option = nullptr;
};

runner setup_roofline(CLI::App& sub) {
  auto a = std::make_shared<roofline_args>();
  sub.add_option("RUN", a->run, "a measured run's JSON (kernel-reports, phase-reports,\nsol-report or comparison), ncu's raw CSV\nor nvbench's JSON")
      ->type_name("FILE");
  sub.add_option("BASELINE", a->baseline, "an earlier run: arrows from its kernels to the run's")->type_name("FILE");
  sub.add_option("--workload", a->workloads,
                 "a napkin estimate to plot: a workload command as typed\nafter `napkin`, e.g. \"gemm 4096 4096 4096"
                 "\n--dtype fp16\" (repeat for more; a sweep: a point per size)")
      ->type_name("LINE");
  a->gpu_option = sub.add_option("--gpu", a->gpu,
                                 "GPU key, alias, local or FILE.json (default: the run's\nGPU, else h100-sxm)")
                      ->type_name("GPU");
  sub.add_option("--title", a->title, "the chart's title")->type_name("TEXT");
  sub.add_option("-o,--output", a->output, "write to FILE instead of standard output")->type_name("FILE");
  sub.footer("Ceilings: every pipe the GPU has a peak for, and DRAM. Measured points need\n"
             "executed FLOP counts (napkin::metric_sets::roofline()); kernels without them\n"
             "are left out with a note. --format text (default) writes the SVG; json, csv\n"
             "and markdown the chart's numbers.");
  return [a]() -> answer {
    if (a->run.empty() && a->workloads.empty())
      throw usage_error("roofline needs a RUN.json, or --workload \"gemm 4096 4096 4096\" for an estimate");
    std::optional<napkin::measured_run> run, base;
    std::vector<std::string> ncu_notes;  // what an ncu CSV or nvbench JSON import left out
    if (!a->run.empty()) run = read_measured_run(a->run, &ncu_notes);
    if (!a->baseline.empty()) base = read_measured_run(a->baseline, &ncu_notes);
    const chart_gpu_choice g = chart_gpu(a->gpu, a->gpu_option->count() > 0, run ? &*run : nullptr);
    roofline_answer out{{}, g.gpu, a->output, std::move(ncu_notes)};
    out.chart = napkin::make_roofline_chart(g.gpu.spec, a->title.empty() ? "Roofline: " + g.gpu.label : a->title);
    for (const std::string& line : a->workloads) {
      const workload_answer w = run_workload_line(line, g.typed);
      for (const workload_case& c : w.cases)
        napkin::add_estimate(out.chart, w.cases.size() == 1 ? line : c.title, *c.e);
    }
    if (run) {
      const auto after = add_run_points(out.chart, *run, "", out.notes);
      if (base) join_pairs(out.chart, *base, add_run_points(out.chart, *base, " (baseline)", out.notes), *run, after);
    }
    if (out.chart.points.empty()) {  // say what each file lacked, not only that nothing is left
      std::string why = "nothing to plot: no estimate and no kernel with executed FLOP, DRAM bytes and a duration";
      for (const std::string& n : out.notes) why += "\n" + n;
      throw usage_error(why);
    }
    return out;
  };
}

const registrar roofline{{"roofline", "a roofline chart (SVG) of estimates and measured kernels", setup_roofline}};

}  // namespace
