// SPDX-License-Identifier: Apache-2.0
// The profiler's reports as documents (napkin/report/profiler_documents.hpp): the function bodies. Included by
// profiler_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <string>

#include "napkin/report/profiler_documents.hpp"
#include "napkin/document/csv.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC json_value json_number_or_null(std::optional<double> v) {
  return v ? json_value::number(*v) : json_value();
}

// Executed FLOP/s: add + mul + 2 x fma over the duration (the roofline set); nullopt without both.
NAPKIN_DETAIL_FUNC std::optional<double> flop_per_s(const sol_report& r) {
  const auto f = r.flop(), t = r.duration_ns();
  if (!f || !t || *t <= 0) return std::nullopt;
  return *f / (*t * 1e-9);
}

NAPKIN_DETAIL_FUNC std::vector<std::pair<const char*, std::optional<double>>> sol_numbers(const sol_report& r) {
  return {{"duration_ns", r.duration_ns()},
          {"sm_pct", r.sm_pct()},
          {"memory_pct", r.memory_pct()},
          {"dram_pct", r.dram_pct()},
          {"l1tex_pct", r.l1tex_pct()},
          {"l2_pct", r.l2_pct()},
          {"elapsed_cycles", r.elapsed_cycles()},
          {"sm_active_cycles", r.sm_active_cycles()},
          {"sm_hz", r.sm_hz()},
          {"dram_hz", r.dram_hz()},
          {"dram_bytes", r.dram_bytes()},
          {"dram_bytes_per_s", r.dram_bytes_per_s()},
          {"flop", r.flop()},
          {"flop_per_s", flop_per_s(r)}};
}

NAPKIN_DETAIL_FUNC json_value cost_value(const measurement_cost& c) {
  json_value v = json_value::object();
  const std::pair<const char*, double> parts[] = {{"enable_s", c.enable_s}, {"setup_s", c.setup_s},
                                                  {"passes_s", c.passes_s}, {"flush_s", c.flush_s},
                                                  {"cupti_s", c.cupti_s},   {"work_s", c.work_s},
                                                  {"decode_s", c.decode_s}, {"total_s", c.total_s()}};
  for (const auto& [name, seconds] : parts) v.set(name, json_value::number(seconds));
  return v;
}

// One report: the entity of a sol-report, kernel-reports or phase-reports document. "sections" (the
// sections `makers` make of it, report/section_documents.hpp) only when there is one.
NAPKIN_DETAIL_FUNC json_value sol_report_value(const sol_report& r,
                                               const section_makers& makers = default_section_makers()) {
  json_value v = json_value::object();
  v.set("name", json_value::string(r.name));
  v.set("chip", json_value::string(r.chip));
  v.set("measured_by", json_value::string(std::string(to_string(r.how))));
  v.set("metric_set", json_value::string(r.metric_set));
  v.set("passes", json_value::count(r.passes));
  for (const auto& [name, value] : sol_numbers(r)) v.set(name, json_number_or_null(value));
  if (const auto noise = r.duration_noise_pct()) v.set("duration_noise_pct", json_value::number(*noise));  // nvbench's
  v.set("passes_agree", json_value::boolean(r.passes_disagree.empty()));
  v.set("passes_disagree", r.passes_disagree.empty() ? json_value() : json_value::string(r.passes_disagree));
  json_value verdicts = json_value::object();
  const sol_verdict sol = r.sol_table();
  verdicts.set("sol_table", verdict_value(sol.kind, sol.reason));
  const auto ncu = r.ncu_rule();
  verdicts.set("ncu_rule", ncu ? verdict_value(ncu->kind, ncu->reason) : json_value());
  v.set("verdicts", std::move(verdicts));
  v.set("cost", cost_value(r.cost));
  json_value samples = json_value::array();
  for (const pass_sample& p : r.pass_samples) {
    json_value s = json_value::object();
    s.set("duration_ns", json_value::number(p.duration_ns));
    s.set("launches", p.launches ? json_value::count(*p.launches) : json_value());
    samples.push(std::move(s));
  }
  v.set("pass_samples", std::move(samples));
  json_value values = json_value::object();
  for (const auto& [metric, value] : r.values) values.set(metric, json_value::number(value));
  v.set("values", std::move(values));
  json_value derived = json_value::object();
  for (const auto& [field, value] : r.derived) derived.set(field, json_value::number(value));
  v.set("derived", std::move(derived));
  json_value derivations = json_value::object();
  for (const auto& [number, how] : r.derivations) derivations.set(number, json_value::string(how));
  v.set("derivations", std::move(derivations));
  const std::vector<report_section> sections = sections_of(r, makers);
  if (!sections.empty()) v.set("sections", sections_value(sections));
  return v;
}

// The chip the reports share ("" when they do not).
NAPKIN_DETAIL_FUNC std::string common_chip(const std::vector<sol_report>& reports) {
  if (reports.empty()) return {};
  for (const auto& r : reports)
    if (r.chip != reports.front().chip) return {};
  return reports.front().chip;
}

// The fields every report agrees on (a field some report lacks or gives differently is left out): the
// device of a kernel_reports or phase_reports whose reports all come from one profiler.
NAPKIN_DETAIL_FUNC report_context common_context(const std::vector<sol_report>& reports) {
  if (reports.empty()) return {};
  report_context c = reports.front().context;
  const auto keep_if_shared = [&reports](auto member, report_context& into) {
    for (const auto& r : reports)
      if (r.context.*member != into.*member) into.*member = std::nullopt;
  };
  keep_if_shared(&report_context::host, c);
  keep_if_shared(&report_context::rank, c);
  keep_if_shared(&report_context::world_size, c);
  keep_if_shared(&report_context::local_rank, c);
  keep_if_shared(&report_context::device_index, c);
  keep_if_shared(&report_context::device_name, c);
  keep_if_shared(&report_context::device_pci_bus_id, c);
  keep_if_shared(&report_context::device_uuid, c);
  return c;
}

// The document's context: the caller's (document_options::context) field by field, and where the caller
// left a field unset, the measurement's (the device the profiler measured, sol_report::context). A caller
// who sets a field, say device_index, overrides what the profiler recorded.
NAPKIN_DETAIL_FUNC document_options with_measured_context(document_options options, const report_context& measured) {
  report_context& c = options.context;
  const auto fill = [](auto& given, const auto& from) {
    if (!given) given = from;
  };
  fill(c.host, measured.host);
  fill(c.rank, measured.rank);
  fill(c.world_size, measured.world_size);
  fill(c.local_rank, measured.local_rank);
  fill(c.device_index, measured.device_index);
  fill(c.device_name, measured.device_name);
  fill(c.device_pci_bus_id, measured.device_pci_bus_id);
  fill(c.device_uuid, measured.device_uuid);
  return options;
}

NAPKIN_DETAIL_FUNC gpu_identity chip_only(std::string chip) {
  gpu_identity g;
  g.chip = std::move(chip);
  return g;
}

// CSV: the columns every profiler row starts with, and the row.
NAPKIN_DETAIL_FUNC std::vector<std::string> sol_columns() {
  std::vector<std::string> c{"name", "chip", "measured_by", "metric_set", "passes"};
  for (const auto& [name, value] : sol_numbers(sol_report{})) c.emplace_back(name);
  for (const char* more : {"sol_verdict", "ncu_verdict", "passes_agree", "cost_s"}) c.emplace_back(more);
  return c;
}

NAPKIN_DETAIL_FUNC std::vector<std::string> sol_row(const sol_report& r) {
  std::vector<std::string> row{r.name, r.chip, std::string(to_string(r.how)), r.metric_set, csv_cell(static_cast<std::uint64_t>(r.passes))};
  for (const auto& [name, value] : sol_numbers(r)) row.push_back(csv_cell(value));
  row.push_back(std::string(to_string(r.sol_table().kind)));
  const auto ncu = r.ncu_rule();
  row.push_back(ncu ? std::string(to_string(ncu->kind)) : std::string());
  row.push_back(csv_cell(r.passes_disagree.empty()));
  row.push_back(csv_cell(std::optional<double>(r.cost.total_s())));
  return row;
}

NAPKIN_DETAIL_FUNC csv_table sol_table_of(const std::vector<sol_report>& reports) {
  csv_table t{sol_columns(), {}};
  for (const auto& r : reports) t.rows.push_back(sol_row(r));
  return t;
}

// The napkin comparison's numbers, by the names of the JSON ("napkin" object) and the CSV.
NAPKIN_DETAIL_FUNC std::vector<std::pair<const char*, std::optional<double>>> comparison_numbers(const workload_comparison& c) {
  return {{"workload_flop", c.model.flops},
          {"workload_bytes", c.model.bytes},
          {"intensity_flop_per_byte", c.intensity},
          {"ridge_flop_per_byte", c.ridge},
          {"bound_ns", c.bound_ns},
          {"time_over_bound", c.time_over_bound},
          {"traffic_overhead", c.traffic_overhead},
          {"bandwidth_of_peak", c.bandwidth_of_peak},
          {"flops_of_peak", c.flops_of_peak}};
}

}  // namespace detail

NAPKIN_DETAIL_FUNC json_value document_value(const sol_report& r, const document_options& options,
                                             const section_makers& makers) {
  json_value doc = detail::document_header(report_kind::sol_report, detail::chip_only(r.chip),
                                           detail::with_measured_context(options, r.context));
  doc.set("report", detail::sol_report_value(r, makers));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const kernel_reports& k, const document_options& options,
                                             const section_makers& makers) {
  json_value doc =
      detail::document_header(report_kind::kernel_reports, detail::chip_only(detail::common_chip(k.kernels)),
                              detail::with_measured_context(options, detail::common_context(k.kernels)));
  json_value kernels = json_value::array();
  for (const auto& r : k.kernels) kernels.push(detail::sol_report_value(r, makers));
  doc.set("kernels", std::move(kernels));
  doc.set("dropped", json_value::count(k.dropped));
  doc.set("cost", detail::cost_value(k.cost));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const phase_reports& p, const document_options& options,
                                             const section_makers& makers) {
  json_value doc =
      detail::document_header(report_kind::phase_reports, detail::chip_only(detail::common_chip(p.phases)),
                              detail::with_measured_context(options, detail::common_context(p.phases)));
  json_value phases = json_value::array();
  for (const auto& r : p.phases) phases.push(detail::sol_report_value(r, makers));
  doc.set("phases", std::move(phases));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const sol_report& r, const workload_comparison& c,
                                             const document_options& options,
                                             const section_makers& makers) {
  json_value doc = detail::document_header(report_kind::comparison, detail::chip_only(r.chip),
                                           detail::with_measured_context(options, r.context));
  json_value entity = detail::sol_report_value(r, makers);
  json_value napkin = json_value::object();
  for (const auto& [name, value] : detail::comparison_numbers(c)) napkin.set(name, detail::json_number_or_null(value));
  napkin.set("expected", json_value::string(std::string(to_string(c.model.bound))));
  napkin.set("expectation", json_value::string(c.expectation));
  napkin.set("traffic_reading", c.traffic_reading.empty() ? json_value() : json_value::string(c.traffic_reading));
  entity.set("napkin", std::move(napkin));
  json_value expected = json_value::object();
  expected.set("kind", json_value::string(std::string(to_string(c.model.bound))));
  expected.set("text", json_value::string(std::string(to_string(c.model.bound))));
  expected.set("reason", json_value::string(c.expectation));
  // verdicts is an object member of entity: add "expected" to it.
  json_value verdicts = *entity.find("verdicts");
  verdicts.set("expected", std::move(expected));
  entity.set("verdicts", std::move(verdicts));
  doc.set("comparison", std::move(entity));
  return doc;
}

NAPKIN_DETAIL_FUNC std::string to_json(const sol_report& r, const document_options& o,
                                       const section_makers& makers) {
  return write_json(document_value(r, o, makers));
}

NAPKIN_DETAIL_FUNC std::string to_json(const kernel_reports& k, const document_options& o,
                                       const section_makers& makers) {
  return write_json(document_value(k, o, makers));
}

NAPKIN_DETAIL_FUNC std::string to_json(const phase_reports& p, const document_options& o,
                                       const section_makers& makers) {
  return write_json(document_value(p, o, makers));
}

NAPKIN_DETAIL_FUNC std::string to_json(const sol_report& r, const workload_comparison& c, const document_options& o,
                                       const section_makers& makers) {
  return write_json(document_value(r, c, o, makers));
}

NAPKIN_DETAIL_FUNC report_document to_document(const sol_report& r, const document_options& o,
                                               const section_makers& makers) {
  return flatten(document_value(r, o, makers), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const kernel_reports& k, const document_options& o,
                                               const section_makers& makers) {
  return flatten(document_value(k, o, makers), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const phase_reports& p, const document_options& o,
                                               const section_makers& makers) {
  return flatten(document_value(p, o, makers), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const sol_report& r, const workload_comparison& c,
                                               const document_options& o,
                                               const section_makers& makers) {
  return flatten(document_value(r, c, o, makers), "<memory>");
}

NAPKIN_DETAIL_FUNC std::string to_csv(const sol_report& r) { return write_csv(detail::sol_table_of({r})); }

NAPKIN_DETAIL_FUNC std::string to_csv(const kernel_reports& k) { return write_csv(detail::sol_table_of(k.kernels)); }

NAPKIN_DETAIL_FUNC std::string to_csv(const phase_reports& p) { return write_csv(detail::sol_table_of(p.phases)); }

NAPKIN_DETAIL_FUNC std::string to_csv(const sol_report& r, const workload_comparison& c) {
  csv_table t = detail::sol_table_of({r});
  for (const auto& [name, value] : detail::comparison_numbers(c)) {
    t.columns.emplace_back(name);
    t.rows[0].push_back(detail::csv_cell(value));
  }
  t.columns.emplace_back("expected");
  t.rows[0].emplace_back(to_string(c.model.bound));
  return write_csv(t);
}

NAPKIN_END_NAMESPACE
