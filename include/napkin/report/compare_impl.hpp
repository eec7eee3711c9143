// SPDX-License-Identifier: Apache-2.0
// Two report documents compared (napkin/report/compare.hpp): the function bodies. Included by compare.hpp (header-
// only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <unordered_map>

#include "napkin/report/compare.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC better better_direction(std::string_view field) {
  if (field.substr(0, 9) == "sections.") return section_field_direction(field);
  static constexpr std::string_view lower[] = {
      "duration_ns",     "elapsed_cycles",  "dram_bytes",     "passes",         "cost.enable_s",
      "cost.setup_s",    "cost.passes_s",   "cost.flush_s",   "cost.cupti_s",   "cost.work_s",
      "cost.decode_s",   "cost.total_s",    "napkin.time_over_bound", "napkin.traffic_overhead",
      "compute_s",       "memory_s",        "lower_bound_s",  "no_overlap_s",   "workload.bytes",
      "mean_ns",         "dram_bytes_per_complete_launch",
      "min_ns",          "median_ns",       "max_ns",         "imbalance",      "compute_ns",
      "communication_ns",
      // source-lines rows (report/source_lines_documents.hpp): a function's, line's or PC's PC samples; fewer
      // is less time spent there. A row's share has no direction: shares add up to 100 %, so a fix of the hot
      // line raises every untouched line's share, which is not a regression.
      "samples",         "not_issued_samples",
      // the system view's phases (system/system_documents.hpp): GPU idle time, host time blocked in
      // synchronizing calls and their count, copy time not overlapping kernels, copies from pageable memory
      "idle_ns",         "idle_fraction",   "host_blocked_ns", "syncs",          "copy_not_overlapped_ns",
      "pageable_copy_ns"};
  // sm_pct_upper (a monitor row's bound on SM %) has no direction: a lower bound is a tighter range, not a
  // slower kernel.
  static constexpr std::string_view higher[] = {
      "sm_pct",       "memory_pct",           "dram_pct",      "l1tex_pct",      "l2_pct",       "l2_slices_pct",
      "dram_bytes_per_s", "flop_per_s",       "napkin.bandwidth_of_peak", "napkin.flops_of_peak",
      "attainable_flop_per_s", "occupancy_pct", "active_warps",  "active_threads", "blocks_per_sm",
      "copy_overlap_fraction"};
  for (std::string_view f : lower)
    if (f == field) return better::lower;
  for (std::string_view f : higher)
    if (f == field) return better::higher;
  return better::none;
}

namespace detail {

NAPKIN_DETAIL_FUNC bool gated(const diff_options& o, const std::string& field) {
  if (o.gate_fields.empty()) return true;
  for (const auto& f : o.gate_fields)
    if (f == field) return true;
  return false;
}

NAPKIN_DETAIL_FUNC field_change compare_number(const std::string& entity, const std::string& field,
                                               std::optional<double> a, std::optional<double> b,
                                               const diff_options& o, std::optional<double> noise_pct) {
  field_change c{entity, field, a, b, std::nullopt, better_direction(field), change_status::same, false, noise_pct};
  if (!a || !b) {
    c.status = a ? change_status::removed : change_status::added;
    return c;
  }
  if (*a == *b) return c;
  double pct = 0;
  if (*a != 0) {
    pct = (*b - *a) / std::fabs(*a) * 100.0;
    c.change_pct = pct;
  }
  const bool beyond = *a == 0 || std::fabs(pct) > std::max(o.threshold_pct, noise_pct.value_or(0.0));
  if (!beyond) return c;
  if (c.direction == better::none) {
    c.status = change_status::changed;
    return c;
  }
  const bool up = *b > *a;
  c.status = (up == (c.direction == better::higher)) ? change_status::better : change_status::worse;
  c.regression = c.status == change_status::worse && gated(o, field);
  return c;
}

NAPKIN_DETAIL_FUNC bool timed_field(std::string_view field) {
  return field == "duration_ns" || field == "dram_bytes_per_s" || field == "dram_pct" || field == "flop_per_s";
}

// Fields are matched through an index (an entity may carry thousands of metric values: no n^2 search).
NAPKIN_DETAIL_FUNC void compare_entities(const report_entity& a, const report_entity& b, const std::string& name,
                                         const diff_options& o, report_diff& out) {
  std::unordered_map<std::string_view, const report_number*> old_numbers, new_numbers;
  for (const auto& n : a.numbers) old_numbers.try_emplace(n.field, &n);
  for (const auto& n : b.numbers) new_numbers.try_emplace(n.field, &n);
  // The smaller noise of the two, or the one there is (nvbench_compare.py's rule).
  std::optional<double> noise;
  for (const auto* numbers : {&old_numbers, &new_numbers})
    if (const auto it = numbers->find(duration_noise_field); it != numbers->end())
      noise = noise ? std::min(*noise, it->second->value) : it->second->value;
  const auto noise_of = [&noise](std::string_view field) { return timed_field(field) ? noise : std::nullopt; };
  for (const auto& n : b.numbers) {
    if (n.field == duration_noise_field) continue;
    const auto old = old_numbers.find(n.field);
    const std::optional<double> old_value =
        old != old_numbers.end() ? std::optional<double>(old->second->value) : std::nullopt;
    out.changes.push_back(compare_number(name, n.field, old_value, n.value, o, noise_of(n.field)));
  }
  for (const auto& n : a.numbers)
    if (new_numbers.count(n.field) == 0 && n.field != duration_noise_field)
      out.changes.push_back(compare_number(name, n.field, n.value, std::nullopt, o, noise_of(n.field)));
  for (const auto& v : b.verdicts) {
    const report_verdict* old = a.verdict(v.field);
    if (old != nullptr && old->text != v.text) out.verdict_changes.push_back({name, v.field, old->text, v.text});
  }
}

NAPKIN_DETAIL_FUNC bool single_entity_kind(std::string_view kind) {
  return kind == report_kind::sol_report || kind == report_kind::comparison || kind == report_kind::estimate ||
         kind == report_kind::occupancy;
}

NAPKIN_DETAIL_FUNC std::string gpu_text(const gpu_identity& g) {
  std::string s = !g.key.empty() ? g.key : g.name;
  if (!g.chip.empty()) s += (s.empty() ? "" : ", ") + std::string("chip ") + g.chip;
  return s.empty() ? "unknown GPU" : s;
}

// Both documents name the GPU (key or chip) and the names differ.
NAPKIN_DETAIL_FUNC bool different_gpus(const gpu_identity& a, const gpu_identity& b) {
  return (!a.key.empty() && !b.key.empty() && a.key != b.key) ||
         (!a.chip.empty() && !b.chip.empty() && a.chip != b.chip);
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string validate_same_gpu(const gpu_identity& baseline, const std::string& baseline_source,
                                                 const gpu_identity& current, const std::string& current_source,
                                                 bool allow) {
  if (allow || !detail::different_gpus(baseline, current)) return {};
  return "different GPUs: " + baseline_source + " is about " + detail::gpu_text(baseline) + ", " + current_source +
         " about " + detail::gpu_text(current) + " (allow_different_gpu / --allow-different-gpu compares them anyway)";
}

NAPKIN_DETAIL_FUNC report_diff diff(const report_document& baseline, const report_document& current,
                                    const diff_options& o) {
  report_diff d;
  d.old_source = baseline.source;
  d.new_source = current.source;
  d.kind = current.kind;
  d.threshold_pct = o.threshold_pct;
  for (const report_document* doc : {&baseline, &current}) {
    if (!doc->ok())
      d.problems.push_back(doc->problem);
    else if (doc->schema_version != report_schema_version)
      d.problems.push_back(doc->source + ": unknown schema_version " + std::to_string(doc->schema_version) +
                           " (this napkin reads version " + std::to_string(report_schema_version) + ")");
  }
  if (!(o.threshold_pct >= 0) || !std::isfinite(o.threshold_pct))
    d.problems.push_back("the threshold must be a finite percentage >= 0, got " + general(o.threshold_pct));
  if (d.problems.empty() && baseline.kind != current.kind)
    d.problems.push_back("different kinds: " + baseline.source + " is " + detail::a_or_an(baseline.kind) + " " +
                         detail::quoted(baseline.kind) + " document, " + current.source + " " +
                         detail::a_or_an(current.kind) + " " + detail::quoted(current.kind) +
                         " document; only documents of the same kind compare");
  if (d.problems.empty()) {
    std::string gpus =
        validate_same_gpu(baseline.gpu, baseline.source, current.gpu, current.source, o.allow_different_gpu);
    if (!gpus.empty()) d.problems.push_back(std::move(gpus));
  }
  if (!d.problems.empty()) {
    d.outcome = diff_outcome::bad_input;
    return d;
  }

  const bool one_to_one = detail::single_entity_kind(current.kind) && baseline.entities.size() == 1 &&
                          current.entities.size() == 1;
  // Entities match by name through an index (the last of a name, as a search from the front would find).
  std::unordered_map<std::string_view, const report_entity*> old_by_name, new_by_name;
  for (const report_entity& e : baseline.entities) old_by_name[e.name] = &e;
  for (const report_entity& e : current.entities) new_by_name[e.name] = &e;
  for (const report_entity& b : current.entities) {
    const report_entity* a = nullptr;
    if (one_to_one) {
      a = &baseline.entities.front();
    } else if (const auto it = old_by_name.find(b.name); it != old_by_name.end()) {
      a = it->second;
    }
    if (a == nullptr) {
      d.added.push_back(b.name);
      continue;
    }
    const std::string name = a->name == b.name ? b.name : a->name + " -> " + b.name;
    detail::compare_entities(*a, b, name, o, d);
  }
  if (!one_to_one)
    for (const report_entity& a : baseline.entities)
      if (new_by_name.count(a.name) == 0) d.removed.push_back(a.name);
  bool regressed = o.removed_is_regression && !d.removed.empty();
  for (const auto& c : d.changes) regressed = regressed || c.regression;
  d.outcome = regressed ? diff_outcome::regression : diff_outcome::no_regression;
  return d;
}

NAPKIN_DETAIL_FUNC std::string old_value_text(const field_change& c) {
  return c.old_value ? named_number(*c.old_value, c.field) : "-";
}

NAPKIN_DETAIL_FUNC std::string new_value_text(const field_change& c) {
  return c.new_value ? named_number(*c.new_value, c.field) : "-";
}

NAPKIN_DETAIL_FUNC std::string status_text(change_status s, bool regression) {
  return std::string(to_string(s)) + (regression ? " (regression)" : "");
}

NAPKIN_DETAIL_FUNC std::string change_text(const field_change& c) {
  if (c.status == change_status::added || c.status == change_status::removed) return "";
  if (!c.change_pct) return c.old_value && *c.old_value == 0 && c.new_value && *c.new_value != 0 ? "from 0" : "";
  return (*c.change_pct > 0 ? "+" : "") + fixed(*c.change_pct, 1) + "%" +
         (c.noise_pct ? " (noise " + percent(*c.noise_pct, 2) + ")" : "");
}

NAPKIN_DETAIL_FUNC std::string to_text(const report_diff& d) {
  std::string out = "napkin diff: " + std::string(to_string(d.outcome));
  if (d.bad_input()) {
    for (const auto& p : d.problems) out += "\n  bad input: " + printable(p);
    return out + "\n";
  }
  out += " (" + printable(d.kind) + ", " + printable(d.old_source) + " -> " +
         printable(d.new_source) + ", threshold " +
         fixed(d.threshold_pct, 1) + "%)\n";
  std::size_t same = 0;
  text_table t;
  t.column("entity", text_table::align::left);
  t.column("field", text_table::align::left);
  t.column("old");
  t.column("new");
  t.column("change");
  t.column("status", text_table::align::left);
  for (const auto& c : d.changes) {
    if (c.status == change_status::same) {
      ++same;
      continue;
    }
    t.row({printable(c.entity), printable(c.field), old_value_text(c), new_value_text(c), change_text(c),
           status_text(c.status, c.regression)});
  }
  if (!t.empty()) out += t.text("  ");
  out += "  " + std::to_string(same) + " of " + std::to_string(d.changes.size()) + " numbers within " +
         fixed(d.threshold_pct, 1) + "%" + (d.noise_held() ? " or their noise" : "") + "\n";
  for (const auto& v : d.verdict_changes)
    out += "  verdict " + printable(v.entity) + " " + printable(v.field) + ": " +
           printable(v.old_text) + " -> " + printable(v.new_text) + "\n";
  for (const auto& a : d.added) out += "  added: " + printable(a) + "\n";
  for (const auto& r : d.removed) out += "  removed: " + printable(r) + "\n";
  return out;
}

NAPKIN_DETAIL_FUNC std::ostream& operator<<(std::ostream& os, const report_diff& d) { return os << to_text(d); }

NAPKIN_END_NAMESPACE
