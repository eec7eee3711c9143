// SPDX-License-Identifier: Apache-2.0
// napkin/document/csv.hpp's CSV writer (RFC 4180): the function bodies. Included by csv.hpp (header-only, the
// default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/json_writer.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// A number as csv_cell writes it: [+-]digits[.digits][e[+-]digits].
NAPKIN_DETAIL_FUNC bool is_csv_number(std::string_view s) {
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

NAPKIN_DETAIL_FUNC void append_csv_field(std::string& out, std::string_view s) {
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

NAPKIN_DETAIL_FUNC std::string csv_cell(std::optional<double> v) {
  return v && std::isfinite(*v) ? json_number_text(*v) : std::string();
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string write_csv(const csv_table& t) {
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
