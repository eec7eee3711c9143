// SPDX-License-Identifier: Apache-2.0
// napkin/text/numbers.hpp's number formatting: the function bodies. Included by numbers.hpp (header-only, the
// default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

NAPKIN_DETAIL_FUNC std::string non_finite_text(double v) {
  if (std::isnan(v)) return "nan";
  return v > 0 ? "inf" : "-inf";
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string fixed(double v, int decimals) {
  if (!std::isfinite(v)) return detail::non_finite_text(v);
  char buf[352];  // DBL_MAX printed with 17 decimals fits
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(decimals, 0, 17), v);
  return buf;
}

NAPKIN_DETAIL_FUNC std::string significant(double v) {
  if (!std::isfinite(v)) return detail::non_finite_text(v);
  if (v == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  return fixed(v, std::max(1, 3 - magnitude));
}

NAPKIN_DETAIL_FUNC std::string percent(double pct, int decimals) {
  if (!std::isfinite(pct)) return detail::non_finite_text(pct);
  return fixed(pct, decimals) + "%";
}

NAPKIN_DETAIL_FUNC si_scaled si_scale(double value) {
  static constexpr struct {
    double scale;
    const char* prefix;
  } prefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& p : prefixes)
    if (std::fabs(value) >= p.scale) return {value / p.scale, p.prefix};
  return {value, ""};
}

NAPKIN_DETAIL_FUNC std::string si(double value, std::string_view unit) {
  if (!std::isfinite(value)) return detail::non_finite_text(value) + " " + std::string(unit);
  // The prefix is chosen for the number as printed: 999999999.99 rounds to 1000000000, so "1.000 G", never
  // "1000.0 M".
  const si_scaled s = si_scale(std::strtod(significant(value).c_str(), nullptr));
  if (*s.prefix != '\0') return significant(s.value) + " " + s.prefix + std::string(unit);
  if (value == std::floor(value)) return fixed(value, 0) + " " + std::string(unit);
  return significant(value) + " " + std::string(unit);
}

NAPKIN_DETAIL_FUNC time_unit time_unit_of(double seconds) {
  const double a = std::fabs(seconds);
  if (a >= 1.0) return {1.0, "s", "s"};
  if (a >= 1e-3) return {1e3, "ms", "ms"};
  if (a >= 1e-6) return {1e6, "us", "µs"};
  return {1e9, "ns", "ns"};
}

NAPKIN_DETAIL_FUNC std::string duration(double seconds) {
  if (!std::isfinite(seconds)) return detail::non_finite_text(seconds) + " s";
  const time_unit u = time_unit_of(seconds);
  return fixed(seconds * u.per_second, u.per_second == 1e9 ? 0 : 2) + " " + u.ascii;
}

NAPKIN_DETAIL_FUNC std::string estimate_duration(double seconds) {
  if (!std::isfinite(seconds)) return detail::non_finite_text(seconds) + " s";
  const time_unit u = time_unit_of(seconds);
  return significant(seconds * u.per_second) + " " + u.symbol;
}

NAPKIN_DETAIL_FUNC std::string general(double v) {
  if (!std::isfinite(v)) return detail::non_finite_text(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

namespace detail {
NAPKIN_DETAIL_FUNC bool name_ends_with(std::string_view name, std::string_view suffix) {
  return name == suffix.substr(1) ||
         (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix);
}
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string named_number(double value, std::string_view name) {
  using detail::name_ends_with;
  const std::size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) {
    const std::string last = named_number(value, name.substr(dot + 1));
    return last != general(value) ? last : named_number(value, name.substr(0, dot));
  }
  if (name_ends_with(name, "_per_byte")) return significant(value) + " FLOP/B";
  if (name_ends_with(name, "_bytes_per_s")) return si(value, "B/s");
  if (name_ends_with(name, "_flop_per_s")) return si(value, "FLOP/s");
  if (name_ends_with(name, "_per_s")) return si(value, "/s");
  if (name_ends_with(name, "_ns")) return duration(value * 1e-9);
  if (name_ends_with(name, "_s")) return duration(value);
  if (name_ends_with(name, "_pct")) return percent(value);
  if (name_ends_with(name, "_hz")) return si(value, "Hz");
  if (name_ends_with(name, "_bytes") || name.substr(0, 6) == "bytes_" || name.find("_bytes_") != std::string_view::npos)
    return si(value, "B");
  if (name_ends_with(name, "_flop")) return si(value, "FLOP");
  return general(value);
}

NAPKIN_END_NAMESPACE
