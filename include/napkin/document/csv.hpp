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

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

struct csv_table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // each as long as `columns`
};

namespace detail {

// Cells of a row, in column order.
std::string csv_cell(std::optional<double> v);
inline std::string csv_cell(std::uint64_t n) { return std::to_string(n); }
inline std::string csv_cell(std::string_view s) { return std::string(s); }
inline std::string csv_cell(bool b) { return b ? "true" : "false"; }

}  // namespace detail

std::string write_csv(const csv_table& t);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/document/csv_impl.hpp"
#endif
