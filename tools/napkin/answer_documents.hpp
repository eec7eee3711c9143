// SPDX-License-Identifier: Apache-2.0
// --format json, csv and markdown: each answer (answer.hpp) as the report library's value, serialized by
// its to_json / to_csv (include/napkin/report/; the JSON validates against docs/schema/napkin.schema.json)
// or rendered by report/markdown.hpp: document_markdown of its document, to_markdown of a diff (the gate
// first) and, for `report --baseline`, the page's comparison after the run's table.
//   a workload, one case          napkin.estimate   (with "measured" for --time)
//   a sweep or a GPU comparison   napkin.estimates  (rows = cases; GPUs without the pipe: "unavailable")
//   gpus (every view)             napkin.gpu-specs  (the whole table, or the GPUs named: peaks, ridges, sources)
//   pipes, dtypes                 napkin.pipes, napkin.dtypes
//   occupancy                     napkin.occupancy  (with next_step for a launch that fits)
//   diff                          napkin.diff
//   roofline                      napkin.roofline   (the chart's numbers; text is the SVG)
//   report                        napkin.kernel-reports of the run, napkin.monitor-report or napkin.source-lines
//                                 (text is the HTML page)
//   merge                         napkin.job (the ranks and the cross-rank table)
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "answer.hpp"
#include "names.hpp"
#include "napkin/math.hpp"
#include "napkin/report/cli_documents.hpp"
#include "napkin/report/job_documents.hpp"
#include "napkin/report/markdown.hpp"
#include "napkin/report/math_documents.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/report/profiler_documents.hpp"
#include "napkin/report/source_lines_documents.hpp"

namespace napkin::cli {

// `axes` name the case's sizes (M, N, K): each estimate carries them as numbers, not only in its name, under
// the names in lower case (m, n, k, head_dim), as every document member and CSV column is named.
inline estimate_report estimate_of(const workload_case& c, const std::string& name, const std::vector<size_axis>& axes) {
  estimate_report e{name, c.w, c.gpu.spec, *c.p, c.s, *c.e, std::nullopt, {}};
  if (c.measured) e.measured_s = c.measured->seconds;
  for (std::size_t i = 0; i < c.sizes.size() && i < axes.size(); ++i) e.sizes.emplace_back(lower(axes[i].name), c.sizes[i]);
  return e;
}

inline estimate_set estimates_of(const workload_answer& a) {
  estimate_set s;
  for (const workload_case& c : a.cases) {
    const std::string name = c.title + (a.comparison ? " on " + std::string(c.gpu.spec.key) : std::string());
    if (c.e)
      s.estimates.push_back(estimate_of(c, name, a.axes));
    else
      s.unavailable.push_back({name, std::string(c.gpu.spec.key), *c.p, c.unavailable});
  }
  return s;
}

inline std::vector<gpu_spec> table_specs() { return {gpu_table.begin(), gpu_table.end()}; }

// The document of an answer, as JSON (json) or CSV.
template <class Write>
std::string document_text(const answer& a, Write write) {
  if (const auto* w = std::get_if<workload_answer>(&a)) {
    if (w->cases.size() == 1 && !w->sweep && !w->comparison)
      return write(estimate_of(w->cases.front(), w->cases.front().title, w->axes));
    return write(estimates_of(*w));
  }
  if (const auto* g = std::get_if<gpus_answer>(&a)) return write(g->chosen.empty() ? table_specs() : g->specs());
  if (std::get_if<pipes_answer>(&a)) return write(pipe_catalog{table_specs()});
  if (std::get_if<dtypes_answer>(&a)) return write(dtype_catalog{});
  if (const auto* o = std::get_if<occupancy_answer>(&a)) {
    if (o->r.valid() && o->r.blocks_per_sm > 0) return write(next_step(o->limits, o->threads, o->k, o->dynamic_smem));
    return write(o->r);
  }
  if (const auto* d = std::get_if<diff_answer>(&a)) return write(d->d);
  if (const auto* r = std::get_if<roofline_answer>(&a)) return write(r->chart);
  if (const auto* m = std::get_if<merge_answer>(&a)) return write(m->table);
  const report_answer& r = std::get<report_answer>(a);
  if (r.monitor) return write(r.monitor->report);
  if (r.source_lines) return write(r.source_lines->report);
  return write(r.run);
}

inline std::string json_text(const answer& a) {
  return document_text(a, [](const auto& value) { return to_json(value); });
}
inline std::string csv_text(const answer& a) {
  return document_text(a, [](const auto& value) { return to_csv(value); });
}

// The diff's gate first (report/markdown.hpp); any other answer, its document as Markdown tables.
inline std::string markdown_text(const answer& a) {
  if (const auto* d = std::get_if<diff_answer>(&a)) {
    std::string out = to_markdown(d->d);
    if (!d->gate.empty()) {
      out += "\nGated numbers:";
      for (std::size_t i = 0; i < d->gate.size(); ++i) out += (i == 0 ? " " : ", ") + markdown_code(d->gate[i]);
      out += " (the others are shown, never a regression).\n";
    }
    return out;
  }
  std::string out = document_text(a, [](const auto& value) { return document_markdown(document_value(value)); });
  if (const auto* r = std::get_if<report_answer>(&a)) {  // the page's comparison with its baseline
    std::optional<report_diff> d;
    if (r->monitor && r->monitor->baseline)
      d = diff(to_document(*r->monitor->baseline), to_document(r->monitor->report), r->monitor->compare);
    else if (!r->monitor && r->page.baseline)
      d = diff(to_document(kernel_reports{*r->page.baseline, 0, {}}, {}, r->page.sections),
               to_document(kernel_reports{r->page.kernels, 0, {}}, {}, r->page.sections), r->page.compare);
    if (d) {
      d->old_source.clear();  // "<memory>": the heading below says what was compared
      d->new_source.clear();
      out += "\nThe run against its baseline (--baseline):\n\n" + to_markdown(*d);
    }
  }
  return out;
}

}  // namespace napkin::cli
