// SPDX-License-Identifier: Apache-2.0
// napkin/report/compare.hpp — two report documents of the same kind compared number by number (what
// `napkin diff OLD.json NEW.json` prints, and a CI regression gate in C++):
//
//   const auto baseline = napkin::read_document_file("tests/baseline.json");  // napkin/report/json_read.hpp
//   const napkin::report_diff d = napkin::diff(baseline, napkin::to_document(report));
//   CHECK_MESSAGE(!d.regressed(), d);  // doctest; EXPECT_FALSE(d.regressed()) << d; with GoogleTest
//
// Entities (kernels, phases, ...) are matched by name; a document kind with one entity per document
// (sol-report, comparison, estimate, occupancy) matches its one entity whatever its name, so a baseline
// "softmax_naive" compares with "softmax_fast". Each number has a better direction (better_direction()):
// a change beyond the threshold (3 % by default) in the worse direction is a regression; a change of a
// number without a direction is shown but never a regression. Verdicts that changed are listed
// ("memory-bound (DRAM) -> balanced"). Outcome: no_regression (exit code 0), regression (1), bad_input (2:
// a document that could not be read, another kind, another GPU, an unknown schema version).
// Noise: an entity that carries its time's noise ("duration_noise_pct", nvbench's relative standard deviation,
// report/nvbench_json_read.hpp) has its time and the rates over that time compared against the larger of the
// threshold and the smaller of the two noises, as nvbench's own nvbench_compare.py calls a change within the
// smaller noise "SAME"; the noise itself is not compared.
//
// Plain C++17, no dependency; compiles with -fno-exceptions (nothing here throws on bad input).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "napkin/document/better.hpp"
#include "napkin/document/document.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

// Which way each compared number improves, by its flattened name (docs/reports.md has the table). Time,
// cycles, bytes moved, passes, napkin's cost and the traffic overhead are better lower, and so are a job's
// GPU time across ranks (min / median / max, compute, communication) and its imbalance (max / median);
// a source line's PC samples lower; throughput %, achieved bandwidth and
// FLOP/s, occupancy and active warps higher; a system phase's idle time and fraction, host time blocked,
// synchronize calls, copy time not overlapped and pageable copy time lower, its copy overlap higher; everything else (counts,
// rank numbers, a monitor row's totals, communication shares) has no direction.
// A report section's number ("sections.<name>.<field>") has the direction its section declares
// (profiler/sections/section_directions.hpp).
inline better better_direction(std::string_view field) {
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

struct diff_options {
  double threshold_pct = 3.0;         // a change within +-3 % is "same" (run-to-run noise of a measurement)
  bool allow_different_gpu = false;   // compare documents about different GPUs (key or chip)
  bool removed_is_regression = false; // an entity of the baseline missing from the new document regresses
  // When not empty, only these fields can make a regression (all are still shown): {"duration_ns"}
  // gates on time alone.
  std::vector<std::string> gate_fields;
};

enum class diff_outcome { no_regression = 0, regression = 1, bad_input = 2 };

constexpr std::string_view to_string(diff_outcome o) noexcept {
  switch (o) {
    case diff_outcome::no_regression: return "no-regression";
    case diff_outcome::regression: return "regression";
    case diff_outcome::bad_input: return "bad-input";
  }
  return "unknown";
}

// same: within the threshold; better / worse: beyond it, in that direction; changed: beyond it, for a
// number without a direction; added / removed: the number is in only one document.
enum class change_status { same, better, worse, changed, added, removed };

constexpr std::string_view to_string(change_status s) noexcept {
  switch (s) {
    case change_status::same: return "same";
    case change_status::better: return "better";
    case change_status::worse: return "worse";
    case change_status::changed: return "changed";
    case change_status::added: return "added";
    case change_status::removed: return "removed";
  }
  return "unknown";
}

struct field_change {
  std::string entity;
  std::string field;
  std::optional<double> old_value, new_value;
  std::optional<double> change_pct;  // (new - old) / |old| x 100; none when either is missing or old is 0
  better direction = better::none;
  change_status status = change_status::same;
  bool regression = false;  // worse, and gated (diff_options::gate_fields)
  std::optional<double> noise_pct;  // the noise the change was held against, where the entities carry one
};

struct verdict_change {
  std::string entity;
  std::string field;  // "sol_table", "ncu_rule", "bound", "limiter"
  std::string old_text, new_text;
};

struct report_diff {
  diff_outcome outcome = diff_outcome::no_regression;
  std::vector<std::string> problems;  // why the input is bad (outcome bad_input)
  std::string kind;
  std::string old_source, new_source;
  double threshold_pct = 3.0;
  std::vector<field_change> changes;  // every compared number, in the new document's order
  std::vector<verdict_change> verdict_changes;
  std::vector<std::string> added, removed;  // entities in only one document

  bool regressed() const { return outcome == diff_outcome::regression; }
  // Whether a change was held against a noise (nvbench's): the summary line says "or the noise".
  bool noise_held() const {
    for (const field_change& c : changes)
      if (c.noise_pct) return true;
    return false;
  }
  bool bad_input() const { return outcome == diff_outcome::bad_input; }
  int exit_code() const { return static_cast<int>(outcome); }
};

namespace detail {

inline bool gated(const diff_options& o, const std::string& field) {
  if (o.gate_fields.empty()) return true;
  for (const auto& f : o.gate_fields)
    if (f == field) return true;
  return false;
}

inline field_change compare_number(const std::string& entity, const std::string& field, std::optional<double> a,
                                   std::optional<double> b, const diff_options& o,
                                   std::optional<double> noise_pct = std::nullopt) {
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

// The noise of a time and of the rates over it ("duration_noise_pct"); none for any other field.
inline constexpr std::string_view duration_noise_field = "duration_noise_pct";
inline bool timed_field(std::string_view field) {
  return field == "duration_ns" || field == "dram_bytes_per_s" || field == "dram_pct" || field == "flop_per_s";
}

// Fields are matched through an index (an entity may carry thousands of metric values: no n^2 search).
inline void compare_entities(const report_entity& a, const report_entity& b, const std::string& name,
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

inline bool single_entity_kind(std::string_view kind) {
  return kind == report_kind::sol_report || kind == report_kind::comparison || kind == report_kind::estimate ||
         kind == report_kind::occupancy;
}

inline std::string gpu_text(const gpu_identity& g) {
  std::string s = !g.key.empty() ? g.key : g.name;
  if (!g.chip.empty()) s += (s.empty() ? "" : ", ") + std::string("chip ") + g.chip;
  return s.empty() ? "unknown GPU" : s;
}

// Both documents name the GPU (key or chip) and the names differ.
inline bool different_gpus(const gpu_identity& a, const gpu_identity& b) {
  return (!a.key.empty() && !b.key.empty() && a.key != b.key) ||
         (!a.chip.empty() && !b.chip.empty() && a.chip != b.chip);
}

}  // namespace detail

// Why `current` cannot be compared with `baseline` for their GPUs, or "": both name the GPU (key or chip)
// and the names differ. The one rule of diff() and of every other comparison of two documents (the CLI's
// `napkin report RUN --baseline BASE`); `allow` (allow_different_gpu) lets them through.
inline std::string validate_same_gpu(const gpu_identity& baseline, const std::string& baseline_source,
                                     const gpu_identity& current, const std::string& current_source,
                                     bool allow = false) {
  if (allow || !detail::different_gpus(baseline, current)) return {};
  return "different GPUs: " + baseline_source + " is about " + detail::gpu_text(baseline) + ", " + current_source +
         " about " + detail::gpu_text(current) + " (allow_different_gpu / --allow-different-gpu compares them anyway)";
}

// `current` against `baseline`. Bad input is reported in the result (outcome bad_input, problems), never
// raised: a document that failed to read (report_document::problem), a schema version other than
// report_schema_version, kinds that differ, GPUs that differ (unless allowed).
inline report_diff diff(const report_document& baseline, const report_document& current, const diff_options& o = {}) {
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

// A change for people, the diff-number form every renderer of a diff uses (text, the CLI, the HTML page):
// old_value_text/new_value_text in the unit of the field's name (named_number: "2.05 ms", "66.90 TFLOP/s"; "-" when
// absent), change_text "+10.0%", "+2.0% (noise 2.42%)" (with the noise it was held against, where the
// entities carry one), "from 0" or "".
inline std::string old_value_text(const field_change& c) { return c.old_value ? named_number(*c.old_value, c.field) : "-"; }
inline std::string new_value_text(const field_change& c) { return c.new_value ? named_number(*c.new_value, c.field) : "-"; }
// A change's status for people: "worse (regression)", "better".
inline std::string status_text(change_status s, bool regression) {
  return std::string(to_string(s)) + (regression ? " (regression)" : "");
}
inline std::string change_text(const field_change& c) {
  if (c.status == change_status::added || c.status == change_status::removed) return "";
  if (!c.change_pct) return c.old_value && *c.old_value == 0 && c.new_value && *c.new_value != 0 ? "from 0" : "";
  return (*c.change_pct > 0 ? "+" : "") + fixed(*c.change_pct, 1) + "%" +
         (c.noise_pct ? " (noise " + percent(*c.noise_pct, 2) + ")" : "");
}

// The table for people: the outcome, then every number that is not "same", verdict changes, and entities
// in only one document. Numbers in the unit their field names (named_number: "2.05 ms", "66.90 TFLOP/s");
// the documents hold them exactly.
inline std::string to_text(const report_diff& d) {
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

inline std::ostream& operator<<(std::ostream& os, const report_diff& d) { return os << to_text(d); }

NAPKIN_END_NAMESPACE
