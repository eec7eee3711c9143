// SPDX-License-Identifier: Apache-2.0
// What the sections share: reading a collected metric out of a sol_report with bad values refused (NaN,
// infinity or a negative number is an input error through napkin's failure policy, never a silently wrong
// section), and absent ones reported as missing. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "napkin/document/json_writer.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The metric's value, std::nullopt when the report does not hold it; refuses a value no counter can give.
inline std::optional<double> section_value(const sol_report& r, const std::string& metric) {
  const auto it = r.values.find(metric);
  if (it == r.values.end()) return std::nullopt;
  const double v = it->second;
  if (!std::isfinite(v) || v < 0)
    raise_input_error<std::invalid_argument>("napkin: metric " + metric + " of \"" + r.name +
                                             "\" must be finite and >= 0, got " + significant(v));
  return v;
}

// a / b where both are present; 0 requests give no ratio (nothing was requested), not a division by zero.
inline std::optional<double> section_ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b <= 0) return std::nullopt;
  return *a / *b;
}

// " key=value" for a section's to_key_values: the number as JSON writes it (exact), "nan" when not measured.
inline std::string section_field(const char* key, std::optional<double> v) {
  return std::string(" ") + key + "=" + (v ? json_number_text(*v) : std::string("nan"));
}

}  // namespace detail
NAPKIN_END_NAMESPACE
