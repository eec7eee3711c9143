// SPDX-License-Identifier: Apache-2.0
// napkin report RUN.json [--baseline OLD.json] -o report.html: one self-contained HTML page of a measured
// run (napkin/report/html_page.hpp): the kernels table, SOL bars, verdicts, the roofline, the baseline's
// changes. --format json or csv: the run's kernels as a kernel-reports document or table.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "charts.hpp"
#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct report_args {
  std::string run, baseline, gpu = "h100-sxm", title, output;
  CLI::Option* gpu_option = nullptr;
};

runner setup_report(CLI::App& sub) {
  auto a = std::make_shared<report_args>();
  sub.add_option("RUN", a->run, "a measured run's JSON (kernel-reports, phase-reports,\nsol-report or comparison)")
      ->type_name("FILE");
  sub.add_option("--baseline", a->baseline, "an earlier run: each kernel's change")->type_name("FILE");
  a->gpu_option = sub.add_option("--gpu", a->gpu, "GPU for the roofline (default: the run's GPU key)")->type_name("GPU");
  sub.add_option("--title", a->title, "the page's title")->type_name("TEXT");
  sub.add_option("-o,--output", a->output, "write to FILE instead of standard output")->type_name("FILE");
  sub.footer("The page needs no network to open. The roofline is there when the GPU is known\n"
             "(--gpu or the run's key) and a kernel has FLOP counts. --format text (default)\n"
             "writes the HTML; json and csv the run's kernels.");
  return [a]() -> answer {
    if (a->run.empty()) throw usage_error("report expects a RUN.json");
    const measured_run run = read_run(a->run);
    std::optional<measured_run> base;
    if (!a->baseline.empty()) base = read_run(a->baseline);
    report_answer out;
    out.run = run.run;
    out.output = a->output;
    out.page.title = a->title.empty() ? "napkin report: " + run.file : a->title;
    out.page.gpu = !run.gpu.name.empty() ? run.gpu.name : run.gpu.key;
    out.page.kernels = run.run.kernels;
    if (base) out.page.baseline = base->run.kernels;
    if (a->gpu_option->count() == 0 && run.gpu.key.empty()) {
      out.notes.push_back("no roofline: " + run.file + " names no GPU key; give --gpu for one");
      return out;
    }
    const chart_gpu_choice g = chart_gpu(a->gpu, a->gpu_option->count() > 0, &run);
    out.gpu = g.gpu;
    napkin::roofline_chart chart = napkin::make_roofline_chart(g.gpu.spec, "Roofline: " + g.gpu.label);
    const auto after = add_run_points(chart, run, "", out.notes);
    if (base) join_pairs(chart, *base, add_run_points(chart, *base, " (baseline)", out.notes), run, after);
    if (!chart.points.empty()) out.page.roofline = std::move(chart);
    return out;
  };
}

const registrar report{{"report", "one self-contained HTML page of a measured run (and its baseline)", setup_report}};

}  // namespace
