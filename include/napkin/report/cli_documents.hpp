// SPDX-License-Identifier: Apache-2.0
// napkin/report/cli_documents.hpp — the `napkin` tool's answers that the other report types do not
// cover, as JSON documents and CSV tables (docs/reports.md lists the fields):
//   estimate_set     "napkin.estimates"  several estimates: a size sweep and/or a GPU comparison
//   pipe_catalog     "napkin.pipes"      the math pipes, and which GPUs of a table have a peak for each
//   dtype_catalog    "napkin.dtypes"     the element types: bytes, default accumulator, default pipes
//   roofline_chart   "napkin.roofline"   a chart's numbers: ceilings, ridges, points, pairs (not the SVG)
//   report_diff      "napkin.diff"       two documents compared (compare.hpp)
// Each has document_value, to_json, to_document and to_csv, like math_documents.hpp.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/math/dtype.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/math_documents.hpp"
#include "napkin/report/roofline_chart.hpp"

NAPKIN_BEGIN_NAMESPACE

// A case of a sweep or comparison without an estimate: the GPU has no peak for the pipe.
struct unavailable_estimate {
  std::string name;  // the workload
  std::string gpu;   // the GPU's key
  pipe on = pipe::fp32;
  std::string reason;  // "no bf16-tc peak"
};

struct estimate_set {
  std::vector<estimate_report> estimates;  // names unique within the set (diff() matches them by name)
  std::vector<unavailable_estimate> unavailable;
};

// The pipes, and which GPUs of `gpus` have a peak for each (napkin's table by default).
struct pipe_catalog {
  std::vector<gpu_spec> gpus;
};

// What napkin does with an element type when nothing else is said.
struct dtype_facts {
  dtype type = dtype::fp32;
  std::uint64_t bytes = 0;
  dtype accumulate = dtype::fp32;     // default_accumulate()
  std::optional<pipe> matrix_pipe;    // a matrix product's default pipe; none: no peak (give a pipe)
  std::optional<pipe> vector_pipe;    // other work's default pipe (the accumulate type's CUDA cores)
};

// The rules of napkin::default_pipe() for each input type with its default accumulator.
inline dtype_facts facts_of(dtype d) {
  dtype_facts f{d, bytes_per_element(d), default_accumulate(d), std::nullopt, std::nullopt};
  if (d == dtype::fp32) f.matrix_pipe = pipe::fp32;  // fp32 GEMM runs on the CUDA cores (tf32: tensor cores)
  else if (d != dtype::int32) f.matrix_pipe = tensor_pipe(d, f.accumulate);
  if (f.accumulate != dtype::int32) f.vector_pipe = napkin::vector_pipe(f.accumulate);
  return f;
}

struct dtype_catalog {
  std::vector<dtype> types{dtype::fp64, dtype::fp32, dtype::tf32, dtype::fp16,
                           dtype::bf16, dtype::fp8,  dtype::int8, dtype::int32};
};

namespace detail {

inline json_value string_or_null(const std::optional<pipe>& p) {
  return p ? json_value::string(std::string(to_string(*p))) : json_value();
}
inline std::string pipe_cell(const std::optional<pipe>& p) { return p ? std::string(to_string(*p)) : std::string(); }

inline std::vector<std::string> gpus_with(const std::vector<gpu_spec>& gpus, pipe p) {
  std::vector<std::string> keys;
  for (const gpu_spec& g : gpus)
    if (g.has(p)) keys.emplace_back(g.key);
  return keys;
}

inline std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : separator) + i;
  return s;
}

inline json_value pipe_names_value(const std::vector<pipe>& pipes) {
  json_value a = json_value::array();
  for (pipe p : pipes) a.push(json_value::string(std::string(to_string(p))));
  return a;
}

inline json_value optional_or_null(const std::optional<double>& v) {
  return v ? json_value::number(*v) : json_value();
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// The documents.

// The header's "gpu" names the GPU when every estimate is on the same one.
inline json_value document_value(const estimate_set& s, const document_options& options = {}) {
  gpu_identity gpu;
  bool one_gpu = !s.estimates.empty();
  for (const estimate_report& e : s.estimates) one_gpu = one_gpu && e.gpu.key == s.estimates.front().gpu.key;
  if (one_gpu) gpu = detail::identity_of(s.estimates.front().gpu);
  json_value doc = detail::document_header(report_kind::estimates, gpu, options);
  json_value all = json_value::array();
  for (const estimate_report& e : s.estimates) all.push(detail::estimate_value(e));
  doc.set("estimates", std::move(all));
  json_value missing = json_value::array();
  for (const unavailable_estimate& u : s.unavailable) {
    json_value m = json_value::object();
    m.set("name", json_value::string(u.name));
    m.set("gpu", json_value::string(u.gpu));
    m.set("pipe", json_value::string(std::string(to_string(u.on))));
    m.set("reason", json_value::string(u.reason));
    missing.push(std::move(m));
  }
  doc.set("unavailable", std::move(missing));
  return doc;
}

inline json_value document_value(const pipe_catalog& c, const document_options& options = {}) {
  json_value doc = detail::document_header(report_kind::pipes, {}, options);
  json_value pipes = json_value::array();
  for (pipe p : all_pipes) {
    json_value v = json_value::object();
    v.set("name", json_value::string(std::string(to_string(p))));
    v.set("text", json_value::string(std::string(describe(p))));
    v.set("tensor", json_value::boolean(is_tensor(p)));
    const std::vector<std::string> keys = detail::gpus_with(c.gpus, p);
    v.set("gpu_count", json_value::count(keys.size()));
    json_value list = json_value::array();
    for (const std::string& k : keys) list.push(json_value::string(k));
    v.set("gpus", std::move(list));
    pipes.push(std::move(v));
  }
  doc.set("pipes", std::move(pipes));
  return doc;
}

inline json_value document_value(const dtype_catalog& c, const document_options& options = {}) {
  json_value doc = detail::document_header(report_kind::dtypes, {}, options);
  json_value types = json_value::array();
  for (dtype d : c.types) {
    const dtype_facts f = facts_of(d);
    json_value v = json_value::object();
    v.set("name", json_value::string(std::string(to_string(d))));
    v.set("bytes", json_value::count(f.bytes));
    v.set("accumulate", json_value::string(std::string(to_string(f.accumulate))));
    v.set("matrix_pipe", detail::string_or_null(f.matrix_pipe));
    v.set("vector_pipe", detail::string_or_null(f.vector_pipe));
    types.push(std::move(v));
  }
  doc.set("dtypes", std::move(types));
  return doc;
}

// "roofline": the GPU, its ceilings (highest first), memory levels, ridges and the pairs (indices into
// "points"); "points": each point, named by its label. The same layout to_svg draws (layout_roofline).
inline json_value document_value(const roofline_chart& c, const document_options& options = {}) {
  const roofline_layout l = layout_roofline(c);
  json_value doc = detail::document_header(report_kind::roofline, detail::identity_of(c.gpu), options);
  json_value chart = json_value::object();
  chart.set("title", json_value::string(c.title));
  json_value ceilings = json_value::array();
  for (const compute_ceiling& k : l.ceilings) {
    json_value v = json_value::object();
    v.set("pipes", detail::pipe_names_value(k.pipes));
    v.set("peak_flop_per_s", json_value::number(k.peak_flops));
    ceilings.push(std::move(v));
  }
  chart.set("ceilings", std::move(ceilings));
  json_value memory = json_value::array();
  for (const bandwidth_ceiling& m : c.memory) {
    json_value v = json_value::object();
    v.set("name", json_value::string(m.name));
    v.set("bytes_per_s", json_value::number(m.bytes_per_s));
    memory.push(std::move(v));
  }
  chart.set("memory", std::move(memory));
  json_value ridges = json_value::array();
  for (const ridge_mark& r : l.ridges) {
    json_value v = json_value::object();
    v.set("pipes", detail::pipe_names_value(l.ceilings[r.ceiling].pipes));
    v.set("memory", json_value::string(c.memory[r.memory].name));
    v.set("intensity_flop_per_byte", json_value::number(r.intensity));
    v.set("flop_per_s", json_value::number(r.flops));
    ridges.push(std::move(v));
  }
  chart.set("ridges", std::move(ridges));
  json_value pairs = json_value::array();
  for (const roofline_pair& p : c.pairs) {
    json_value v = json_value::object();
    v.set("before", json_value::count(p.before));
    v.set("after", json_value::count(p.after));
    pairs.push(std::move(v));
  }
  chart.set("pairs", std::move(pairs));
  doc.set("roofline", std::move(chart));
  json_value points = json_value::array();
  for (const roofline_point& p : c.points) {
    json_value v = json_value::object();
    v.set("name", json_value::string(p.label));
    v.set("source", json_value::string(std::string(to_string(p.source))));
    v.set("intensity_flop_per_byte", json_value::number(p.intensity));
    v.set("flop_per_s", json_value::number(p.flops_per_s));
    points.push(std::move(v));
  }
  doc.set("points", std::move(points));
  return doc;
}

// "diff": the outcome (with its verdict), the problems of bad input, every compared number, the verdict
// changes and the entities in only one document. The header's "gpu" is the new document's when known.
inline json_value document_value(const report_diff& d, const document_options& options = {}) {
  json_value doc = detail::document_header(report_kind::diff, {}, options);
  json_value v = json_value::object();
  v.set("name", json_value::string(d.old_source + " -> " + d.new_source));
  v.set("outcome", json_value::string(std::string(to_string(d.outcome))));
  v.set("exit_code", json_value::count(static_cast<std::uint64_t>(d.exit_code())));
  v.set("compared_kind", d.kind.empty() ? json_value() : json_value::string(d.kind));
  v.set("old_source", json_value::string(d.old_source));
  v.set("new_source", json_value::string(d.new_source));
  v.set("threshold_pct", json_value::number(d.threshold_pct));
  json_value problems = json_value::array();
  for (const std::string& p : d.problems) problems.push(json_value::string(p));
  v.set("problems", std::move(problems));
  json_value changes = json_value::array();
  for (const field_change& c : d.changes) {
    json_value x = json_value::object();
    x.set("entity", json_value::string(c.entity));
    x.set("field", json_value::string(c.field));
    x.set("old", detail::optional_or_null(c.old_value));
    x.set("new", detail::optional_or_null(c.new_value));
    x.set("change_pct", detail::optional_or_null(c.change_pct));
    x.set("better", json_value::string(std::string(to_string(c.direction))));
    x.set("status", json_value::string(std::string(to_string(c.status))));
    x.set("regression", json_value::boolean(c.regression));
    if (c.noise_pct) x.set("noise_pct", json_value::number(*c.noise_pct));  // nvbench's noise, where there is one
    changes.push(std::move(x));
  }
  v.set("changes", std::move(changes));
  json_value verdicts_changed = json_value::array();
  for (const verdict_change& c : d.verdict_changes) {
    json_value x = json_value::object();
    x.set("entity", json_value::string(c.entity));
    x.set("field", json_value::string(c.field));
    x.set("old", json_value::string(c.old_text));
    x.set("new", json_value::string(c.new_text));
    verdicts_changed.push(std::move(x));
  }
  v.set("verdict_changes", std::move(verdicts_changed));
  for (const auto& [member, names] : {std::pair<const char*, const std::vector<std::string>*>{"added", &d.added},
                                      std::pair<const char*, const std::vector<std::string>*>{"removed", &d.removed}}) {
    json_value list = json_value::array();
    for (const std::string& n : *names) list.push(json_value::string(n));
    v.set(member, std::move(list));
  }
  std::size_t regressions = 0;
  for (const field_change& c : d.changes) regressions += c.regression ? 1 : 0;
  json_value outcome = json_value::object();
  outcome.set("kind", json_value::string(std::string(to_string(d.outcome))));
  outcome.set("text", json_value::string(d.bad_input()    ? "bad input"
                                         : d.regressed() ? "regression"
                                                         : "no regression"));
  outcome.set("reason", json_value::string(
                            d.bad_input() ? detail::joined(d.problems, "; ")
                                          : std::to_string(regressions) + " of " + std::to_string(d.changes.size()) +
                                                " numbers worse by more than " + fixed(d.threshold_pct, 1) +
                                                "%"));
  json_value verdicts = json_value::object();
  verdicts.set("outcome", std::move(outcome));
  v.set("verdicts", std::move(verdicts));
  doc.set("diff", std::move(v));
  return doc;
}

inline std::string to_json(const estimate_set& s, const document_options& o = {}) { return write_json(document_value(s, o)); }
inline std::string to_json(const pipe_catalog& c, const document_options& o = {}) { return write_json(document_value(c, o)); }
inline std::string to_json(const dtype_catalog& c, const document_options& o = {}) { return write_json(document_value(c, o)); }
inline std::string to_json(const roofline_chart& c, const document_options& o = {}) { return write_json(document_value(c, o)); }
inline std::string to_json(const report_diff& d, const document_options& o = {}) { return write_json(document_value(d, o)); }

inline report_document to_document(const estimate_set& s, const document_options& o = {}) {
  return flatten(document_value(s, o), "<memory>");
}
inline report_document to_document(const roofline_chart& c, const document_options& o = {}) {
  return flatten(document_value(c, o), "<memory>");
}

// The columns of to_csv(estimate_report), one row per estimate (the unavailable cases are JSON only).
inline std::string to_csv(const estimate_set& s) { return write_csv(detail::estimate_table(s.estimates)); }

// Columns: name, text, tensor, gpu_count, gpus (';'-separated keys).
inline std::string to_csv(const pipe_catalog& c) {
  csv_table t{{"name", "text", "tensor", "gpu_count", "gpus"}, {}};
  for (pipe p : all_pipes) {
    const std::vector<std::string> keys = detail::gpus_with(c.gpus, p);
    t.rows.push_back({std::string(to_string(p)), std::string(describe(p)), detail::csv_cell(is_tensor(p)),
                      std::to_string(keys.size()), detail::joined(keys, ";")});
  }
  return write_csv(t);
}

// Columns: name, bytes, accumulate, matrix_pipe, vector_pipe (empty: no default pipe).
inline std::string to_csv(const dtype_catalog& c) {
  csv_table t{{"name", "bytes", "accumulate", "matrix_pipe", "vector_pipe"}, {}};
  for (dtype d : c.types) {
    const dtype_facts f = facts_of(d);
    t.rows.push_back({std::string(to_string(d)), std::to_string(f.bytes), std::string(to_string(f.accumulate)),
                      detail::pipe_cell(f.matrix_pipe), detail::pipe_cell(f.vector_pipe)});
  }
  return write_csv(t);
}

// Columns: name, source, intensity_flop_per_byte, flop_per_s, gpu: one row per point.
inline std::string to_csv(const roofline_chart& c) {
  csv_table t{{"name", "source", "intensity_flop_per_byte", "flop_per_s", "gpu"}, {}};
  for (const roofline_point& p : c.points)
    t.rows.push_back({p.label, std::string(to_string(p.source)), detail::csv_cell(std::optional<double>(p.intensity)),
                      detail::csv_cell(std::optional<double>(p.flops_per_s)), std::string(c.gpu.key)});
  return write_csv(t);
}

// Columns: entity, field, old, new, change_pct, better, status, regression: one row per compared number.
inline std::string to_csv(const report_diff& d) {
  csv_table t{{"entity", "field", "old", "new", "change_pct", "better", "status", "regression"}, {}};
  for (const field_change& c : d.changes)
    t.rows.push_back({c.entity, c.field, detail::csv_cell(c.old_value), detail::csv_cell(c.new_value),
                      detail::csv_cell(c.change_pct), std::string(to_string(c.direction)),
                      std::string(to_string(c.status)), detail::csv_cell(c.regression)});
  return write_csv(t);
}

NAPKIN_END_NAMESPACE
