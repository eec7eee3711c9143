// SPDX-License-Identifier: Apache-2.0
// Napkin math and occupancy answers as documents (napkin/report/math_documents.hpp): the function bodies. Included
// by math_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <string>

#include "napkin/report/math_documents.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC estimate_report make_estimate_report(std::string name, const workload& w, const gpu_spec& g, pipe p,
                                                        sparsity s) {
  return {std::move(name), w, g, p, s, estimate(w, g, p, s), std::nullopt, {}};
}

namespace detail {

NAPKIN_DETAIL_FUNC std::string cc_text(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

NAPKIN_DETAIL_FUNC json_value optional_number(std::optional<double> v) {
  return v ? json_value::number(*v) : json_value();
}

// The dense (or 2:4-sparse) peak of `p` on `g`; nullopt where the spec has no figure.
NAPKIN_DETAIL_FUNC std::optional<double> peak_if_known(const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  if (!g.has(p) || (s != sparsity::dense && !supports_sparsity(g, p))) return std::nullopt;
  return peak_flops(g, p, s);
}

NAPKIN_DETAIL_FUNC std::optional<double> bandwidth_if_known(const gpu_spec& g) {
  return g.memory_bandwidth > 0 ? std::optional<double>(g.memory_bandwidth) : std::nullopt;
}

NAPKIN_DETAIL_FUNC gpu_identity identity_of(const gpu_spec& g) {
  return {std::string(g.key), std::string(g.name), std::string(), cc_text(g.cc_major, g.cc_minor)};
}

// ---- estimates ----
NAPKIN_DETAIL_FUNC std::vector<std::pair<const char*, std::optional<double>>> estimate_numbers(const estimate_report& e) {
  const roofline_estimate& r = e.result;
  return {{"peak_flop_per_s", peak_if_known(e.gpu, e.on, e.sparse)},
          {"peak_bandwidth_bytes_per_s", bandwidth_if_known(e.gpu)},
          {"intensity_flop_per_byte", r.intensity},
          {"ridge_flop_per_byte", r.ridge},
          {"compute_s", r.compute_seconds},
          {"memory_s", r.memory_seconds},
          {"lower_bound_s", r.lower_bound_seconds()},
          {"no_overlap_s", r.no_overlap_seconds()},
          {"attainable_flop_per_s", r.attainable_flops},
          {"max_bytes_for_compute_bound", r.ridge > 0 ? std::optional<double>(r.max_bytes_for_compute_bound())
                                                       : std::nullopt}};
}

// A measured time against the estimate: the fraction of the roofline bound it reaches (1 = on the
// roofline, above 1 = faster than the bound allows) and the achieved rates against the peaks.
NAPKIN_DETAIL_FUNC std::vector<std::pair<const char*, std::optional<double>>> measured_numbers(const estimate_report& e) {
  const double t = *e.measured_s;
  if (!(t > 0) || !std::isfinite(t))
    raise_input_error<std::invalid_argument>("napkin: estimate_report::measured_s must be a finite time > 0, got " +
                                             general(t));
  const roofline_estimate& r = e.result;
  const auto peak = peak_if_known(e.gpu, e.on, e.sparse);
  const auto bandwidth = bandwidth_if_known(e.gpu);
  const double flops = r.flops / t, bytes = r.bytes / t;
  return {{"time_s", t},
          {"of_bound", r.lower_bound_seconds() / t},
          {"achieved_flop_per_s", flops},
          {"flops_of_peak", peak ? std::optional<double>(flops / *peak) : std::nullopt},
          {"achieved_bytes_per_s", bytes},
          {"bandwidth_of_peak", bandwidth ? std::optional<double>(bytes / *bandwidth) : std::nullopt}};
}

NAPKIN_DETAIL_FUNC json_value estimate_value(const estimate_report& e) {
  json_value v = json_value::object();
  v.set("name", json_value::string(e.name));
  v.set("gpu", json_value::string(std::string(e.gpu.key)));
  v.set("pipe", json_value::string(std::string(to_string(e.on))));
  v.set("pipe_text", json_value::string(std::string(describe(e.on))));
  v.set("sparsity", json_value::string(std::string(to_string(e.sparse))));
  if (!e.sizes.empty()) {
    json_value sizes = json_value::object();
    for (const auto& [size_name, value] : e.sizes) sizes.set(size_name, json_value::count(static_cast<std::uint64_t>(value)));
    v.set("sizes", std::move(sizes));
  }
  json_value w = json_value::object();
  w.set("flop", json_value::count(e.work.flops));
  w.set("counted_flop", json_value::count(e.work.counted_flops()));
  w.set("bytes_read", json_value::count(e.work.bytes_read));
  w.set("bytes_written", json_value::count(e.work.bytes_written));
  w.set("bytes", json_value::count(e.work.bytes()));  // an error (napkin's policy) if the sum overflows
  w.set("matrix", json_value::boolean(e.work.matrix));
  v.set("workload", std::move(w));
  json_value types = json_value::object();
  types.set("input", json_value::string(std::string(to_string(e.work.types.input))));
  types.set("output", json_value::string(std::string(to_string(e.work.types.output))));
  types.set("accumulate", json_value::string(std::string(to_string(e.work.types.accumulate))));
  v.set("workload_types", std::move(types));
  for (const auto& [name, value] : estimate_numbers(e)) v.set(name, optional_number(value));
  if (e.measured_s) {
    json_value m = json_value::object();
    for (const auto& [name, value] : measured_numbers(e)) m.set(name, optional_number(value));
    v.set("measured", std::move(m));
  }
  json_value bound = json_value::object();
  const std::string regime_name(to_string(e.result.bound));
  bound.set("kind", json_value::string(regime_name));
  bound.set("text", json_value::string(regime_name));
  bound.set("reason", json_value::string("intensity " + json_number_text(e.result.intensity) + " FLOP/B " +
                                         (e.result.bound == regime::compute_bound ? "at or above" : "below") +
                                         " the ridge " + json_number_text(e.result.ridge) + " FLOP/B"));
  json_value verdicts = json_value::object();
  verdicts.set("bound", std::move(bound));
  v.set("verdicts", std::move(verdicts));
  return v;
}

// ---- GPU specs ----
NAPKIN_DETAIL_FUNC std::string column_name_of(pipe p) {
  std::string s(to_string(p));
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

NAPKIN_DETAIL_FUNC json_value gpu_value(const gpu_spec& g) {
  json_value v = json_value::object();
  v.set("name", json_value::string(std::string(g.name)));
  v.set("key", json_value::string(std::string(g.key)));
  v.set("compute_capability", json_value::string(cc_text(g.cc_major, g.cc_minor)));
  v.set("sm_count", g.sm_count > 0 ? json_value::count(static_cast<std::uint64_t>(g.sm_count)) : json_value());
  v.set("boost_clock_mhz", g.boost_clock_mhz > 0 ? json_value::number(g.boost_clock_mhz) : json_value());
  v.set("memory_bandwidth_bytes_per_s", optional_number(bandwidth_if_known(g)));
  v.set("l2_bytes", g.l2_bytes > 0 ? json_value::count(g.l2_bytes) : json_value());
  json_value peaks = json_value::object(), ridges = json_value::object();
  for (pipe p : all_pipes) {
    const auto peak = peak_if_known(g, p);
    const auto bandwidth = bandwidth_if_known(g);
    peaks.set(to_string(p), optional_number(peak));
    ridges.set(to_string(p), peak && bandwidth ? json_value::number(*peak / *bandwidth) : json_value());
  }
  v.set("peak_flop_per_s", std::move(peaks));
  v.set("ridge_flop_per_byte", std::move(ridges));
  v.set("source", json_value::string(std::string(g.source)));
  return v;
}

// ---- occupancy ----
NAPKIN_DETAIL_FUNC json_value blocks_or_unlimited(int blocks) {
  return blocks == unlimited ? json_value() : json_value::number(blocks);
}

NAPKIN_DETAIL_FUNC json_value occupancy_value(const occupancy_result& r, const occupancy_advice* advice,
                                              const std::string& name) {
  json_value v = json_value::object();
  v.set("name", json_value::string(name.empty() ? "occupancy" : name));
  v.set("compute_capability", json_value::string(cc_text(r.cc.major, r.cc.minor)));
  v.set("valid", json_value::boolean(r.valid()));
  v.set("error", json_value::string(std::string(to_string(r.error))));
  const std::pair<const char*, int> launch[] = {{"threads_per_block", r.threads_per_block},
                                                {"registers_per_thread", r.registers_per_thread},
                                                {"static_smem_bytes", r.static_smem},
                                                {"dynamic_smem_bytes", r.dynamic_smem},
                                                {"warps_per_block", r.warps_per_block},
                                                {"max_warps_per_sm", r.max_warps_per_sm},
                                                {"registers_per_warp", r.registers_per_warp},
                                                {"registers_per_block", r.registers_per_block},
                                                {"smem_per_block_bytes", r.smem_per_block},
                                                {"smem_per_sm_bytes", r.smem_per_sm}};
  for (const auto& [field, value] : launch) v.set(field, json_value::number(value));
  json_value by = json_value::object();
  for (limiter l : all_limiters) by.set(to_string(l), blocks_or_unlimited(r.blocks_by(l)));
  v.set("blocks_by", std::move(by));
  v.set("blocks_per_sm", blocks_or_unlimited(r.blocks_per_sm));
  v.set("active_warps", json_value::number(r.valid() ? r.active_warps() : 0));
  v.set("active_threads", json_value::number(r.valid() ? r.active_threads() : 0));
  v.set("occupancy_pct", json_value::number(r.valid() ? r.occupancy() * 100.0 : 0.0));
  json_value limiters = json_value::array();
  std::string kinds, words;
  for (limiter l : all_limiters) {
    if (!r.limiters.contains(l)) continue;
    limiters.push(json_value::string(std::string(to_string(l))));
    kinds += (kinds.empty() ? "" : "+") + std::string(to_string(l));
    words += (words.empty() ? "" : " and ") + std::string(describe(l));
  }
  v.set("limiters", std::move(limiters));
  json_value verdict = json_value::object();
  if (r.valid()) {
    verdict.set("kind", json_value::string(kinds));
    verdict.set("text", json_value::string("limited by " + words));
    verdict.set("reason", json_value::string("the fewest blocks per SM are allowed by " + words));
  } else {
    verdict.set("kind", json_value::string("invalid-launch"));
    verdict.set("text", json_value::string("invalid launch"));
    verdict.set("reason", json_value::string(std::string(describe(r.error))));
  }
  json_value verdicts = json_value::object();
  verdicts.set("limiter", std::move(verdict));
  v.set("verdicts", std::move(verdicts));
  if (advice != nullptr) {
    json_value next = json_value::object();
    next.set("at_maximum", json_value::boolean(advice->at_maximum()));
    const std::pair<const char*, const occupancy_step*> steps[] = {{"registers_per_thread", &advice->registers},
                                                                   {"shared_memory_bytes", &advice->shared_memory},
                                                                   {"carveout_pct", &advice->carveout},
                                                                   {"block_size_threads", &advice->block_size}};
    for (const auto& [field, step] : steps) {
      if (!step->possible()) {
        next.set(field, json_value());
        continue;
      }
      json_value s = json_value::object();
      s.set("value", json_value::number(step->value));
      s.set("active_warps", json_value::number(step->active_warps));
      next.set(field, std::move(s));
    }
    v.set("next_step", std::move(next));
  }
  return v;
}

NAPKIN_DETAIL_FUNC std::string occupancy_csv(const occupancy_result& r, const occupancy_advice* a,
                                             const std::string& name) {
  csv_table t;
  t.columns = {"name", "compute_capability", "error", "threads_per_block", "registers_per_thread",
               "static_smem_bytes", "dynamic_smem_bytes", "warps_per_block", "max_warps_per_sm"};
  std::vector<std::string> row{name.empty() ? "occupancy" : name, cc_text(r.cc.major, r.cc.minor),
                               std::string(to_string(r.error))};
  for (int n : {r.threads_per_block, r.registers_per_thread, r.static_smem, r.dynamic_smem, r.warps_per_block,
                r.max_warps_per_sm})
    row.push_back(std::to_string(n));
  const auto blocks = [](int b) { return b == unlimited ? std::string() : std::to_string(b); };
  for (limiter l : all_limiters) {
    t.columns.push_back("blocks_by_" + std::string(to_string(l)));
    row.push_back(blocks(r.blocks_by(l)));
  }
  std::string limiters;
  for (limiter l : all_limiters)
    if (r.limiters.contains(l)) limiters += (limiters.empty() ? "" : ";") + std::string(to_string(l));
  for (const char* c : {"blocks_per_sm", "active_warps", "occupancy_pct", "limiters"}) t.columns.emplace_back(c);
  row.push_back(blocks(r.blocks_per_sm));
  row.push_back(std::to_string(r.valid() ? r.active_warps() : 0));
  row.push_back(csv_cell(std::optional<double>(r.valid() ? r.occupancy() * 100.0 : 0.0)));
  row.push_back(limiters);
  const std::pair<const char*, const occupancy_step*> steps[] = {
      {"next_registers_per_thread", a ? &a->registers : nullptr},
      {"next_shared_memory_bytes", a ? &a->shared_memory : nullptr},
      {"next_carveout_pct", a ? &a->carveout : nullptr},
      {"next_block_size_threads", a ? &a->block_size : nullptr}};
  for (const auto& [column, step] : steps) {
    t.columns.emplace_back(column);
    t.columns.push_back(std::string(column) + "_active_warps");
    const bool known = step != nullptr && step->possible();
    row.push_back(known ? std::to_string(step->value) : std::string());
    row.push_back(known ? std::to_string(step->active_warps) : std::string());
  }
  t.rows.push_back(std::move(row));
  return write_csv(t);
}

}  // namespace detail

NAPKIN_DETAIL_FUNC json_value document_value(const estimate_report& e, const document_options& options) {
  json_value doc = detail::document_header(report_kind::estimate, detail::identity_of(e.gpu), options);
  doc.set("estimate", detail::estimate_value(e));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const std::vector<gpu_spec>& specs, const document_options& options) {
  json_value doc = detail::document_header(
      report_kind::gpu_specs, specs.size() == 1 ? detail::identity_of(specs.front()) : gpu_identity{}, options);
  json_value gpus = json_value::array();
  for (const gpu_spec& g : specs) gpus.push(detail::gpu_value(g));
  doc.set("gpus", std::move(gpus));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const gpu_spec& g, const document_options& options) {
  return document_value(std::vector<gpu_spec>{g}, options);
}

NAPKIN_DETAIL_FUNC json_value document_value(const occupancy_advice& a, const document_options& options) {
  gpu_identity g;
  g.compute_capability = detail::cc_text(a.now.cc.major, a.now.cc.minor);
  json_value doc = detail::document_header(report_kind::occupancy, g, options);
  doc.set("occupancy", detail::occupancy_value(a.now, &a, options.name));
  return doc;
}

NAPKIN_DETAIL_FUNC json_value document_value(const occupancy_result& r, const document_options& options) {
  gpu_identity g;
  g.compute_capability = detail::cc_text(r.cc.major, r.cc.minor);
  json_value doc = detail::document_header(report_kind::occupancy, g, options);
  doc.set("occupancy", detail::occupancy_value(r, nullptr, options.name));
  return doc;
}

NAPKIN_DETAIL_FUNC std::string to_json(const estimate_report& e, const document_options& o) {
  return write_json(document_value(e, o));
}

NAPKIN_DETAIL_FUNC std::string to_json(const gpu_spec& g, const document_options& o) {
  return write_json(document_value(g, o));
}

NAPKIN_DETAIL_FUNC std::string to_json(const std::vector<gpu_spec>& g, const document_options& o) {
  return write_json(document_value(g, o));
}

NAPKIN_DETAIL_FUNC std::string to_json(const occupancy_advice& a, const document_options& o) {
  return write_json(document_value(a, o));
}

NAPKIN_DETAIL_FUNC std::string to_json(const occupancy_result& r, const document_options& o) {
  return write_json(document_value(r, o));
}

NAPKIN_DETAIL_FUNC report_document to_document(const estimate_report& e, const document_options& o) {
  return flatten(document_value(e, o), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const gpu_spec& g, const document_options& o) {
  return flatten(document_value(g, o), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const std::vector<gpu_spec>& g, const document_options& o) {
  return flatten(document_value(g, o), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const occupancy_advice& a, const document_options& o) {
  return flatten(document_value(a, o), "<memory>");
}

NAPKIN_DETAIL_FUNC report_document to_document(const occupancy_result& r, const document_options& o) {
  return flatten(document_value(r, o), "<memory>");
}

namespace detail {

NAPKIN_DETAIL_FUNC csv_table estimate_table(const std::vector<estimate_report>& estimates) {
  csv_table t{{"name", "gpu", "pipe", "sparsity", "flop", "bytes"}, {}};
  for (const auto& [name, value] : estimate_numbers(estimate_report{})) t.columns.emplace_back(name);
  t.columns.emplace_back("bound");
  const bool measured = !estimates.empty() && estimates.front().measured_s.has_value();
  if (measured)
    for (const auto& [name, value] : measured_numbers(estimates.front())) t.columns.push_back("measured_" + std::string(name));
  const std::size_t size_count = estimates.empty() ? 0 : estimates.front().sizes.size();
  for (std::size_t i = 0; i < size_count; ++i) t.columns.push_back(estimates.front().sizes[i].first);
  for (const estimate_report& e : estimates) {
    std::vector<std::string> row{e.name, std::string(e.gpu.key), std::string(to_string(e.on)),
                                 std::string(to_string(e.sparse)), csv_cell(e.work.flops), csv_cell(e.work.bytes())};
    for (const auto& [name, value] : estimate_numbers(e)) row.push_back(csv_cell(value));
    row.emplace_back(to_string(e.result.bound));
    if (measured && e.measured_s)
      for (const auto& [name, value] : measured_numbers(e)) row.push_back(csv_cell(value));
    else if (measured)
      row.resize(t.columns.size() - size_count);
    for (std::size_t i = 0; i < size_count; ++i)
      row.push_back(i < e.sizes.size() && e.sizes[i].first == estimates.front().sizes[i].first
                        ? csv_cell(static_cast<std::uint64_t>(e.sizes[i].second))
                        : std::string());
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_csv(const estimate_report& e) { return write_csv(detail::estimate_table({e})); }

NAPKIN_DETAIL_FUNC std::string to_csv(const std::vector<gpu_spec>& specs) {
  csv_table t{{"key", "name", "compute_capability", "sm_count", "boost_clock_mhz", "memory_bandwidth_bytes_per_s",
               "l2_bytes"},
              {}};
  for (pipe p : all_pipes) t.columns.push_back("peak_" + detail::column_name_of(p) + "_flop_per_s");
  t.columns.emplace_back("source");
  for (const gpu_spec& g : specs) {
    std::vector<std::string> row{std::string(g.key), std::string(g.name), detail::cc_text(g.cc_major, g.cc_minor),
                                 g.sm_count > 0 ? std::to_string(g.sm_count) : std::string(),
                                 detail::csv_cell(g.boost_clock_mhz > 0 ? std::optional<double>(g.boost_clock_mhz)
                                                                        : std::nullopt),
                                 detail::csv_cell(detail::bandwidth_if_known(g)),
                                 g.l2_bytes > 0 ? std::to_string(g.l2_bytes) : std::string()};
    for (pipe p : all_pipes) row.push_back(detail::csv_cell(detail::peak_if_known(g, p)));
    row.emplace_back(g.source);
    t.rows.push_back(std::move(row));
  }
  return write_csv(t);
}

NAPKIN_DETAIL_FUNC std::string to_csv(const gpu_spec& g) { return to_csv(std::vector<gpu_spec>{g}); }

NAPKIN_DETAIL_FUNC std::string to_csv(const occupancy_advice& a, const std::string& name) {
  return detail::occupancy_csv(a.now, &a, name);
}

NAPKIN_DETAIL_FUNC std::string to_csv(const occupancy_result& r, const std::string& name) {
  return detail::occupancy_csv(r, nullptr, name);
}

NAPKIN_END_NAMESPACE
