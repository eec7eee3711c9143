// SPDX-License-Identifier: Apache-2.0
// napkin/document/document.hpp — what every napkin report document has in common (docs/reports.md):
//   - the header every JSON document starts with: "schema" ("napkin.<kind>"), "schema_version" (1),
//     "napkin_version" ("0.1.0"), "kind", "gpu" (key, name, chip, compute capability: what is known) and an
//     optional "context" (host, device, rank);
//   - report_document, the flattened neutral form diff() (report/compare.hpp) works on: the kind, the GPU, and
//     the entities (kernels, phases, measurements, estimates, GPUs), each with its named numbers and
//     verdicts. Serializers make it from a report (to_document) and report/json_read.hpp from JSON text, both
//     through flatten() below, so a report in memory and its JSON file compare as equal.
//
// Plain C++17, no dependency; compiles with -fno-exceptions (problems are returned as text, never thrown).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/json_writer.hpp"
#include "napkin/document/report_context.hpp"

NAPKIN_BEGIN_NAMESPACE

// The version of every napkin document schema this napkin writes and reads (docs/schema/napkin.schema.json).
inline constexpr std::int64_t report_schema_version = 1;

// The document kinds: "schema" is "napkin." followed by the kind.
namespace report_kind {
inline constexpr std::string_view sol_report = "sol-report";          // one measurement (measure(), a scope)
inline constexpr std::string_view kernel_reports = "kernel-reports";  // per_kernel(): one report per kernel
inline constexpr std::string_view phase_reports = "phase-reports";    // watch_phase(): one report per phase
inline constexpr std::string_view comparison = "comparison";          // a measurement against napkin math
inline constexpr std::string_view estimate = "estimate";              // napkin::estimate of a workload
inline constexpr std::string_view occupancy = "occupancy";            // an occupancy result and its next step
inline constexpr std::string_view gpu_specs = "gpu-specs";            // GPU specs (one or a table)
inline constexpr std::string_view monitor_report = "monitor-report";  // napkin::monitor: phases and kernels
// The `napkin` tool's other answers (napkin/report/cli_documents.hpp).
inline constexpr std::string_view estimates = "estimates";            // several estimates: a sweep, GPUs
inline constexpr std::string_view pipes = "pipes";                    // the math pipes
inline constexpr std::string_view dtypes = "dtypes";                  // the element types
inline constexpr std::string_view roofline = "roofline";              // a roofline chart's numbers
inline constexpr std::string_view diff = "diff";                      // two documents compared
inline constexpr std::string_view job = "job";  // a job's ranks and cross-rank table (report/job_documents.hpp)
inline constexpr std::string_view source_lines = "source-lines";  // sample_source_lines: hot lines, PCs, stalls
inline constexpr std::string_view all[] = {sol_report, kernel_reports, phase_reports, comparison, estimate, occupancy,
                                           gpu_specs,  estimates,      pipes,         dtypes,     roofline, diff,
                                           monitor_report, job,            source_lines};
}  // namespace report_kind

// What is known of the GPU a document is about; empty strings are unknown (and left out of the JSON).
struct gpu_identity {
  std::string key;                 // napkin's table key: "h100-sxm"
  std::string name;                // marketing or device name: "H100 SXM5 80GB"
  std::string chip;                // CUPTI chip name: "GH100"
  std::string compute_capability;  // "9.0"
};

// What a caller adds to a document: GPU facts the report does not know (a measurement knows only its
// chip), the context, and a name for the entity of kinds whose value has none (occupancy).
struct document_options {
  gpu_identity gpu;
  report_context context;
  std::string name;
};

// ---------------------------------------------------------------------------------------------------
// The flattened form.

struct report_number {
  std::string field;  // "duration_ns", "cost.total_s", "napkin.traffic_overhead"
  double value = 0;   // finite; a missing or non-finite number is absent from the entity
};

struct report_verdict {
  std::string field;  // "sol_table", "ncu_rule", "bound", "limiter"
  std::string text;   // as a person reads it: "memory-bound (DRAM)"
};

struct report_entity {
  std::string name;  // kernel, phase, measurement, workload or GPU; made unique within a document
  std::vector<report_number> numbers;
  std::vector<report_verdict> verdicts;

  const report_number* number(std::string_view field) const;
  const report_verdict* verdict(std::string_view field) const;
};

struct report_document {
  std::string source;   // where it came from, for messages: a file name, "<string>" or "<memory>"
  std::string problem;  // why it is not a usable document; empty when it is (diff() then gives bad_input)
  std::string schema;   // "napkin.kernel-reports"
  std::int64_t schema_version = 0;
  std::string kind;  // "kernel-reports"
  gpu_identity gpu;
  std::vector<report_entity> entities;

  bool ok() const { return problem.empty(); }
};

namespace detail {

std::string quoted(std::string_view s);

// "a" or "an" before a word: "an estimate", "an occupancy", "a kernel-reports".
const char* a_or_an(std::string_view word);

// The header of every document; the kind's content is added after it.
json_value document_header(std::string_view kind, gpu_identity gpu, const document_options& options);

// Where each kind keeps its entities: the member, and whether it is an array of them or one object.
struct entity_location {
  std::string_view member;
  bool array;
};
entity_location entities_of(std::string_view kind);

// The one check of a measured number, whoever reads one (flatten() below; the napkin tool's run, monitor
// report and rank readers): a time, a byte count, a rate, a clock or a percentage is finite and >= 0, and a
// percentage of a peak is at most max_measured_pct (above 100 only by the counters' own noise). "" or why not.
inline constexpr double max_measured_pct = 1000;
std::string measured_number_problem(double x, bool percentage);

// Whether a member (its last name, "total_s" of "cost.total_s") is a measured quantity by its unit suffix
// (docs/reports.md): _ns, _s (and _per_s), _hz, _bytes, _pct; the last is a percentage.
bool is_measured_member(std::string_view field);
bool is_percentage_member(std::string_view field);

// Members of an entity that are not compared: raw metrics (no known direction), words, samples.
bool is_left_out_of_comparison(std::string_view key);

}  // namespace detail

// The flattened form of a document's JSON value. Checks what diff() relies on: the header (schema,
// version, kind, gpu), the entities' names and verdicts, and their measured numbers (times, bytes, rates,
// clocks, percentages: detail::measured_number_problem); the full shape is the JSON Schema's job. A
// document that fails comes back with `problem` set, prefixed with `source`.
report_document flatten(const json_value& doc, std::string source);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/document/document_impl.hpp"
#endif
