// SPDX-License-Identifier: Apache-2.0
// napkin/report/job_documents.hpp — a parallel job's cross-rank table (cross_rank.hpp) as one JSON
// document of kind "job" and as a CSV table:
//   "ranks": every rank's context (host, rank, device, ...), its rows (name, by, launches, gpu_ns,
//            communication_ns) and its communication / compute split;
//   "table": per kernel or phase, min / median / max GPU time across ranks, the slowest ranks, the
//            imbalance (max / median), the ranks that lack it and the communication split;
//   "absent_ranks": ranks of the job's world size that sent no summary.
// docs/reports.md and docs/schema/napkin.schema.json ($defs/job_document) list every field. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/report/cross_rank.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The context object exactly as every document header writes it.
inline json_value context_value(const report_context& c) {
  document_options o;
  o.context = c;
  const json_value header = document_header(report_kind::job, {}, o);
  const json_value* ctx = header.find("context");
  return ctx != nullptr ? *ctx : json_value::object();
}

inline json_value ranks_value(const std::vector<std::int64_t>& ranks) {
  json_value a = json_value::array();
  for (std::int64_t r : ranks) a.push(json_value::count(static_cast<std::uint64_t>(r)));
  return a;
}

// compute_ns, communication_ns, communication_fraction and mostly_communication; null when unknown.
inline void set_split(json_value& v, const std::optional<time_split>& s) {
  v.set("compute_ns", s ? json_value::number(s->compute_ns) : json_value());
  v.set("communication_ns", s ? json_value::number(s->communication_ns) : json_value());
  v.set("communication_fraction", s ? json_value::number(s->communication_fraction()) : json_value());
  v.set("mostly_communication", s ? json_value::boolean(s->mostly_communication()) : json_value());
}

inline json_value rank_value(const rank_summary& s, const rank_split& split) {
  json_value v = json_value::object();
  v.set("rank", json_value::count(static_cast<std::uint64_t>(*s.context.rank)));
  v.set("context", context_value(s.context));
  json_value rows = json_value::array();
  for (const rank_row& r : s.rows) {
    json_value row = json_value::object();
    row.set("name", json_value::string(r.name));
    row.set("by", json_value::string(std::string(to_string(r.by))));
    row.set("launches", json_value::count(r.launches));
    row.set("gpu_ns", json_value::number(r.gpu_ns));
    row.set("communication_ns", r.communication_ns ? json_value::number(*r.communication_ns) : json_value());
    rows.push(std::move(row));
  }
  v.set("rows", std::move(rows));
  v.set("gpu_ns", json_value::number(split.gpu_ns));
  set_split(v, split.split);
  return v;
}

inline json_value table_row_value(const cross_rank_row& r) {
  json_value v = json_value::object();
  v.set("name", json_value::string(r.name));
  v.set("by", json_value::string(std::string(to_string(r.by))));
  v.set("rank_count", json_value::count(r.ranks.size()));
  v.set("min_ns", json_value::number(r.min_ns));
  v.set("median_ns", json_value::number(r.median_ns));
  v.set("max_ns", json_value::number(r.max_ns));
  v.set("imbalance", r.imbalance ? json_value::number(*r.imbalance) : json_value());
  v.set("slowest_rank", json_value::count(static_cast<std::uint64_t>(r.slowest_ranks.front())));
  v.set("slowest_ranks", ranks_value(r.slowest_ranks));
  v.set("missing_ranks", ranks_value(r.missing_ranks));
  set_split(v, r.split);
  json_value per_rank = json_value::array();
  for (const rank_time& t : r.ranks) {
    json_value p = json_value::object();
    p.set("rank", json_value::count(static_cast<std::uint64_t>(t.rank)));
    p.set("gpu_ns", json_value::number(t.gpu_ns));
    p.set("launches", json_value::count(t.launches));
    per_rank.push(std::move(p));
  }
  v.set("per_rank", std::move(per_rank));
  return v;
}

}  // namespace detail

// The "gpu" of a job document is what options.gpu says (ranks may differ; each rank's device is in its
// context); options.context is the process that wrote it (rank 0 under napkin::mpi).
inline json_value document_value(const cross_rank_table& t, const document_options& options = {}) {
  json_value doc = detail::document_header(report_kind::job, {}, options);
  doc.set("world_ranks", detail::ranks_value(t.ranks));
  doc.set("absent_ranks", detail::ranks_value(t.absent_ranks));
  json_value ranks = json_value::array();
  for (std::size_t i = 0; i < t.summaries.size() && i < t.per_rank.size(); ++i)
    ranks.push(detail::rank_value(t.summaries[i], t.per_rank[i]));
  doc.set("ranks", std::move(ranks));
  json_value table = json_value::array();
  for (const cross_rank_row& r : t.rows) table.push(detail::table_row_value(r));
  doc.set("table", std::move(table));
  return doc;
}

inline std::string to_json(const cross_rank_table& t, const document_options& o = {}) {
  return write_json(document_value(t, o));
}
inline report_document to_document(const cross_rank_table& t, const document_options& o = {}) {
  return flatten(document_value(t, o), "<memory>");
}

// CSV columns: name, by, rank_count, missing_ranks (space-separated), min_ns, median_ns, max_ns, imbalance,
// slowest_ranks (space-separated), compute_ns, communication_ns, communication_fraction, mostly_communication.
inline std::string to_csv(const cross_rank_table& t) {
  csv_table c{{"name", "by", "rank_count", "missing_ranks", "min_ns", "median_ns", "max_ns", "imbalance", "slowest_ranks",
               "compute_ns", "communication_ns", "communication_fraction", "mostly_communication"},
              {}};
  const auto list = [](const std::vector<std::int64_t>& ranks) {
    std::string s;
    for (std::int64_t r : ranks) s += (s.empty() ? "" : " ") + std::to_string(r);
    return s;
  };
  for (const cross_rank_row& r : t.rows) {
    const auto& s = r.split;
    c.rows.push_back({r.name, std::string(to_string(r.by)), detail::csv_cell(static_cast<std::uint64_t>(r.ranks.size())),
                      list(r.missing_ranks), detail::csv_cell(std::optional<double>(r.min_ns)),
                      detail::csv_cell(std::optional<double>(r.median_ns)), detail::csv_cell(std::optional<double>(r.max_ns)),
                      detail::csv_cell(r.imbalance), list(r.slowest_ranks),
                      detail::csv_cell(s ? std::optional<double>(s->compute_ns) : std::nullopt),
                      detail::csv_cell(s ? std::optional<double>(s->communication_ns) : std::nullopt),
                      detail::csv_cell(s ? std::optional<double>(s->communication_fraction()) : std::nullopt),
                      s ? detail::csv_cell(s->mostly_communication()) : std::string()});
  }
  return write_csv(c);
}

NAPKIN_END_NAMESPACE
