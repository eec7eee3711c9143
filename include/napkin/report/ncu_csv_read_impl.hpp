// SPDX-License-Identifier: Apache-2.0
// Nsight Compute's raw CSV read as kernel_reports (napkin/report/ncu_csv_read.hpp): the function bodies. Included by
// ncu_csv_read.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <clocale>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "napkin/report/ncu_csv_read.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/error.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string ncu_csv_metric_set(const std::string& file) { return "ncu --page raw CSV: " + file; }

namespace detail {

[[noreturn]] NAPKIN_DETAIL_FUNC void bad_ncu_csv(const std::string& file, const std::string& what) {
  raise_input_error("napkin: " + file + ": " + what);
}

// The rows of RFC 4180 text; a UTF-8 BOM is skipped, lines end with CRLF or LF, a final line end is optional.
// An unterminated quote is an error.
NAPKIN_DETAIL_FUNC std::vector<std::vector<std::string>> csv_rows(std::string_view text, const std::string& file) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c, line += c == '\n';
      continue;
    }
    if (c == '"' && field.empty()) quoted = any = true;
    else if (c == ',') row.push_back(std::move(field)), field.clear(), any = true;
    else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      if (c == '\r') ++i;
      if (any || !field.empty()) row.push_back(std::move(field));
      if (!row.empty()) rows.push_back(std::move(row));
      row.clear(), field.clear(), any = false, ++line;
    } else field += c, any = true;
  }
  if (quoted) bad_ncu_csv(file, "line " + std::to_string(line) + ": a quoted field is not closed (a truncated file?)");
  if (any || !field.empty()) row.push_back(std::move(field));
  if (!row.empty()) rows.push_back(std::move(row));
  return rows;
}

NAPKIN_DETAIL_FUNC std::optional<double> ncu_number(std::string_view s) {
  std::string plain;
  std::size_t i = 0, digits = 0, group = 0;
  bool grouped = false;
  if (i < s.size() && s[i] == '-') plain += s[i++];
  for (; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') {
      plain += s[i], ++digits, ++group;
      if (grouped && group > 3) return std::nullopt;
    } else if (s[i] == ',' && digits > 0 && (grouped ? group == 3 : group <= 3)) {
      grouped = true, group = 0;
    } else break;
  }
  if (digits == 0 || (grouped && group != 3)) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    plain += s[i++];
    std::size_t fraction = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) plain += s[i], ++fraction;
    if (fraction == 0) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    plain += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) plain += s[i++];
    std::size_t exponent = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) plain += s[i], ++exponent;
    if (exponent == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  // strtod reads the locale's decimal point.
  const char point = *std::localeconv()->decimal_point;
  for (char& c : plain)
    if (c == '.') c = point;
  return std::strtod(plain.c_str(), nullptr);
}

// Cells ncu writes for a metric it could not give.
NAPKIN_DETAIL_FUNC bool ncu_missing_cell(std::string_view s) {
  return s.empty() || s == "n/a" || s == "N/A" || s == "nan" || s == "-nan" || s == "no data";
}

// A unit ncu scaled (print-units auto: "usecond", "Kbyte", "Mbyte/second", "Ghz"): base units are "ns",
// "byte", "byte/s", "cycle", "%", "hz" (a clock with --print-units base: tests/report/data/ncu_zoo_sol_raw.csv),
// ...
NAPKIN_DETAIL_FUNC bool ncu_scaled_unit(std::string_view unit) {
  std::size_t start = 0;
  while (start <= unit.size()) {
    const std::size_t slash = unit.find('/', start);
    const std::string_view part = unit.substr(start, slash == std::string_view::npos ? unit.npos : slash - start);
    if (part == "second") return true;
    if (part.size() > 1 && std::string_view("KMGTPmun").find(part[0]) != std::string_view::npos) {
      const std::string_view rest = part.substr(1);
      for (std::string_view base : {"second", "hz", "Hz", "byte", "B", "cycle", "inst", "sector", "request", "warp",
                                    "thread", "block"})
        if (rest == base) return true;
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return false;
}

// "9.0" as a compute capability napkin knows; nullopt otherwise.
NAPKIN_DETAIL_FUNC std::optional<compute_capability> ncu_cc(std::string_view s) {
  if (s.size() < 3 || s.size() > 5) return std::nullopt;
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= s.size()) return std::nullopt;
  int major = 0, minor = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i == dot) continue;
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    (i < dot ? major : minor) = (i < dot ? major : minor) * 10 + (s[i] - '0');
  }
  compute_capability cc;
  cc.major = major, cc.minor = minor;
  if (!cc.valid() || s.size() - dot != 2) return std::nullopt;  // one minor digit
  return cc;
}

// The launch from the LaunchStats section's columns, when the row has them (registers, shared memory, grid,
// block, SM count); none otherwise, so no occupancy is computed from a partial launch.
NAPKIN_DETAIL_FUNC std::optional<kernel_launch> ncu_launch(const std::map<std::string, double>& v,
                                                           std::optional<compute_capability> cc) {
  const auto get = [&v](const char* m) -> std::optional<double> {
    const auto it = v.find(m);
    if (it == v.end()) return std::nullopt;
    return it->second;
  };
  const char* needed[] = {"launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z", "launch__block_dim_x",
                          "launch__block_dim_y", "launch__block_dim_z", "launch__registers_per_thread",
                          "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
                          "launch__sm_count"};
  for (const char* m : needed) {
    const auto x = get(m);
    if (!x || *x < 0 || *x > 2147483647.0 || *x != static_cast<double>(static_cast<std::int64_t>(*x))) return std::nullopt;
  }
  const auto u = [&get](const char* m) { return static_cast<std::uint32_t>(*get(m)); };
  const auto i = [&get](const char* m) { return static_cast<int>(*get(m)); };
  kernel_launch l;
  l.grid = {u("launch__grid_dim_x"), u("launch__grid_dim_y"), u("launch__grid_dim_z")};
  l.block = {u("launch__block_dim_x"), u("launch__block_dim_y"), u("launch__block_dim_z")};
  l.registers_per_thread = i("launch__registers_per_thread");
  l.static_smem_bytes = i("launch__shared_mem_per_block_static");
  l.dynamic_smem_bytes = i("launch__shared_mem_per_block_dynamic");
  l.sm_count = i("launch__sm_count");
  if (const auto c = get("launch__shared_mem_config_size"); c && *c > 0 && *c <= 2147483647.0) l.smem_config_bytes = static_cast<int>(*c);
  const auto cx = get("launch__cluster_dim_x"), cy = get("launch__cluster_dim_y"), cz = get("launch__cluster_dim_z");
  if (cx && cy && cz && *cx >= 1 && *cy >= 1 && *cz >= 1 && *cx <= 64 && *cy <= 64 && *cz <= 64)
    l.cluster = launch_dims{static_cast<std::uint32_t>(*cx), static_cast<std::uint32_t>(*cy), static_cast<std::uint32_t>(*cz)};
  if (cc) l.cc = *cc;
  return l;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC bool looks_like_ncu_csv(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text.substr(0, 18) == "\"ID\",\"Process ID\"," || text.substr(0, 14) == "ID,Process ID,";
}

NAPKIN_DETAIL_FUNC ncu_csv_run read_ncu_csv(std::string_view text, const std::string& file) {
  const std::vector<std::vector<std::string>> rows = detail::csv_rows(text, file);
  if (rows.empty()) detail::bad_ncu_csv(file, "empty: expected ncu's raw CSV (ncu --csv --page raw --print-units base)");
  const std::vector<std::string>& header = rows[0];
  const char* fixed[] = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
                         "Block Size", "Grid Size", "Device", "CC"};
  constexpr std::size_t n_fixed = sizeof fixed / sizeof fixed[0];
  for (std::size_t c = 0; c < n_fixed; ++c)
    if (c >= header.size() || header[c] != fixed[c])
      detail::bad_ncu_csv(file, "not ncu's raw CSV: header column " + std::to_string(c + 1) + " is '" +
                                    quote_input(c < header.size() ? header[c] : std::string()) + "', expected '" +
                                    fixed[c] + "' (record with ncu --csv --page raw --print-units base)");
  if (header.size() > n_fixed && header[n_fixed] == "Section Name")
    detail::bad_ncu_csv(file, "ncu's details page (--page details): napkin reads the raw page, ncu --csv --page raw "
                              "--print-units base");
  for (std::size_t r = 1; r < rows.size(); ++r)
    if (rows[r].size() != header.size())
      detail::bad_ncu_csv(file, "row " + std::to_string(r + 1) + " has " + std::to_string(rows[r].size()) +
                                    " cells, the header " + std::to_string(header.size()) + " (a truncated or edited file?)");
  // Metric names as ncu spells them (letters, digits, '_' and '.'), each once: they become the values' keys.
  std::map<std::string_view, std::size_t> seen;
  for (std::size_t c = n_fixed; c < header.size(); ++c) {
    const std::string& m = header[c];
    bool name_ok = !m.empty() && m.size() <= 256;
    for (char ch : m)
      name_ok = name_ok && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                            ch == '_' || ch == '.');
    if (!name_ok)
      detail::bad_ncu_csv(file, "header column " + std::to_string(c + 1) + " '" + quote_input(m) +
                                    "' is not an ncu metric name (letters, digits, '_' and '.')");
    if (!seen.emplace(m, c).second)
      detail::bad_ncu_csv(file, "metric '" + m + "' is in columns " + std::to_string(seen[m] + 1) + " and " +
                                    std::to_string(c + 1));
  }
  if (rows.size() < 2 || !rows[1][0].empty())
    detail::bad_ncu_csv(file, "no units row under the header (ncu writes one: an edited file?)");
  const std::vector<std::string>& units = rows[1];
  for (std::size_t c = n_fixed; c < header.size(); ++c)
    if (detail::ncu_scaled_unit(units[c]))
      detail::bad_ncu_csv(file, "column '" + quote_input(header[c]) + "' is in '" + quote_input(units[c]) +
                                    "', a unit ncu scaled for reading: record (or export) with ncu --csv --page raw "
                                    "--print-units base, so every number is in its base unit");
  ncu_csv_run out;
  out.file = file;
  std::map<std::string, std::size_t> left_out;  // metric -> reason index
  std::map<std::string, std::string> reasons;
  for (std::size_t r = 2; r < rows.size(); ++r) {
    const std::vector<std::string>& row = rows[r];
    const std::string where = "row " + std::to_string(r + 1);
    sol_report k;
    k.name = row[4];
    if (k.name.empty()) detail::bad_ncu_csv(file, where + ": no kernel name");
    k.how = measured_by::ncu;
    k.metric_set = ncu_csv_metric_set(file);
    for (std::size_t c = n_fixed; c < header.size(); ++c) {
      const std::string& metric = header[c];
      const std::string& cell = row[c];
      if (metric == "device__attribute_display_name" && !cell.empty()) {
        if (out.gpu.name.empty()) out.gpu.name = cell;
        k.context.device_name = cell;
        continue;
      }
      if (detail::ncu_missing_cell(cell)) continue;
      const std::optional<double> x = detail::ncu_number(cell);
      if (!x) {
        if (units[c].empty()) continue;  // a text metric ("CachePreferNone", "PolicySpread")
        detail::bad_ncu_csv(file, where + ", column '" + quote_input(metric) + "': '" + quote_input(cell) +
                                      "' is not a number (unit " + quote_input(units[c]) + ")");
      }
      if (!std::isfinite(*x))
        detail::bad_ncu_csv(file, where + ", column '" + quote_input(metric) + "': '" + quote_input(cell) +
                                      "' is not a finite number");
      const std::string bad = detail::measured_number_problem(*x, metric.find("pct") != std::string::npos);
      if (!bad.empty()) {
        ++left_out[metric];
        if (reasons.count(metric) == 0) reasons[metric] = bad;
        continue;
      }
      k.values[metric] = *x;
    }
    if (const auto d = detail::ncu_number(row[9]); d && *d >= 0 && *d < 1e6) k.context.device_index = static_cast<std::int64_t>(*d);
    const std::optional<compute_capability> cc = detail::ncu_cc(row[10]);
    if (out.gpu.compute_capability.empty() && cc) out.gpu.compute_capability = row[10];
    k.launch = detail::ncu_launch(k.values, cc);  // none without the LaunchStats section
    out.run.kernels.push_back(std::move(k));
  }
  for (const auto& [metric, count] : left_out)
    out.notes.push_back(metric + ": left out of " + std::to_string(count) + " kernel(s), " + reasons[metric] +
                        " (napkin's documents keep only what they can read back)");
  if (out.run.kernels.empty()) detail::bad_ncu_csv(file, "no kernel rows under the header and units rows");
  return out;
}

NAPKIN_END_NAMESPACE
