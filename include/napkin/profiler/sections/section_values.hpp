// SPDX-License-Identifier: Apache-2.0
// What the sections share: reading a collected metric out of a sol_report with bad values refused (NaN,
// infinity or a negative number is an input error through napkin's failure policy, never a silently wrong
// section), and absent ones reported as missing. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

namespace detail {

// The metric's value, std::nullopt when the report does not hold it; refuses a value no counter can give.
std::optional<double> section_value(const sol_report& r, const std::string& metric);

// a / b where both are present; 0 requests give no ratio (nothing was requested), not a division by zero.
inline std::optional<double> section_ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b <= 0) return std::nullopt;
  return *a / *b;
}

// " key=value" for a section's to_key_values: the number as JSON writes it (exact), "nan" when not measured.
std::string section_field(const char* key, std::optional<double> v);

}  // namespace detail
NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/section_values_impl.hpp"
#endif
