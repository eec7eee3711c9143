// SPDX-License-Identifier: Apache-2.0
// napkin report RUN.json [--baseline OLD.json] -o report.html: one self-contained HTML page, picked by the
// document's kind. A measured run (kernel-reports, phase-reports, sol-report, comparison): the run page
// (napkin/report/html_page.hpp): the kernels table, SOL bars, verdicts, the roofline, the baseline's changes;
// --format json or csv: the run's kernels as a kernel-reports document or table (markdown: that table, then
// the comparison with --baseline). A phase monitor's report (monitor-report): the monitor page
// (napkin/report/monitor_page.hpp); json, csv and markdown: the monitor report. Source lines (source-lines,
// napkin::sample_source_lines): the source lines page (napkin/report/source_lines_page.hpp); json, csv and
// markdown: the report.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "charts.hpp"
#include "command.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/json_read_source_lines.hpp"
#include "options.hpp"
#include "run_files.hpp"

namespace {

using namespace napkin::cli;

struct report_args {
  std::string run, baseline, gpu = "h100-sxm", title, output;
  bool allow_different_gpu = false;
  CLI::Option* gpu_option = nullptr;
};

// The kinds each page renders, for the error that names them.
constexpr const char* renderable_kinds =
    "kernel-reports, phase-reports, sol-report and comparison (the run page), monitor-report (the monitor page), "
    "source-lines (the source lines page)";

// The document in `file` (read and checked: a napkin document of a known kind) and its kind.
struct read_document_file {
  napkin::json_value value;
  std::string kind;
  napkin::gpu_identity gpu;
};
read_document_file read_any(const std::string& file) {
  const napkin::json_read_result r = napkin::read_json_file(file);
  if (!r.ok()) throw usage_error(r.problem);
  const napkin::report_document header = napkin::flatten(r.value, file);
  if (!header.ok()) throw usage_error(header.problem);
  return {r.value, header.kind, header.gpu};
}

// A baseline about another GPU is refused as `napkin diff` refuses it (one rule: validate_same_gpu).
void same_gpu(const report_args& a, const napkin::gpu_identity& base, const napkin::gpu_identity& run) {
  const std::string problem = napkin::validate_same_gpu(base, a.baseline, run, a.run, a.allow_different_gpu);
  if (!problem.empty()) throw usage_error(problem);
}

// The page of a document of one kind (`what`: "a monitor-report") and of its baseline, of the same kind; pages
// without a roofline (the monitor's, the source lines') say so when --gpu is given.
template <class Page, class Read>
Page page_with_baseline(const report_args& a, const read_document_file& doc, std::string_view kind,
                        const std::string& what, const std::string& page_name, Read read, report_answer& out) {
  Page page;
  page.title = a.title.empty() ? "napkin " + page_name + ": " + a.run : a.title;
  page.report = read(doc.value, a.run);
  if (!a.baseline.empty()) {
    const read_document_file base = read_any(a.baseline);
    if (base.kind != kind)
      throw usage_error(a.baseline + ": a document of kind '" + base.kind + "'; the baseline of " + what + " is " +
                        what);
    same_gpu(a, base.gpu, doc.gpu);
    page.baseline = read(base.value, a.baseline);
  }
  if (a.gpu_option->count() > 0)
    out.notes.push_back("--gpu: the " + page_name + " page has no roofline; --gpu is not used");
  return page;
}

answer monitor_answer(const report_args& a, const read_document_file& doc) {
  report_answer out;
  out.output = a.output;
  out.monitor = page_with_baseline<napkin::monitor_page>(
      a, doc, napkin::report_kind::monitor_report, "a monitor-report", "monitor",
      [](const auto& value, const std::string& file) { return napkin::read_monitor_report(value, file); }, out);
  return out;
}

answer source_lines_answer(const report_args& a, const read_document_file& doc) {
  report_answer out;
  out.output = a.output;
  out.source_lines = page_with_baseline<napkin::source_lines_page>(
      a, doc, napkin::report_kind::source_lines, "a source-lines document", "source lines",
      [](const auto& value, const std::string& file) { return napkin::read_source_lines(value, file); }, out);
  return out;
}

runner setup_report(CLI::App& sub) {
  auto a = std::make_shared<report_args>();
  sub.add_option("RUN", a->run,
                 "a measured run's JSON (kernel-reports, phase-reports,\nsol-report or comparison), a phase "
                 "monitor's\n(monitor-report), sampled source lines (source-lines),\nncu's raw CSV (--csv "
                 "--page raw\n--print-units base) or nvbench's JSON (--json)")
      ->type_name("FILE");
  sub.add_option("--baseline", a->baseline, "an earlier run: each kernel's change")->type_name("FILE");
  a->gpu_option = sub.add_option("--gpu", a->gpu, "GPU for the roofline (default: the run's GPU key)")->type_name("GPU");
  sub.add_flag("--allow-different-gpu", a->allow_different_gpu, "a baseline about another GPU (as napkin diff)");
  sub.add_option("--title", a->title, "the page's title")->type_name("TEXT");
  sub.add_option("-o,--output", a->output, "write to FILE instead of standard output")->type_name("FILE");
  sub.footer("The page needs no network to open; its kind follows the document's: a run page\n"
             "for kernel-reports, phase-reports, sol-report or comparison, a monitor page for\n"
             "monitor-report, a source lines page for source-lines. The roofline is there\n"
             "when the GPU is known (--gpu or the run's key) and a kernel has FLOP counts.\n"
             "--format text (default) writes the HTML; json, csv and markdown the run's\n"
             "kernels, the monitor report or the source lines (markdown: then the comparison\n"
             "with --baseline).");
  return [a]() -> answer {
    if (a->run.empty()) throw usage_error("report expects a RUN.json");
    if (!is_imported_run_file(a->run)) {  // ncu's raw CSV and nvbench's JSON are kernel-reports runs (run_files.hpp)
      refuse_other_csv(a->run);
      const read_document_file doc = read_any(a->run);
      if (doc.kind == napkin::report_kind::monitor_report) return monitor_answer(*a, doc);
      if (doc.kind == napkin::report_kind::source_lines) return source_lines_answer(*a, doc);
      if (doc.kind != napkin::report_kind::kernel_reports && doc.kind != napkin::report_kind::phase_reports &&
          doc.kind != napkin::report_kind::sol_report && doc.kind != napkin::report_kind::comparison)
        throw usage_error(a->run + ": a document of kind '" + doc.kind + "'; napkin report renders kinds " +
                          renderable_kinds);
    }
    std::vector<std::string> ncu_notes;
    const napkin::measured_run run = read_measured_run(a->run, &ncu_notes);
    std::optional<napkin::measured_run> base;
    if (!a->baseline.empty()) {
      base = read_measured_run(a->baseline, &ncu_notes);
      same_gpu(*a, base->gpu, run.gpu);
    }
    report_answer out;
    out.notes = std::move(ncu_notes);
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

const registrar report{{"report", "an HTML page of a measured run, a monitor report or source lines", setup_report}};

}  // namespace
