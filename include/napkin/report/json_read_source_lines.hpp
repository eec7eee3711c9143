// SPDX-License-Identifier: Apache-2.0
// napkin/report/json_read_source_lines.hpp — a PC-sampling result read back from its source-lines JSON
// document (napkin/report/source_lines_documents.hpp): what `napkin report lines.json` draws
// (napkin/report/source_lines_page.hpp). Every number is taken as written; the shares, which the writer derives
// from the samples, are checked against them. Writing the report read gives the same document back, which
// tests/report checks.
//
// OPTIONAL like json_read.hpp, which parses the file (nlohmann/json). Bad input (a missing or wrong member, a
// count that is not one, a row out of place, a share that is not its samples' share) is napkin's input error
// (napkin/error.hpp) naming the file and the member: std::invalid_argument by default.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/document/json_fields.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/source_lines_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/source_lines_documents.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

inline bool source_flag(const json_value& o, const char* field, const std::string& where) {
  const json_value& v = json_member(o, field, where);
  if (v.kind() != json_value::type::boolean) bad_json_field(where + "." + field, "expected true or false");
  return v.as_boolean();
}

inline double source_seconds(const json_value& o, const char* field, const std::string& where) {
  const json_value& v = json_member(o, field, where);
  if (!v.is_number()) bad_json_field(where + "." + field, "expected a number");
  if (std::string bad = measured_number_problem(v.as_number(), false); !bad.empty())
    bad_json_field(where + "." + field, bad);
  return v.as_number();
}

inline std::vector<stall_samples> source_stalls(const json_value& o, const std::string& where) {
  const json_value& v = json_member(o, "stalls", where);
  if (!v.is_object()) bad_json_field(where + ".stalls", "expected an object of stall reason: samples");
  std::vector<stall_samples> out;
  for (std::size_t i = 0; i < v.keys().size(); ++i)
    out.push_back({v.keys()[i], json_count_value(v.items()[i], where + ".stalls." + v.keys()[i])});
  return out;
}

// A row's file, directory and line (null: the module has no line for it).
inline source_location source_where(const json_value& o, const std::string& where) {
  source_location w;
  w.file = json_text(o, "file", where);
  w.dir = json_text(o, "dir", where);
  const json_value& line = json_member(o, "line", where);
  if (!line.is_null()) {
    const std::uint64_t n = json_count_value(line, where + ".line");
    if (n == 0 || n > 0xffffffffu) bad_json_field(where + ".line", "expected a line number (1 or more) or null");
    w.line = static_cast<std::uint32_t>(n);
  }
  return w;
}

// The row's share_pct against the one its samples give (the writer's source_share_pct): a document edited by
// hand, or a row under the wrong function, is refused rather than drawn with a share it does not have.
inline void check_source_share(const json_value& o, std::uint64_t samples, std::uint64_t whole,
                               const std::string& where) {
  const json_value& v = json_member(o, "share_pct", where);
  const std::optional<double> expected = source_share_pct(samples, whole);
  if (v.is_null() && !expected) return;
  if (!v.is_number() || !expected || std::fabs(v.as_number() - *expected) > 1e-9 * std::fmax(1.0, *expected))
    bad_json_field(where + ".share_pct",
                     "is not samples / " + std::string(whole == 0 ? "0" : std::to_string(whole)) + " x 100" +
                         (expected ? " (" + general(*expected) + ")" : std::string(" (null)")));
}

}  // namespace detail

// The report in a source-lines document `doc` (json_read.hpp's read_json_file) read from `file`.
inline source_lines_report read_source_lines(const json_value& doc, const std::string& file) {
  source_lines_report r;
  {
    const json_value& s = detail::json_member(doc, "sampling", file);
    const std::string at = file + ": sampling";
    if (!s.is_object()) detail::bad_json_field(at, "expected an object");
    source_sampling_cost& c = r.cost;
    const json_value& period = detail::json_member(s, "period_log2", at);
    if (!period.is_null()) {
      const std::uint64_t p = detail::json_count_value(period, at + ".period_log2");
      if (p < 1 || p > 31) detail::bad_json_field(at + ".period_log2", "expected 1..31 or null");
      c.period_log2 = static_cast<std::uint32_t>(p);
    }
    c.total_samples = detail::json_count(s, "total_samples", at);
    c.dropped_samples = detail::json_count(s, "dropped_samples", at);
    c.non_user_samples = detail::json_count(s, "non_user_samples", at);
    c.pc_records = detail::json_count(s, "pc_records", at);
    c.drains = static_cast<std::size_t>(detail::json_count(s, "drains", at));
    c.hardware_buffer_full = detail::source_flag(s, "hardware_buffer_full", at);
    c.setup_s = detail::source_seconds(s, "setup_s", at);
    c.run_s = detail::source_seconds(s, "run_s", at);
    c.drain_s = detail::source_seconds(s, "drain_s", at);
    c.correlate_s = detail::source_seconds(s, "correlate_s", at);
    detail::source_seconds(s, "total_s", at);  // the sum of the four: derived again when written
  }
  const json_value& notes = detail::json_member(doc, "notes", file);
  if (!notes.is_array()) detail::bad_json_field(file + ": notes", "expected an array of strings");
  for (std::size_t i = 0; i < notes.items().size(); ++i) {
    if (!notes.items()[i].is_string())
      detail::bad_json_field(file + ": notes[" + std::to_string(i) + "]", "expected a string");
    r.notes.push_back(notes.items()[i].as_string());
  }
  const json_value& rows = detail::json_member(doc, "rows", file);
  if (!rows.is_array()) detail::bad_json_field(file + ": rows", "expected an array");
  // Rows come as the writer puts them: a function, then its lines, then its PCs.
  std::vector<std::size_t> function_row;  // the row of each function, for the shares checked at the end
  for (std::size_t i = 0; i < rows.items().size(); ++i) {
    const json_value& row = rows.items()[i];
    const std::string where = file + ": rows[" + std::to_string(i) + "]";
    if (!row.is_object()) detail::bad_json_field(where, "expected an object");
    const std::string by = detail::json_text(row, "by", where);
    const std::string function = detail::json_text(row, "function", where);
    const std::string symbol = detail::json_text(row, "symbol", where);
    if (by == "function") {
      function_lines f;
      f.function = function;
      f.symbol = symbol;
      f.samples = detail::json_count(row, "samples", where);
      f.not_issued = detail::json_count(row, "not_issued_samples", where);
      f.stalls = detail::source_stalls(row, where);
      f.line_info = detail::source_flag(row, "line_info", where);
      f.lines_sampled = static_cast<std::size_t>(detail::json_count(row, "lines_sampled", where));
      f.pcs_sampled = static_cast<std::size_t>(detail::json_count(row, "pcs_sampled", where));
      f.note = detail::json_text(row, "note", where);
      r.functions.push_back(std::move(f));
      function_row.push_back(i);
      continue;
    }
    if (by != "line" && by != "pc")
      detail::bad_json_field(where + ".by", "expected function, line or pc, got '" + quote_input(by) + "'");
    if (r.functions.empty()) detail::bad_json_field(where, "a " + by + " row before any function row");
    function_lines& f = r.functions.back();
    if (function != f.function || symbol != f.symbol)
      detail::bad_json_field(where, "a " + by + " row of '" + quote_input(function) +
                                          "' under the function row of '" + quote_input(f.function) + "'");
    const std::uint64_t samples = detail::json_count(row, "samples", where);
    const std::uint64_t not_issued = detail::json_count(row, "not_issued_samples", where);
    detail::check_source_share(row, samples, f.samples, where);
    if (by == "line") {
      if (!f.pcs.empty()) detail::bad_json_field(where, "a line row after the function's PC rows");
      source_line l;
      l.where = detail::source_where(row, where);
      if (!l.where.known()) detail::bad_json_field(where, "a line row needs a file and a line");
      l.samples = samples;
      l.not_issued = not_issued;
      l.stalls = detail::source_stalls(row, where);
      const json_value& pcs = detail::json_member(row, "pcs", where);
      if (!pcs.is_array()) detail::bad_json_field(where + ".pcs", "expected an array of PC offsets");
      for (std::size_t k = 0; k < pcs.items().size(); ++k)
        l.pcs.push_back(detail::json_count_value(pcs.items()[k], where + ".pcs[" + std::to_string(k) + "]"));
      f.lines.push_back(std::move(l));
    } else {
      hot_pc p;
      p.pc_offset = detail::json_count(row, "pc_offset", where);
      p.where = detail::source_where(row, where);
      p.samples = samples;
      p.not_issued = not_issued;
      p.stalls = detail::source_stalls(row, where);
      f.pcs.push_back(std::move(p));
    }
  }
  std::uint64_t all = 0;
  for (const function_lines& f : r.functions) {
    if (all + f.samples < all) detail::bad_json_field(file + ": rows", "the functions' samples add up past 2^64");
    all += f.samples;
  }
  for (std::size_t i = 0; i < r.functions.size(); ++i)
    detail::check_source_share(rows.items()[function_row[i]], r.functions[i].samples, all,
                               file + ": rows[" + std::to_string(function_row[i]) + "]");
  if (std::string bad = validate_source_lines(r); !bad.empty()) detail::bad_json_field(file, bad);
  return r;
}

NAPKIN_END_NAMESPACE
