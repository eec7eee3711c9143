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

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/better.hpp"
#include "napkin/document/document.hpp"
#include "napkin/text/printable.hpp"

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
better better_direction(std::string_view field);

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

field_change compare_number(const std::string& entity, const std::string& field, std::optional<double> a,
                            std::optional<double> b, const diff_options& o,
                            std::optional<double> noise_pct = std::nullopt);

// The noise of a time and of the rates over it ("duration_noise_pct"); none for any other field.
inline constexpr std::string_view duration_noise_field = "duration_noise_pct";

}  // namespace detail

// Why `current` cannot be compared with `baseline` for their GPUs, or "": both name the GPU (key or chip)
// and the names differ. The one rule of diff() and of every other comparison of two documents (the CLI's
// `napkin report RUN --baseline BASE`); `allow` (allow_different_gpu) lets them through.
std::string validate_same_gpu(const gpu_identity& baseline, const std::string& baseline_source,
                              const gpu_identity& current, const std::string& current_source,
                              bool allow = false);

// `current` against `baseline`. Bad input is reported in the result (outcome bad_input, problems), never
// raised: a document that failed to read (report_document::problem), a schema version other than
// report_schema_version, kinds that differ, GPUs that differ (unless allowed).
report_diff diff(const report_document& baseline, const report_document& current, const diff_options& o = {});

// A change for people, the diff-number form every renderer of a diff uses (text, the CLI, the HTML page):
// old_value_text/new_value_text in the unit of the field's name (named_number: "2.05 ms", "66.90 TFLOP/s"; "-" when
// absent), change_text "+10.0%", "+2.0% (noise 2.42%)" (with the noise it was held against, where the
// entities carry one), "from 0" or "".
std::string old_value_text(const field_change& c);
std::string new_value_text(const field_change& c);
// A change's status for people: "worse (regression)", "better".
std::string status_text(change_status s, bool regression);
std::string change_text(const field_change& c);

// The table for people: the outcome, then every number that is not "same", verdict changes, and entities
// in only one document. Numbers in the unit their field names (named_number: "2.05 ms", "66.90 TFLOP/s");
// the documents hold them exactly.
std::string to_text(const report_diff& d);

std::ostream& operator<<(std::ostream& os, const report_diff& d);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/compare_impl.hpp"
#endif
