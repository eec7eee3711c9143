// SPDX-License-Identifier: Apache-2.0
// napkin/report/profiler_documents.hpp — the profiler's reports as JSON documents and CSV tables:
//   sol_report                         "napkin.sol-report"      one measurement (measure(), a scope)
//   kernel_reports                     "napkin.kernel-reports"  per_kernel(): a report per kernel
//   phase_reports                      "napkin.phase-reports"   watch_phase(): a report per phase
//   sol_report + workload_comparison   "napkin.comparison"      a measurement against napkin math
// Each has to_json (the document's text), to_document (its flattened form for diff()), document_value
// (the JSON value) and to_csv (one row per measurement); the report sections (profiler/sections/) are in the
// JSON ("sections") and in to_sections_csv (report/section_documents.hpp). docs/reports.md lists every field.
//
// Only the profiler's plain C++ headers are included (no CUPTI, no CUDA): a program that reads or writes
// reports needs neither. A missing metric is null in JSON and an empty cell in CSV.
//
// The document's "context" is document_options::context merged with the device the profiler recorded in
// the report (sol_report::context): the caller's fields win, the report's fill the fields the caller left
// unset (detail::with_measured_context). A kernel_reports or phase_reports document carries the fields its
// reports share.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/report/section_documents.hpp"
#include "napkin/profiler/comparison.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// watch_phase()'s reports of one run, one per phase (each a sol_report measured_by::phase).
struct phase_reports {
  std::vector<sol_report> phases;
};

namespace detail {

// The Speed-Of-Light numbers, by the names the JSON, the CSV and diff() use.
std::vector<std::pair<const char*, std::optional<double>>> sol_numbers(const sol_report& r);

template <class Kind>
json_value verdict_value(Kind kind, const std::string& reason) {
  json_value v = json_value::object();
  v.set("kind", json_value::string(std::string(to_string(kind))));
  v.set("text", json_value::string(std::string(describe(kind))));
  v.set("reason", json_value::string(reason));
  return v;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// The documents.

// `makers`: the report sections each measurement's entity carries (profiler/sections/sections.hpp).
json_value document_value(const sol_report& r, const document_options& options = {},
                          const section_makers& makers = default_section_makers());

// "kernels" (in launch order), "dropped" (kernels that did not fit) and the call's "cost".
json_value document_value(const kernel_reports& k, const document_options& options = {},
                          const section_makers& makers = default_section_makers());

json_value document_value(const phase_reports& p, const document_options& options = {},
                          const section_makers& makers = default_section_makers());

// The report with the napkin comparison made from it (napkin::compare(r, workload, gpu, pipe)): the
// report's fields, plus "napkin" (the model's numbers and the words) and the verdict "expected".
json_value document_value(const sol_report& r, const workload_comparison& c,
                          const document_options& options = {},
                          const section_makers& makers = default_section_makers());

// `makers`: the report sections written with each measurement (profiler/sections/sections.hpp).
std::string to_json(const sol_report& r, const document_options& o = {},
                    const section_makers& makers = default_section_makers());
std::string to_json(const kernel_reports& k, const document_options& o = {},
                    const section_makers& makers = default_section_makers());
std::string to_json(const phase_reports& p, const document_options& o = {},
                    const section_makers& makers = default_section_makers());
std::string to_json(const sol_report& r, const workload_comparison& c, const document_options& o = {},
                    const section_makers& makers = default_section_makers());

report_document to_document(const sol_report& r, const document_options& o = {},
                            const section_makers& makers = default_section_makers());
report_document to_document(const kernel_reports& k, const document_options& o = {},
                            const section_makers& makers = default_section_makers());
report_document to_document(const phase_reports& p, const document_options& o = {},
                            const section_makers& makers = default_section_makers());
report_document to_document(const sol_report& r, const workload_comparison& c, const document_options& o = {},
                            const section_makers& makers = default_section_makers());

// CSV columns: name, chip, measured_by, metric_set, passes, duration_ns, sm_pct, memory_pct, dram_pct,
// l1tex_pct, l2_pct, elapsed_cycles, sm_active_cycles, sm_hz, dram_hz, dram_bytes, dram_bytes_per_s, flop,
// flop_per_s, sol_verdict, ncu_verdict, passes_agree, cost_s. The raw metrics ("values") are JSON only; the
// report sections are a long table of their own (to_sections_csv, report/section_documents.hpp).
std::string to_csv(const sol_report& r);
std::string to_csv(const kernel_reports& k);
std::string to_csv(const phase_reports& p);

// The columns above, then workload_flop, workload_bytes, intensity_flop_per_byte, ridge_flop_per_byte,
// bound_ns, time_over_bound, traffic_overhead, bandwidth_of_peak, flops_of_peak, expected.
std::string to_csv(const sol_report& r, const workload_comparison& c);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/profiler_documents_impl.hpp"
#endif
