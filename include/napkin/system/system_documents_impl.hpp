// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_documents.hpp's "system" member of the monitor's document and its CSV rows: the function
// bodies. Included by system_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only
// by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_documents.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/system/system_text.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// "system: decode", "system: (no phase)"; the run is "system: (run)".
NAPKIN_DETAIL_FUNC std::string system_entity_name(const system_phase& p, bool run) {
  return "system: " + (run ? std::string("(run)") : p.name.empty() ? std::string("(no phase)") : p.name);
}

NAPKIN_DETAIL_FUNC json_value system_fraction(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? json_value() : json_value::number(static_cast<double>(a) / static_cast<double>(b));
}

NAPKIN_DETAIL_FUNC json_value system_copy_value(const copy_totals& c) {
  json_value v = json_value::object();
  v.set("count", json_value::count(c.count));
  v.set("time_ns", json_value::count(c.ns));
  v.set("bytes", json_value::count(c.bytes));
  return v;
}

NAPKIN_DETAIL_FUNC json_value system_histogram_value(const duration_histogram& h) {
  json_value v = json_value::object();
  v.set("count", json_value::count(h.total));
  v.set("mean_ns", h.total == 0 ? json_value() : json_value::number(system_mean_ns(h)));
  return v;
}

NAPKIN_DETAIL_FUNC json_value system_phase_value(const system_phase& p, bool run) {
  json_value v = json_value::object();
  v.set("name", json_value::string(system_entity_name(p, run)));
  v.set("label", json_value::string(run ? std::string("(run)") : p.name));
  v.set("instances", json_value::count(p.instances));
  v.set("span_ns", json_value::count(p.span_ns));
  v.set("busy_ns", json_value::count(p.busy_ns));
  v.set("idle_ns", json_value::count(p.idle_ns));
  v.set("idle_fraction", system_fraction(p.idle_ns, p.span_ns));
  json_value idle = json_value::object();
  idle.set("host_waiting_ns", json_value::count(p.idle_by_host.host_waiting_ns));
  idle.set("host_launching_ns", json_value::count(p.idle_by_host.host_launching_ns));
  idle.set("host_other_api_ns", json_value::count(p.idle_by_host.host_other_api_ns));
  idle.set("host_outside_ns", json_value::count(p.idle_by_host.host_outside_ns));
  v.set("idle_by_host", std::move(idle));
  v.set("kernels", json_value::count(p.kernels));
  v.set("kernel_ns", json_value::count(p.kernel_ns));
  v.set("communication_ns", json_value::count(p.communication_ns));
  v.set("kernel_durations", system_histogram_value(p.kernel_durations));
  v.set("stream_gaps", system_histogram_value(p.stream_gaps));
  v.set("copy_ns", json_value::count(p.copy_ns()));
  v.set("copy_overlapped_ns", json_value::count(p.copy_overlapped_ns));
  v.set("copy_not_overlapped_ns", json_value::count(system_copy_not_overlapped_ns(p)));
  v.set("copy_overlap_fraction", system_fraction(p.copy_overlapped_ns, p.copy_ns()));
  v.set("pageable_copy_ns", json_value::count(system_pageable_copy_ns(p)));
  json_value by_direction = json_value::object();
  for (std::size_t i = 0; i < all_copy_directions.size(); ++i)
    by_direction.set(std::string(to_string(all_copy_directions[i])), system_copy_value(p.copies_by_direction[i]));
  v.set("copies_by_direction", std::move(by_direction));
  json_value by_memory = json_value::object();
  for (std::size_t i = 0; i < all_host_memories.size(); ++i)
    by_memory.set(std::string(to_string(all_host_memories[i])), system_copy_value(p.copies_by_memory[i]));
  v.set("copies_by_memory", std::move(by_memory));
  v.set("memsets", system_copy_value(p.memsets));
  v.set("copies_on_kernel_streams", json_value::count(p.copies_on_kernel_streams));
  json_value calls = json_value::object();
  for (std::size_t i = 0; i < all_host_call_kinds.size(); ++i) {
    json_value c = json_value::object();
    c.set("count", json_value::count(p.host_calls[i].count));
    c.set("time_ns", json_value::count(p.host_calls[i].ns));
    calls.set(std::string(to_string(all_host_call_kinds[i])), std::move(c));
  }
  v.set("host_calls", std::move(calls));
  v.set("syncs", json_value::count(system_syncs(p)));
  v.set("host_blocked_ns", json_value::count(p.host_blocked_ns));
  v.set("graph_launches", json_value::count(p.graph_launches));
  v.set("graph_gaps", system_histogram_value(p.graph_gaps));
  v.set("graph_spans", system_histogram_value(p.graph_spans));
  return v;
}
}  // namespace detail

NAPKIN_DETAIL_FUNC json_value system_value(const system_report& r) {
  json_value v = json_value::object();
  v.set("run", detail::system_phase_value(r.run, true));
  json_value phases = json_value::array();
  for (const system_phase& p : r.phases) phases.push(detail::system_phase_value(p, false));
  v.set("phases", std::move(phases));
  json_value findings = json_value::array();
  for (const system_finding& f : r.findings) {
    json_value o = json_value::object();
    o.set("rule", json_value::string(std::string(to_string(f.rule))));
    o.set("phase", json_value::string(f.phase));
    o.set("evidence", json_value::string(f.evidence));
    o.set("advice", json_value::string(f.advice));
    o.set("at_stake_ns", json_value::count(f.at_stake_ns));
    findings.push(std::move(o));
  }
  v.set("findings", std::move(findings));
  json_value kernels = json_value::array();
  for (const kernel_time_share& k : r.kernels) {
    json_value o = json_value::object();
    o.set("name", json_value::string(k.name));
    o.set("count", json_value::count(k.count));
    o.set("gpu_ns", json_value::count(k.gpu_ns));
    o.set("share", json_value::number(k.share));
    o.set("top_phase", json_value::string(k.top_phase));
    kernels.push(std::move(o));
  }
  v.set("kernels", std::move(kernels));
  json_value next = json_value::object();
  next.set("kernel", r.next.kernel ? json_value::string(*r.next.kernel) : json_value());
  next.set("share", json_value::number(r.next.share));
  next.set("reason", json_value::string(r.next.reason));
  next.set("how", json_value::string(r.next.how));
  v.set("next_target", std::move(next));
  v.set("records_dropped", json_value::count(r.records_dropped));
  v.set("late_records", json_value::count(r.late_records));
  v.set("records_refused", json_value::count(r.records_refused));
  v.set("records_other_device", json_value::count(r.records_other_device));
  return v;
}

NAPKIN_DETAIL_FUNC std::string to_csv(const system_report& r) {
  csv_table t;
  t.columns = {"phase",           "instances",          "span_ns",           "busy_ns",
               "idle_ns",         "idle_fraction",      "host_waiting_ns",   "host_launching_ns",
               "host_other_api_ns", "host_outside_ns",  "kernels",           "kernel_ns",
               "communication_ns", "kernel_mean_ns",    "stream_gaps",       "stream_gap_mean_ns",
               "copy_ns",         "copy_overlapped_ns", "copy_overlap_fraction", "pageable_copy_ns"};
  for (copy_direction d : all_copy_directions) t.columns.push_back(std::string(to_string(d)) + "_ns");
  for (const char* c : {"memset_ns", "syncs", "host_blocked_ns", "launches", "graph_launches"}) t.columns.push_back(c);
  const auto fraction = [](std::uint64_t a, std::uint64_t b) {
    return b == 0 ? std::optional<double>() : std::optional<double>(static_cast<double>(a) / static_cast<double>(b));
  };
  const auto mean = [](const duration_histogram& h) {
    return h.total == 0 ? std::optional<double>() : std::optional<double>(detail::system_mean_ns(h));
  };
  const auto add = [&](const system_phase& p, bool run) {
    const idle_causes& c = p.idle_by_host;
    std::vector<std::string> row = {
        run ? std::string("(run)") : p.name, detail::csv_cell(p.instances), detail::csv_cell(p.span_ns),
        detail::csv_cell(p.busy_ns), detail::csv_cell(p.idle_ns), detail::csv_cell(fraction(p.idle_ns, p.span_ns)),
        detail::csv_cell(c.host_waiting_ns), detail::csv_cell(c.host_launching_ns),
        detail::csv_cell(c.host_other_api_ns), detail::csv_cell(c.host_outside_ns), detail::csv_cell(p.kernels),
        detail::csv_cell(p.kernel_ns), detail::csv_cell(p.communication_ns), detail::csv_cell(mean(p.kernel_durations)),
        detail::csv_cell(p.stream_gaps.total), detail::csv_cell(mean(p.stream_gaps)), detail::csv_cell(p.copy_ns()),
        detail::csv_cell(p.copy_overlapped_ns), detail::csv_cell(fraction(p.copy_overlapped_ns, p.copy_ns())),
        detail::csv_cell(detail::system_pageable_copy_ns(p))};
    for (const copy_totals& d : p.copies_by_direction) row.push_back(detail::csv_cell(d.ns));
    row.push_back(detail::csv_cell(p.memsets.ns));
    row.push_back(detail::csv_cell(detail::system_syncs(p)));
    row.push_back(detail::csv_cell(p.host_blocked_ns));
    row.push_back(detail::csv_cell(detail::system_host_calls(p, host_call_kind::launch).count));
    row.push_back(detail::csv_cell(p.graph_launches));
    t.rows.push_back(std::move(row));
  };
  for (const system_phase& p : r.phases) add(p, false);
  add(r.run, true);
  return write_csv(t);
}

NAPKIN_END_NAMESPACE
