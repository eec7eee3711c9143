// SPDX-License-Identifier: Apache-2.0
// napkin/report/json_read_monitor.hpp — a phase monitor's report read back from its monitor-report JSON
// document (napkin/monitor/monitor_documents.hpp): what `napkin report monitor.json` draws
// (napkin/report/monitor_page.hpp) and `napkin merge` summarizes. Each row's numbers are taken as written
// (the readings' sums are not in the document, so nothing is re-derived); writing the rebuilt report gives
// the same document back, which tests/report and tests/cli check.
//
// OPTIONAL like json_read.hpp, which parses the file (nlohmann/json). Bad input (a wrong member, a count that
// is not one, launches or times that do not add up) is napkin's input error (napkin/error.hpp) naming the
// file and the member: std::invalid_argument by default.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/document/json_fields.hpp"
#include "napkin/error.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/monitor_totals.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/text/enum_names.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// A number, or null for a reading never taken. Every reading is >= 0 (times, bytes, rates, fractions), and
// a percentage (a member ending in _pct) is at most 1000: the library's one check (document/document.hpp).
inline std::optional<double> monitor_reading(const json_value& o, const char* field, const std::string& where) {
  const json_value& v = json_member(o, field, where);
  if (v.is_null()) return std::nullopt;
  if (!v.is_number()) bad_json_field(where + "." + field, "expected a number or null");
  const double x = v.as_number();
  if (std::string bad = detail::measured_number_problem(x, detail::is_percentage_member(field)); !bad.empty())
    bad_json_field(where + "." + field, bad);
  return x;
}

inline double monitor_number_member(const json_value& o, const char* field, const std::string& where) {
  const std::optional<double> v = monitor_reading(o, field, where);
  if (!v) bad_json_field(where + "." + field, "expected a number");
  return *v;
}

inline bottleneck monitor_bottleneck(const std::string& text, const std::string& where) {
  if (const std::optional<bottleneck> b = from_string(text, all_bottlenecks)) return *b;
  bad_json_field(where, "unknown verdict kind '" + quote_input(text) + "'");
}

inline monitor_row monitor_row_of(const json_value& e, const std::string& where) {
  if (!e.is_object()) bad_json_field(where, "expected an object");
  monitor_row r;
  r.name = json_text(e, "label", where);
  monitor_totals& t = r.totals;
  t.count = json_count(e, "count", where);
  r.complete = json_count(e, "complete", where);
  if (r.complete > t.count) bad_json_field(where + ".complete", "more complete launches than launches (count)");
  t.incomplete = t.count - r.complete;
  r.partial = t.incomplete > 0;
  r.mean_ns = monitor_number_member(e, "mean_ns", where);
  r.sm_pct = monitor_reading(e, "sm_pct", where);
  if (e.find("sm_pct_upper") != nullptr) {  // absent in documents written before napkin 0.2's SM % range
    r.sm_pct_upper = monitor_reading(e, "sm_pct_upper", where);
    if (r.sm_pct_upper && (!r.sm_pct || *r.sm_pct_upper < *r.sm_pct))
      bad_json_field(where + ".sm_pct_upper", "below sm_pct, or given without it");
  }
  r.dram_pct = monitor_reading(e, "dram_pct", where);
  r.l1tex_pct = monitor_reading(e, "l1tex_pct", where);
  r.l2_slices_pct = monitor_reading(e, "l2_slices_pct", where);
  r.memory_pct = monitor_reading(e, "memory_pct", where);
  r.dram_bytes_per_s = monitor_reading(e, "dram_bytes_per_s", where);
  r.dram_bytes_per_complete_launch = monitor_reading(e, "dram_bytes_per_complete_launch", where);
  const json_value& totals = json_member(e, "totals", where);
  const std::string at = where + ".totals";
  if (!totals.is_object()) bad_json_field(at, "expected an object");
  t.gpu_ns = json_count(totals, "gpu_ns", at);
  t.sampled_ns = json_count(totals, "sampled_ns", at);
  t.dropped_ns = json_count(totals, "dropped_ns", at);
  t.concurrent_ns = json_count(totals, "concurrent_ns", at);
  if (t.sampled_ns > t.gpu_ns || t.dropped_ns > t.gpu_ns - t.sampled_ns)
    bad_json_field(at, "sampled_ns + dropped_ns is more than gpu_ns");
  if (json_count(totals, "unsampled_ns", at) != t.unsampled_ns())
    bad_json_field(at + ".unsampled_ns", "is not gpu_ns - sampled_ns - dropped_ns");
  r.split.communication_ns = monitor_number_member(totals, "communication_ns", at);
  r.split.compute_ns = monitor_number_member(totals, "compute_ns", at);
  r.dram_read_bytes = monitor_reading(totals, "dram_read_bytes", at);
  r.dram_write_bytes = monitor_reading(totals, "dram_write_bytes", at);
  r.dram_bytes = monitor_reading(totals, "dram_bytes", at);
  const json_value& verdicts = json_member(e, "verdicts", where);
  const std::string verdicts_where = where + ".verdicts";  // named: GCC 15 flags a reference next to a temporary
  const json_value& sol = json_member(verdicts, "sol_table", verdicts_where);
  r.verdict.kind = monitor_bottleneck(json_text(sol, "kind", where + ".verdicts.sol_table"),
                                      where + ".verdicts.sol_table.kind");
  r.verdict.reason = json_text(sol, "reason", where + ".verdicts.sol_table");
  // The rate solve's resolution; a document from before it has none (its readings were window means).
  r.resolution.status = rate_status::not_solved;
  r.resolution.reason = "the document predates the rate solve: its readings are window means";
  if (const json_value* res = verdicts.find("resolution")) {
    const std::string res_where = verdicts_where + ".resolution";
    const std::string kind = json_text(*res, "kind", res_where);
    // An unknown kind stays not_solved, as in a document from before the rate solve.
    if (const std::optional<rate_status> s = from_string(kind, all_rate_statuses)) r.resolution.status = *s;
    r.resolution.reason = json_text(*res, "reason", res_where);
    r.resolution.windows = json_count(e, "resolution_windows", where);
    r.resolution.solo_share = monitor_reading(e, "alone_fraction", where);
    r.resolution.standard_error_pct = monitor_reading(e, "standard_error_pct", where);
    r.resolution.collinearity = monitor_reading(e, "collinearity", where);
  }
  return r;
}

// A histogram written as {count, mean_ns}: its count and sum come back, its bins do not (they are not written).
inline duration_histogram system_histogram_of(const json_value& o, const char* field, const std::string& where) {
  const json_value& h = json_member(o, field, where);
  const std::string at = where + "." + field;
  duration_histogram out;
  out.total = json_count(h, "count", at);
  const std::optional<double> mean = monitor_reading(h, "mean_ns", at);
  if (out.total > 0 && !mean) bad_json_field(at + ".mean_ns", "expected a number: the histogram is not empty");
  out.sum_ns = static_cast<long double>(mean.value_or(0)) * static_cast<long double>(out.total);
  return out;
}

inline copy_totals system_copies_of(const json_value& o, const std::string& where, bool bytes = true) {
  if (!o.is_object()) bad_json_field(where, "expected an object");
  copy_totals c;
  c.count = json_count(o, "count", where);
  c.ns = json_count(o, "time_ns", where);
  if (bytes) c.bytes = json_count(o, "bytes", where);
  return c;
}

template <class E, std::size_t N>
inline void system_keyed_copies(const json_value& o, const char* field, const std::array<E, N>& names,
                                std::array<copy_totals, N>& out, const std::string& where, bool bytes = true) {
  const json_value& m = json_member(o, field, where);
  for (std::size_t i = 0; i < N; ++i) {
    const std::string key(to_string(names[i]));
    out[i] = system_copies_of(json_member(m, key.c_str(), where + "." + field), where + "." + field + "." + key, bytes);
  }
}

inline system_phase system_phase_of(const json_value& e, const std::string& where) {
  if (!e.is_object()) bad_json_field(where, "expected an object");
  system_phase p;
  p.name = json_text(e, "label", where);
  p.instances = json_count(e, "instances", where);
  p.span_ns = json_count(e, "span_ns", where);
  p.busy_ns = json_count(e, "busy_ns", where);
  p.idle_ns = json_count(e, "idle_ns", where);
  if (p.idle_ns > p.span_ns) bad_json_field(where + ".idle_ns", "more idle time than span_ns");
  if (p.busy_ns != p.span_ns - p.idle_ns) bad_json_field(where + ".busy_ns", "busy_ns + idle_ns is not span_ns");
  const json_value& idle = json_member(e, "idle_by_host", where);
  const std::string idle_at = where + ".idle_by_host";
  p.idle_by_host.host_waiting_ns = json_count(idle, "host_waiting_ns", idle_at);
  p.idle_by_host.host_launching_ns = json_count(idle, "host_launching_ns", idle_at);
  p.idle_by_host.host_other_api_ns = json_count(idle, "host_other_api_ns", idle_at);
  p.idle_by_host.host_outside_ns = json_count(idle, "host_outside_ns", idle_at);
  const idle_causes& c = p.idle_by_host;
  const std::uint64_t causes = c.host_waiting_ns + c.host_launching_ns + c.host_other_api_ns + c.host_outside_ns;
  if (c.host_waiting_ns > p.idle_ns || c.host_launching_ns > p.idle_ns || c.host_other_api_ns > p.idle_ns ||
      c.host_outside_ns > p.idle_ns || causes != p.idle_ns)
    bad_json_field(idle_at, "its four parts do not add up to idle_ns");
  p.kernels = json_count(e, "kernels", where);
  p.kernel_ns = json_count(e, "kernel_ns", where);
  p.communication_ns = json_count(e, "communication_ns", where);
  p.kernel_durations = system_histogram_of(e, "kernel_durations", where);
  p.stream_gaps = system_histogram_of(e, "stream_gaps", where);
  system_keyed_copies(e, "copies_by_direction", all_copy_directions, p.copies_by_direction, where);
  system_keyed_copies(e, "copies_by_memory", all_host_memories, p.copies_by_memory, where);
  p.copy_overlapped_ns = json_count(e, "copy_overlapped_ns", where);
  if (p.copy_overlapped_ns > p.copy_ns()) bad_json_field(where + ".copy_overlapped_ns", "more than the copies' time");
  p.memsets = system_copies_of(json_member(e, "memsets", where), where + ".memsets");
  p.copies_on_kernel_streams = json_count(e, "copies_on_kernel_streams", where);
  system_keyed_copies(e, "host_calls", all_host_call_kinds, p.host_calls, where, false);
  p.host_blocked_ns = json_count(e, "host_blocked_ns", where);
  p.graph_launches = json_count(e, "graph_launches", where);
  p.graph_gaps = system_histogram_of(e, "graph_gaps", where);
  p.graph_spans = system_histogram_of(e, "graph_spans", where);
  return p;
}

inline double system_share_of(const json_value& o, const std::string& where) {
  const double share = monitor_number_member(o, "share", where);
  if (share > 1) bad_json_field(where + ".share", "a share above 1");
  return share;
}

// The "system" member (system/system_documents.hpp) read back.
inline system_report system_report_of(const json_value& s, const std::string& at) {
  if (!s.is_object()) bad_json_field(at, "expected an object");
  system_report r;
  r.run = system_phase_of(json_member(s, "run", at), at + ".run");
  const json_value& phases = json_member(s, "phases", at);
  if (!phases.is_array()) bad_json_field(at + ".phases", "expected an array");
  for (std::size_t i = 0; i < phases.items().size(); ++i)
    r.phases.push_back(system_phase_of(phases.items()[i], at + ".phases[" + std::to_string(i) + "]"));
  const json_value& findings = json_member(s, "findings", at);
  if (!findings.is_array()) bad_json_field(at + ".findings", "expected an array");
  for (std::size_t i = 0; i < findings.items().size(); ++i) {
    const json_value& f = findings.items()[i];
    const std::string where = at + ".findings[" + std::to_string(i) + "]";
    system_finding x;
    const std::string rule = json_text(f, "rule", where);
    if (const std::optional<system_rule> known = from_string(rule, all_system_rules)) x.rule = *known;
    else bad_json_field(where + ".rule", "unknown rule '" + quote_input(rule) + "'");
    x.phase = json_text(f, "phase", where);
    x.evidence = json_text(f, "evidence", where);
    x.advice = json_text(f, "advice", where);
    x.at_stake_ns = json_count(f, "at_stake_ns", where);
    r.findings.push_back(std::move(x));
  }
  const json_value& kernels = json_member(s, "kernels", at);
  if (!kernels.is_array()) bad_json_field(at + ".kernels", "expected an array");
  for (std::size_t i = 0; i < kernels.items().size(); ++i) {
    const json_value& k = kernels.items()[i];
    const std::string where = at + ".kernels[" + std::to_string(i) + "]";
    kernel_time_share x;
    x.name = json_text(k, "name", where);
    x.count = json_count(k, "count", where);
    x.gpu_ns = json_count(k, "gpu_ns", where);
    x.share = system_share_of(k, where);
    x.top_phase = json_text(k, "top_phase", where);
    r.kernels.push_back(std::move(x));
  }
  const json_value& next = json_member(s, "next_target", at);
  const std::string next_at = at + ".next_target";
  const json_value& kernel = json_member(next, "kernel", next_at);
  if (kernel.is_string()) r.next.kernel = kernel.as_string();
  else if (!kernel.is_null()) bad_json_field(next_at + ".kernel", "expected a string or null");
  r.next.share = system_share_of(next, next_at);
  r.next.reason = json_text(next, "reason", next_at);
  r.next.how = json_text(next, "how", next_at);
  r.records_dropped = json_count(s, "records_dropped", at);
  r.late_records = json_count(s, "late_records", at);
  // Written since the system view counted them; a document without them read 0.
  if (s.find("records_refused") != nullptr) r.records_refused = json_count(s, "records_refused", at);
  if (s.find("records_other_device") != nullptr) r.records_other_device = json_count(s, "records_other_device", at);
  return r;
}

}  // namespace detail

// The monitor report in a monitor-report document `doc` (json_read.hpp's read_json_file) read from `file`.
inline monitor_report read_monitor_report(const json_value& doc, const std::string& file) {
  monitor_report r;
  const json_value& m = detail::json_member(doc, "monitor", file);
  const std::string at = file + ": monitor";
  const std::uint64_t device = detail::json_count(m, "device", at);
  if (device > 1000000) detail::bad_json_field(at + ".device", "expected a device index");
  r.device = static_cast<int>(device);
  const std::string idle = detail::json_text(m, "idle_model", at);
  if (const std::optional<idle_model> m = from_string(idle, all_idle_models)) r.idle = *m;
  else detail::bad_json_field(at + ".idle_model", "unknown idle model '" + quote_input(idle) + "'");
  device_totals& d = r.totals;
  d.last_ns = detail::json_count(m, "wall_ns", at);  // first_ns 0: wall_ns() is what the document says
  d.sampled_ns = detail::json_count(m, "sampled_ns", at);
  d.busy_ns = detail::json_count(m, "busy_ns", at);
  d.idle_ns = detail::json_count(m, "idle_ns", at);
  d.dropped_ns = detail::json_count(m, "dropped_ns", at);
  d.samples_kept = detail::json_count(m, "samples_kept", at);
  d.samples_dropped = detail::json_count(m, "samples_dropped", at);
  d.setup_samples_dropped = detail::json_count(m, "setup_samples_dropped", at);
  d.late_kernels = detail::json_count(m, "late_kernels", at);
  if (m.find("sm_dropouts") != nullptr) d.sm_dropouts = detail::json_count(m, "sm_dropouts", at);  // newer field
  r.idle_fraction = detail::monitor_reading(m, "idle_fraction", at);
  r.idle_sm_pct = detail::monitor_reading(m, "idle_sm_pct", at);
  r.idle_dram_pct = detail::monitor_reading(m, "idle_dram_pct", at);
  r.idle_dram_bytes = detail::monitor_reading(m, "idle_dram_bytes", at);
  if (const json_value* c = doc.find("context"); c != nullptr && c->is_object()) {
    const auto text = [c](const char* field, std::optional<std::string>& out) {
      const json_value* v = c->find(field);
      if (v != nullptr && v->is_string()) out = v->as_string();
    };
    const auto integer = [c](const char* field, std::optional<std::int64_t>& out) {
      const json_value* v = c->find(field);
      if (v == nullptr || !v->is_number()) return;
      const double x = v->as_number();
      if (std::fabs(x) < 1e15 && x == std::floor(x)) out = static_cast<std::int64_t>(x);
    };
    text("host", r.context.host);
    integer("rank", r.context.rank);
    integer("world_size", r.context.world_size);
    integer("local_rank", r.context.local_rank);
    integer("device_index", r.context.device_index);
    text("device_name", r.context.device_name);
    text("device_pci_bus_id", r.context.device_pci_bus_id);
    text("device_uuid", r.context.device_uuid);
  }
  const json_value& rows = detail::json_member(doc, "rows", file);
  if (!rows.is_array()) detail::bad_json_field(file + ": rows", "expected an array");
  for (std::size_t i = 0; i < rows.items().size(); ++i) {
    const std::string where = file + ": rows[" + std::to_string(i) + "]";
    const std::string by = detail::json_text(rows.items()[i], "by", where);
    monitor_row row = detail::monitor_row_of(rows.items()[i], where);
    if (by == "phase") r.phases.push_back(std::move(row));
    else if (by == "path") r.paths.push_back(std::move(row));
    else if (by == "kernel") r.kernels.push_back(std::move(row));
    else detail::bad_json_field(where + ".by", "expected phase, path or kernel, got '" + quote_input(by) + "'");
  }
  if (const json_value* system = doc.find("system"))
    r.system = detail::system_report_of(*system, file + ": system");
  return r;
}

NAPKIN_END_NAMESPACE
