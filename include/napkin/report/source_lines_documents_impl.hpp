// SPDX-License-Identifier: Apache-2.0
// A PC-sampling result as the source-lines document (napkin/report/source_lines_documents.hpp): the function bodies.
// Included by source_lines_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "napkin/report/source_lines_documents.hpp"
#include "napkin/document/csv.hpp"
#include "napkin/error.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC std::optional<double> source_share_pct(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return std::nullopt;
  return static_cast<double>(part) * 100 / static_cast<double>(whole);  // x 100 first: 980 of 1000 is 98 exactly
}

NAPKIN_DETAIL_FUNC std::uint64_t source_functions_samples(const source_lines_report& r) {
  std::uint64_t all = 0;
  for (const function_lines& f : r.functions) all += f.samples;
  return all;
}

NAPKIN_DETAIL_FUNC std::string source_location_text(const source_location& where) {
  return where.file + ":" + std::to_string(where.line);
}

// The rows' names: what diff() matches across two runs. A PC is named by its offset alone: a rebuild moves it.
NAPKIN_DETAIL_FUNC std::string source_function_row_name(const function_lines& f) { return "function: " + f.function; }

NAPKIN_DETAIL_FUNC std::string source_line_row_name(const function_lines& f, const source_line& l) {
  return "line: " + f.function + " " + source_location_text(l.where);
}

NAPKIN_DETAIL_FUNC std::string source_pc_row_name(const function_lines& f, const hot_pc& p) {
  return "pc: " + f.function + " " + pc_text(p.pc_offset);
}

NAPKIN_DETAIL_FUNC json_value source_stalls_value(const std::vector<stall_samples>& stalls) {
  json_value v = json_value::object();
  for (const stall_samples& s : stalls) v.set(s.reason, json_value::count(s.samples));
  return v;
}

NAPKIN_DETAIL_FUNC json_value source_optional(const std::optional<double>& v) {
  return v ? json_value::number(*v) : json_value();
}

// The members every row has: its name, what it is, its function, its samples and share, its stall reasons.
NAPKIN_DETAIL_FUNC json_value source_row_head(const std::string& name, const char* by, const function_lines& f) {
  json_value v = json_value::object();
  v.set("name", json_value::string(name));
  v.set("by", json_value::string(by));
  v.set("function", json_value::string(f.function));
  v.set("symbol", json_value::string(f.symbol));
  return v;
}

NAPKIN_DETAIL_FUNC void source_row_samples(json_value& v, std::uint64_t samples, std::uint64_t not_issued,
                                           std::uint64_t whole,
                                           const std::vector<stall_samples>& stalls) {
  v.set("samples", json_value::count(samples));
  v.set("not_issued_samples", json_value::count(not_issued));
  v.set("share_pct", source_optional(source_share_pct(samples, whole)));
  v.set("stalls", source_stalls_value(stalls));
}

NAPKIN_DETAIL_FUNC void source_row_location(json_value& v, const source_location& where) {
  v.set("file", json_value::string(where.file));
  v.set("dir", json_value::string(where.dir));
  v.set("line", where.known() ? json_value::count(where.line) : json_value());
}

NAPKIN_DETAIL_FUNC json_value source_rows_value(const source_lines_report& r) {
  const std::uint64_t all = source_functions_samples(r);
  json_value rows = json_value::array();
  for (const function_lines& f : r.functions) {
    json_value fn = source_row_head(source_function_row_name(f), "function", f);
    source_row_samples(fn, f.samples, f.not_issued, all, f.stalls);
    fn.set("line_info", json_value::boolean(f.line_info));
    fn.set("lines_sampled", json_value::count(f.lines_sampled));
    fn.set("pcs_sampled", json_value::count(f.pcs_sampled));
    fn.set("note", json_value::string(f.note));
    rows.push(std::move(fn));
    for (const source_line& l : f.lines) {
      json_value v = source_row_head(source_line_row_name(f, l), "line", f);
      source_row_location(v, l.where);
      source_row_samples(v, l.samples, l.not_issued, f.samples, l.stalls);
      json_value pcs = json_value::array();
      for (std::uint64_t pc : l.pcs) pcs.push(json_value::count(pc));
      v.set("pcs", std::move(pcs));
      rows.push(std::move(v));
    }
    for (const hot_pc& p : f.pcs) {
      json_value v = source_row_head(source_pc_row_name(f, p), "pc", f);
      v.set("pc_offset", json_value::count(p.pc_offset));
      source_row_location(v, p.where);
      source_row_samples(v, p.samples, p.not_issued, f.samples, p.stalls);
      rows.push(std::move(v));
    }
  }
  return rows;
}

NAPKIN_DETAIL_FUNC json_value source_sampling_value(const source_sampling_cost& c) {
  json_value v = json_value::object();
  v.set("period_log2", c.period_log2 > 0 ? json_value::count(c.period_log2) : json_value());
  v.set("total_samples", json_value::count(c.total_samples));
  v.set("dropped_samples", json_value::count(c.dropped_samples));
  v.set("non_user_samples", json_value::count(c.non_user_samples));
  v.set("pc_records", json_value::count(c.pc_records));
  v.set("drains", json_value::count(c.drains));
  v.set("hardware_buffer_full", json_value::boolean(c.hardware_buffer_full));
  v.set("setup_s", json_value::number(c.setup_s));
  v.set("run_s", json_value::number(c.run_s));
  v.set("drain_s", json_value::number(c.drain_s));
  v.set("correlate_s", json_value::number(c.correlate_s));
  v.set("total_s", json_value::number(c.total_s()));
  return v;
}

NAPKIN_DETAIL_FUNC std::string source_stalls_problem(const std::vector<stall_samples>& stalls,
                                                     const std::string& where) {
  for (std::size_t i = 0; i < stalls.size(); ++i) {
    if (stalls[i].reason.empty()) return where + ": a stall reason without a name";
    for (std::size_t j = 0; j < i; ++j)
      if (stalls[j].reason == stalls[i].reason)
        return where + ": the stall reason \"" + quote_input(stalls[i].reason) + "\" is given twice";
  }
  return {};
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string validate_source_lines(const source_lines_report& r) {
  for (std::size_t i = 0; i < r.functions.size(); ++i) {
    const function_lines& f = r.functions[i];
    const std::string where =
        "source lines, function " + std::to_string(i + 1) + " \"" + quote_input(f.function) + "\"";
    if (f.function.empty()) return where + ": no name";
    if (std::string bad = detail::source_stalls_problem(f.stalls, where); !bad.empty()) return bad;
    for (const source_line& l : f.lines) {
      const std::string at = where + ", line " + quote_input(detail::source_location_text(l.where));
      if (!l.where.known()) return at + ": a hot line needs a file and a line number (1 or more)";
      if (l.samples > f.samples) return at + ": more samples than its function";
      if (std::string bad = detail::source_stalls_problem(l.stalls, at); !bad.empty()) return bad;
    }
    for (const hot_pc& p : f.pcs) {
      const std::string at = where + ", PC " + detail::pc_text(p.pc_offset);
      if (p.samples > f.samples) return at + ": more samples than its function";
      if (std::string bad = detail::source_stalls_problem(p.stalls, at); !bad.empty()) return bad;
    }
  }
  return {};
}

NAPKIN_DETAIL_FUNC void check_source_lines(const source_lines_report& r) {
  if (std::string bad = validate_source_lines(r); !bad.empty()) detail::raise_input_error("napkin: " + bad);
}

NAPKIN_DETAIL_FUNC json_value document_value(const source_lines_report& r, const document_options& options) {
  check_source_lines(r);
  json_value doc = detail::document_header(report_kind::source_lines, {}, options);
  doc.set("sampling", detail::source_sampling_value(r.cost));
  json_value notes = json_value::array();
  for (const std::string& n : r.notes) notes.push(json_value::string(n));
  doc.set("notes", std::move(notes));
  doc.set("rows", detail::source_rows_value(r));
  return doc;
}

NAPKIN_DETAIL_FUNC std::string to_json(const source_lines_report& r, const document_options& o) {
  return write_json(document_value(r, o));
}

NAPKIN_DETAIL_FUNC report_document to_document(const source_lines_report& r, const document_options& o) {
  return flatten(document_value(r, o), "<memory>");
}

NAPKIN_DETAIL_FUNC std::string to_csv(const source_lines_report& r) {
  check_source_lines(r);
  csv_table t{{"by", "name", "function", "file", "line", "pc_offset", "samples", "not_issued_samples", "share_pct",
               "stalls"},
              {}};
  const auto stalls = [](const std::vector<stall_samples>& s) {
    std::string out;
    for (const stall_samples& x : s) out += (out.empty() ? "" : ";") + x.reason + "=" + std::to_string(x.samples);
    return out;
  };
  const auto line = [](const source_location& w) { return w.known() ? std::to_string(w.line) : std::string(); };
  const std::uint64_t all = detail::source_functions_samples(r);
  for (const function_lines& f : r.functions) {
    t.rows.push_back({"function", detail::source_function_row_name(f), f.function, "", "", "",
                      detail::csv_cell(f.samples), detail::csv_cell(f.not_issued),
                      detail::csv_cell(detail::source_share_pct(f.samples, all)), stalls(f.stalls)});
    for (const source_line& l : f.lines)
      t.rows.push_back({"line", detail::source_line_row_name(f, l), f.function, l.where.file, line(l.where), "",
                        detail::csv_cell(l.samples), detail::csv_cell(l.not_issued),
                        detail::csv_cell(detail::source_share_pct(l.samples, f.samples)), stalls(l.stalls)});
    for (const hot_pc& p : f.pcs)
      t.rows.push_back({"pc", detail::source_pc_row_name(f, p), f.function, p.where.file, line(p.where),
                        detail::csv_cell(p.pc_offset), detail::csv_cell(p.samples), detail::csv_cell(p.not_issued),
                        detail::csv_cell(detail::source_share_pct(p.samples, f.samples)), stalls(p.stalls)});
  }
  return write_csv(t);
}

NAPKIN_END_NAMESPACE
