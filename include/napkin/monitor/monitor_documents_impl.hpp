// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_documents.hpp's JSON document and CSV table of the phase monitor's report: the function
// bodies. Included by monitor_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only
// by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/system/system_documents.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC json_value monitor_number(const std::optional<double>& v) {
  return v ? json_value::number(*v) : json_value();
}

// The rows of a report with their grouping: "phase", "path" or "kernel".
NAPKIN_DETAIL_FUNC std::vector<std::pair<const char*, const std::vector<monitor_row>*>> monitor_row_tables(
    const monitor_report& r) {
  return {{"phase", &r.phases}, {"path", &r.paths}, {"kernel", &r.kernels}};
}

// "phase: decode", "kernel: copy"; the empty phase is "(no phase)".
NAPKIN_DETAIL_FUNC std::string monitor_row_name(const char* by, const monitor_row& row) {
  const bool no_phase = row.name.empty() && std::string(by) != "kernel";
  return std::string(by) + ": " + (no_phase ? std::string("(no phase)") : row.name);
}

NAPKIN_DETAIL_FUNC json_value monitor_verdict(std::string_view kind, std::string_view text, const std::string& reason) {
  json_value v = json_value::object();
  v.set("kind", json_value::string(std::string(kind)));
  v.set("text", json_value::string(std::string(text)));
  v.set("reason", json_value::string(reason));
  return v;
}

NAPKIN_DETAIL_FUNC const char* monitor_activity(const monitor_row& row) {
  return row.communication() ? "communication" : "compute";
}

NAPKIN_DETAIL_FUNC json_value monitor_row_value(const char* by, const monitor_row& row) {
  const monitor_totals& t = row.totals;
  json_value v = json_value::object();
  v.set("name", json_value::string(monitor_row_name(by, row)));
  v.set("by", json_value::string(by));
  v.set("label", json_value::string(row.name));
  v.set("count", json_value::count(t.count));
  v.set("complete", json_value::count(row.complete));
  v.set("partial", json_value::boolean(row.partial));
  v.set("mean_ns", json_value::number(row.mean_ns));
  v.set("sm_pct", monitor_number(row.sm_pct));
  v.set("sm_pct_upper", monitor_number(row.sm_pct_upper));
  v.set("dram_pct", monitor_number(row.dram_pct));
  v.set("l1tex_pct", monitor_number(row.l1tex_pct));
  v.set("l2_slices_pct", monitor_number(row.l2_slices_pct));
  v.set("l2_figure", json_value::string(monitor_l2_figure));
  v.set("memory_pct", monitor_number(row.memory_pct));
  v.set("dram_bytes_per_s", monitor_number(row.dram_bytes_per_s));
  v.set("dram_bytes_per_complete_launch", monitor_number(row.dram_bytes_per_complete_launch));
  v.set("communication_fraction", json_value::number(row.split.communication_fraction()));
  v.set("activity", json_value::string(monitor_activity(row)));
  v.set("resolution_windows", json_value::count(row.resolution.windows));
  v.set("alone_fraction", monitor_number(row.resolution.solo_share));
  v.set("standard_error_pct", monitor_number(row.resolution.standard_error_pct));
  v.set("collinearity", monitor_number(row.resolution.collinearity));
  json_value totals = json_value::object();
  totals.set("gpu_ns", json_value::count(t.gpu_ns));
  totals.set("sampled_ns", json_value::count(t.sampled_ns));
  totals.set("dropped_ns", json_value::count(t.dropped_ns));
  totals.set("unsampled_ns", json_value::count(t.unsampled_ns()));
  totals.set("concurrent_ns", json_value::count(t.concurrent_ns));
  totals.set("communication_ns", json_value::number(row.split.communication_ns));
  totals.set("compute_ns", json_value::number(row.split.compute_ns));
  totals.set("dram_read_bytes", monitor_number(row.dram_read_bytes));
  totals.set("dram_write_bytes", monitor_number(row.dram_write_bytes));
  totals.set("dram_bytes", monitor_number(row.dram_bytes));
  v.set("totals", std::move(totals));
  json_value verdicts = json_value::object();
  verdicts.set("sol_table", monitor_verdict(to_string(row.verdict.kind), describe(row.verdict.kind), row.verdict.reason));
  verdicts.set("activity", monitor_verdict(monitor_activity(row),
                                           row.communication() ? "communication (NCCL/NVSHMEM kernels)" : "compute",
                                           percent_of(row.split.communication_fraction()) +
                                               " of the GPU time in NCCL/NVSHMEM kernels"));
  verdicts.set("resolution", monitor_verdict(to_string(row.resolution.status), describe(row.resolution.status),
                                             row.resolution.reason));
  v.set("verdicts", std::move(verdicts));
  return v;
}

NAPKIN_DETAIL_FUNC json_value monitor_device_value(const monitor_report& r) {
  const device_totals& d = r.totals;
  json_value v = json_value::object();
  v.set("device", json_value::count(static_cast<std::uint64_t>(r.device < 0 ? 0 : r.device)));
  v.set("idle_model", json_value::string(std::string(to_string(r.idle))));
  v.set("l2_figure", json_value::string(monitor_l2_explained));
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"wall_ns", d.wall_ns()},           {"sampled_ns", d.sampled_ns},
      {"busy_ns", d.busy_ns},             {"idle_ns", d.idle_ns},
      {"dropped_ns", d.dropped_ns},       {"samples_kept", d.samples_kept},
      {"samples_dropped", d.samples_dropped}, {"setup_samples_dropped", d.setup_samples_dropped},
      {"late_kernels", d.late_kernels},   {"sm_dropouts", d.sm_dropouts}};
  for (const auto& [field, n] : counts) v.set(field, json_value::count(n));
  v.set("idle_fraction", monitor_number(r.idle_fraction));
  v.set("idle_sm_pct", monitor_number(r.idle_sm_pct));
  v.set("idle_dram_pct", monitor_number(r.idle_dram_pct));
  v.set("idle_dram_bytes", monitor_number(r.idle_dram_bytes));
  return v;
}
}  // namespace detail

NAPKIN_DETAIL_FUNC json_value document_value(const monitor_report& r, const document_options& options) {
  document_options o = options;
  if (o.context.empty()) o.context = r.context;
  json_value doc = detail::document_header(report_kind::monitor_report, gpu_identity{}, o);
  doc.set("monitor", detail::monitor_device_value(r));
  json_value rows = json_value::array();
  for (const auto& [by, table] : detail::monitor_row_tables(r))
    for (const monitor_row& row : *table) rows.push(detail::monitor_row_value(by, row));
  doc.set("rows", std::move(rows));
  if (r.system) doc.set("system", system_value(*r.system));
  return doc;
}

NAPKIN_DETAIL_FUNC std::string to_json(const monitor_report& r, const document_options& o) {
  return write_json(document_value(r, o));
}

NAPKIN_DETAIL_FUNC report_document to_document(const monitor_report& r, const document_options& o) {
  return flatten(document_value(r, o), "<memory>");
}

NAPKIN_DETAIL_FUNC std::string to_csv(const monitor_report& r) {
  csv_table t{{"by", "name", "count", "complete", "partial", "gpu_ns", "mean_ns", "sampled_ns", "concurrent_ns",
               "sm_pct", "sm_pct_upper", "dram_pct", "l1tex_pct", "l2_slices_pct", "l2_figure", "memory_pct",
               "dram_read_bytes", "dram_write_bytes", "dram_bytes", "dram_bytes_per_s", "dram_bytes_per_complete_launch",
               "communication_fraction", "activity", "sol_verdict", "resolution", "standard_error_pct",
               "alone_fraction"},
              {}};
  for (const auto& [by, table] : detail::monitor_row_tables(r))
    for (const monitor_row& row : *table) {
      const monitor_totals& x = row.totals;
      t.rows.push_back({by, row.name, detail::csv_cell(x.count), detail::csv_cell(row.complete),
                        detail::csv_cell(row.partial), detail::csv_cell(x.gpu_ns),
                        detail::csv_cell(std::optional<double>(row.mean_ns)), detail::csv_cell(x.sampled_ns),
                        detail::csv_cell(x.concurrent_ns), detail::csv_cell(row.sm_pct),
                        detail::csv_cell(row.sm_pct_upper), detail::csv_cell(row.dram_pct),
                        detail::csv_cell(row.l1tex_pct),
                        detail::csv_cell(row.l2_slices_pct), monitor_l2_figure, detail::csv_cell(row.memory_pct),
                        detail::csv_cell(row.dram_read_bytes), detail::csv_cell(row.dram_write_bytes),
                        detail::csv_cell(row.dram_bytes), detail::csv_cell(row.dram_bytes_per_s),
                        detail::csv_cell(row.dram_bytes_per_complete_launch),
                        detail::csv_cell(std::optional<double>(row.split.communication_fraction())),
                        detail::monitor_activity(row), std::string(to_string(row.verdict.kind)),
                        std::string(to_string(row.resolution.status)),
                        detail::csv_cell(row.resolution.standard_error_pct),
                        detail::csv_cell(row.resolution.solo_share)});
    }
  return write_csv(t);
}

NAPKIN_END_NAMESPACE
