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

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/document/json_writer.hpp"
#include "napkin/document/report_context.hpp"
#include "napkin/text/numbers.hpp"

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

  const report_number* number(std::string_view field) const {
    for (const auto& n : numbers)
      if (n.field == field) return &n;
    return nullptr;
  }
  const report_verdict* verdict(std::string_view field) const {
    for (const auto& v : verdicts)
      if (v.field == field) return &v;
    return nullptr;
  }
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

inline bool is_known_report_kind(std::string_view kind) {
  for (std::string_view k : report_kind::all)
    if (k == kind) return true;
  return false;
}

inline std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// "a" or "an" before a word: "an estimate", "an occupancy", "a kernel-reports".
inline const char* a_or_an(std::string_view word) {
  return !word.empty() && std::string_view("aeiouAEIOU").find(word.front()) != std::string_view::npos ? "an" : "a";
}

// The header of every document; the kind's content is added after it.
inline json_value document_header(std::string_view kind, gpu_identity gpu, const document_options& options) {
  const gpu_identity& given = options.gpu;
  if (!given.key.empty()) gpu.key = given.key;
  if (!given.name.empty()) gpu.name = given.name;
  if (!given.chip.empty()) gpu.chip = given.chip;
  if (!given.compute_capability.empty()) gpu.compute_capability = given.compute_capability;
  json_value doc = json_value::object();
  doc.set("schema", json_value::string("napkin." + std::string(kind)));
  doc.set("schema_version", json_value::count(static_cast<std::uint64_t>(report_schema_version)));
  doc.set("napkin_version", json_value::string(std::to_string(NAPKIN_VERSION_MAJOR) + "." +
                                               std::to_string(NAPKIN_VERSION_MINOR) + "." +
                                               std::to_string(NAPKIN_VERSION_PATCH)));
  doc.set("kind", json_value::string(std::string(kind)));
  json_value g = json_value::object();
  const std::pair<const char*, const std::string*> facts[] = {
      {"key", &gpu.key}, {"name", &gpu.name}, {"chip", &gpu.chip}, {"compute_capability", &gpu.compute_capability}};
  for (const auto& [field, value] : facts)
    if (!value->empty()) g.set(field, json_value::string(*value));
  doc.set("gpu", std::move(g));
  const report_context& c = options.context;
  if (!c.empty()) {
    json_value ctx = json_value::object();
    const auto integer = [&ctx](const char* field, const std::optional<std::int64_t>& v) {
      if (v) ctx.set(field, json_value::number(static_cast<double>(*v)));
    };
    const auto text = [&ctx](const char* field, const std::optional<std::string>& v) {
      if (v) ctx.set(field, json_value::string(*v));
    };
    text("host", c.host);
    integer("rank", c.rank);
    integer("world_size", c.world_size);
    integer("local_rank", c.local_rank);
    integer("device_index", c.device_index);
    text("device_name", c.device_name);
    text("device_pci_bus_id", c.device_pci_bus_id);
    text("device_uuid", c.device_uuid);
    doc.set("context", std::move(ctx));
  }
  return doc;
}

// Where each kind keeps its entities: the member, and whether it is an array of them or one object.
struct entity_location {
  std::string_view member;
  bool array;
};
inline entity_location entities_of(std::string_view kind) {
  if (kind == report_kind::kernel_reports) return {"kernels", true};
  if (kind == report_kind::phase_reports) return {"phases", true};
  if (kind == report_kind::gpu_specs) return {"gpus", true};
  if (kind == report_kind::estimates) return {"estimates", true};
  if (kind == report_kind::pipes) return {"pipes", true};
  if (kind == report_kind::dtypes) return {"dtypes", true};
  if (kind == report_kind::roofline) return {"points", true};
  if (kind == report_kind::monitor_report) return {"rows", true};
  if (kind == report_kind::diff) return {"diff", false};
  if (kind == report_kind::job) return {"table", true};
  if (kind == report_kind::source_lines) return {"rows", true};
  if (kind == report_kind::comparison) return {"comparison", false};
  if (kind == report_kind::estimate) return {"estimate", false};
  if (kind == report_kind::occupancy) return {"occupancy", false};
  return {"report", false};
}

// Entities beside the kind's own: a monitor report's system view ("system", monitor/monitor_documents.hpp)
// has one for the run and one per phase, named "system: <phase>". Returns a problem, or "".
inline std::string more_entities(std::string_view kind, const json_value& doc, std::vector<const json_value*>& items,
                                 std::vector<std::string>& paths) {
  if (kind != report_kind::monitor_report) return {};
  const json_value* system = doc.find("system");
  if (system == nullptr) return {};
  if (!system->is_object()) return "system: expected an object";
  if (const json_value* run = system->find("run")) {
    items.push_back(run);
    paths.push_back("system.run");
  }
  if (const json_value* phases = system->find("phases")) {
    if (!phases->is_array()) return "system.phases: expected an array";
    for (std::size_t i = 0; i < phases->items().size(); ++i) {
      items.push_back(&phases->items()[i]);
      paths.push_back("system.phases[" + std::to_string(i) + "]");
    }
  }
  return {};
}

// The one check of a measured number, whoever reads one (flatten() below; the napkin tool's run, monitor
// report and rank readers): a time, a byte count, a rate, a clock or a percentage is finite and >= 0, and a
// percentage of a peak is at most max_measured_pct (above 100 only by the counters' own noise). "" or why not.
inline constexpr double max_measured_pct = 1000;
inline std::string measured_number_problem(double x, bool percentage) {
  if (!(x >= 0)) return "must not be negative, got " + general(x);
  if (!std::isfinite(x)) return "must be finite, got " + general(x);
  if (percentage && x > max_measured_pct) return "a percentage above 1000, got " + general(x);
  return {};
}

// Whether a member (its last name, "total_s" of "cost.total_s") is a measured quantity by its unit suffix
// (docs/reports.md): _ns, _s (and _per_s), _hz, _bytes, _pct; the last is a percentage.
inline bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
inline bool is_measured_member(std::string_view field) {
  field = field.substr(field.rfind('.') == std::string_view::npos ? 0 : field.rfind('.') + 1);
  for (std::string_view unit : {"_ns", "_s", "_hz", "_bytes", "_pct"})
    if (has_suffix(field, unit)) return true;
  return false;
}
inline bool is_percentage_member(std::string_view field) { return has_suffix(field, "_pct"); }

// Members of an entity that are not compared: raw metrics (no known direction), words, samples.
inline bool is_left_out_of_comparison(std::string_view key) {
  return key == "values" || key == "derived" || key == "derivations" || key == "pass_samples" || key == "workload_types";
}

// An entity's numbers: its numeric members and those of its object members, named by their path
// ("cost.total_s"); arrays and the members above are left out. Its verdicts: each member of "verdicts"
// (an object with "text"). Returns a problem, or "".
inline std::string flatten_entity(const json_value& e, const std::string& path, report_entity& out) {
  if (!e.is_object()) return path + ": expected an object, got " + std::string(to_string(e.kind()));
  const json_value* name = e.find("name");
  if (name == nullptr || !name->is_string()) return path + ".name: expected a string";
  out.name = name->as_string();
  struct walker {
    report_entity& out;
    std::string walk(const json_value& obj, const std::string& prefix, const std::string& where) {
      for (std::size_t i = 0; i < obj.keys().size(); ++i) {
        const std::string& key = obj.keys()[i];
        const json_value& v = obj.items()[i];
        if (prefix.empty() && key == "verdicts") {
          if (!v.is_object()) return where + ".verdicts: expected an object";
          for (std::size_t k = 0; k < v.keys().size(); ++k) {
            const json_value& verdict = v.items()[k];
            if (verdict.is_null()) continue;
            const json_value* text = verdict.find("text");
            if (text == nullptr || !text->is_string())
              return where + ".verdicts." + v.keys()[k] + ": expected an object with a string \"text\"";
            out.verdicts.push_back({v.keys()[k], text->as_string()});
          }
        } else if (is_left_out_of_comparison(key)) {
          continue;
        } else if (v.is_number()) {
          out.numbers.push_back({prefix + key, v.as_number()});
        } else if (v.is_object()) {
          std::string problem = walk(v, prefix + key + ".", where + "." + key);
          if (!problem.empty()) return problem;
        }
      }
      return {};
    }
  };
  return walker{out}.walk(e, "", path);
}

}  // namespace detail

// The flattened form of a document's JSON value. Checks what diff() relies on: the header (schema,
// version, kind, gpu), the entities' names and verdicts, and their measured numbers (times, bytes, rates,
// clocks, percentages: detail::measured_number_problem); the full shape is the JSON Schema's job. A
// document that fails comes back with `problem` set, prefixed with `source`.
inline report_document flatten(const json_value& doc, std::string source) {
  report_document out;
  out.source = std::move(source);
  const auto fail = [&out](const std::string& what) {
    out.problem = out.source + ": " + what;
    out.entities.clear();
    return out;
  };
  if (!doc.is_object()) return fail("expected a JSON object, got " + std::string(to_string(doc.kind())));
  const json_value* schema = doc.find("schema");
  if (schema == nullptr) return fail("no \"schema\": not a napkin report document");
  if (!schema->is_string() || schema->as_string().rfind("napkin.", 0) != 0)
    return fail("\"schema\" must be a string \"napkin.<kind>\"");
  out.schema = schema->as_string();
  const json_value* version = doc.find("schema_version");
  if (version == nullptr) return fail("no \"schema_version\"");
  // Range first: converting a double beyond int64 to an integer is undefined.
  const double v = version->is_number() ? version->as_number() : 0.5;
  if (!(v >= -1e15 && v <= 1e15) || v != std::floor(v)) return fail("\"schema_version\" must be an integer");
  out.schema_version = static_cast<std::int64_t>(v);
  if (out.schema_version != report_schema_version)
    return fail("unknown schema_version " + std::to_string(out.schema_version) + " (this napkin reads version " +
                std::to_string(report_schema_version) + ")");
  const json_value* kind = doc.find("kind");
  if (kind == nullptr || !kind->is_string()) return fail("no string \"kind\"");
  out.kind = kind->as_string();
  if (!detail::is_known_report_kind(out.kind)) return fail("unknown kind " + detail::quoted(out.kind));
  if (out.schema != "napkin." + out.kind)
    return fail("\"schema\" " + detail::quoted(out.schema) + " does not match \"kind\" " + detail::quoted(out.kind));
  const json_value* gpu = doc.find("gpu");
  if (gpu == nullptr || !gpu->is_object()) return fail("no \"gpu\" object");
  const std::pair<const char*, std::string*> facts[] = {{"key", &out.gpu.key},
                                                        {"name", &out.gpu.name},
                                                        {"chip", &out.gpu.chip},
                                                        {"compute_capability", &out.gpu.compute_capability}};
  for (const auto& [field, target] : facts) {
    const json_value* v = gpu->find(field);
    if (v == nullptr) continue;
    if (!v->is_string()) return fail(std::string("gpu.") + field + ": expected a string");
    *target = v->as_string();
  }
  const detail::entity_location where = detail::entities_of(out.kind);
  const std::string member(where.member);
  const json_value* content = doc.find(member);
  if (content == nullptr)
    return fail("no " + detail::quoted(member) + " (" + detail::a_or_an(out.kind) + " " + out.kind + " document has one)");
  std::vector<const json_value*> items;
  std::vector<std::string> paths;
  if (where.array) {
    if (!content->is_array()) return fail(member + ": expected an array");
    for (const json_value& item : content->items()) {
      paths.push_back(member + "[" + std::to_string(items.size()) + "]");
      items.push_back(&item);
    }
  } else {
    items.push_back(content);
    paths.push_back(member);
  }
  if (std::string problem = detail::more_entities(out.kind, doc, items, paths); !problem.empty()) return fail(problem);
  // The same kernel launched twice: the second is "name #2", so entities match by name one to one. A
  // suffixed name that is taken (a kernel really named "k #2") moves on to " #3" and up: every name the
  // document holds is reserved first, so that k, k, "k #2" and k, "k #2", k give the same three names.
  std::set<std::string> taken;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json_value* name = items[i]->is_object() ? items[i]->find("name") : nullptr;
    if (name != nullptr && name->is_string()) taken.insert(name->as_string());
  }
  std::map<std::string, std::size_t> seen;  // raw name -> launches so far
  for (std::size_t i = 0; i < items.size(); ++i) {
    report_entity e;
    const std::string& path = paths[i];
    std::string problem = detail::flatten_entity(*items[i], path, e);
    if (!problem.empty()) return fail(problem);
    // What was measured or estimated cannot be negative, infinite or a percentage of 10^308; a diff
    // document's numbers are changes, which can.
    if (out.kind != report_kind::diff)
      for (const report_number& n : e.numbers)
        if (detail::is_measured_member(n.field))
          if (std::string bad = detail::measured_number_problem(n.value, detail::is_percentage_member(n.field)); !bad.empty())
            return fail(path + "." + n.field + ": " + bad);
    const std::size_t before = seen[e.name]++;
    if (before > 0) {
      std::size_t n = before + 1;
      while (taken.count(e.name + " #" + std::to_string(n)) != 0) ++n;
      e.name += " #" + std::to_string(n);
      taken.insert(e.name);
    }
    out.entities.push_back(std::move(e));
  }
  return out;
}

NAPKIN_END_NAMESPACE
