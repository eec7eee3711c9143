// SPDX-License-Identifier: Apache-2.0
// napkin/document/csv.hpp — the CSV form of napkin's reports (RFC 4180): a header row, then one row per
// kernel / phase / measurement / estimate / GPU, in a fixed column order; units are in the column names
// (duration_ns, sm_pct, dram_bytes_per_s). Every to_csv() in napkin/report/ writes through csv_table.
//
//   - Lines end with CRLF, as RFC 4180 writes them (spreadsheets, Python's csv and pandas read it).
//   - A field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
//   - A text field starting with =, +, -, @, tab or CR (a spreadsheet formula: OWASP's "CSV injection")
//     starts with ' instead; numbers are never changed.
//   - Numbers are written as in the JSON documents (json_writer.hpp: exact round trip); a missing or
//     non-finite number is an empty field.
//
// Plain C++17, no dependency.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/document/json_writer.hpp"

NAPKIN_BEGIN_NAMESPACE

struct csv_table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // each as long as `columns`
};

namespace detail {

// A number as csv_cell writes it: [+-]digits[.digits][e[+-]digits].
inline bool is_csv_number(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&]() {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  bool any = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    any = digits() || any;
  }
  if (!any) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

inline void append_csv_field(std::string& out, std::string_view s) {
  // OWASP's CSV injection advice: a text field that a spreadsheet would read as a formula (it starts
  // with =, +, -, @, tab or CR) gets a leading '. A number stays a number: -1.5 is written as -1.5.
  std::string guarded;
  if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos && !is_csv_number(s)) {
    guarded = "'" + std::string(s);
    s = guarded;
  }
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(s);
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// Cells of a row, in column order.
inline std::string csv_cell(std::optional<double> v) {
  return v && std::isfinite(*v) ? json_number_text(*v) : std::string();
}
inline std::string csv_cell(std::uint64_t n) { return std::to_string(n); }
inline std::string csv_cell(std::string_view s) { return std::string(s); }
inline std::string csv_cell(bool b) { return b ? "true" : "false"; }

}  // namespace detail

inline std::string write_csv(const csv_table& t) {
  std::string out;
  const auto line = [&out](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) out += ',';
      detail::append_csv_field(out, fields[i]);
    }
    out += "\r\n";
  };
  line(t.columns);
  for (const auto& row : t.rows) line(row);
  return out;
}

NAPKIN_END_NAMESPACE
