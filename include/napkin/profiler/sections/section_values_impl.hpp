// SPDX-License-Identifier: Apache-2.0
// What the sections share (section_values.hpp): the function bodies. Included by section_values.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

NAPKIN_DETAIL_FUNC std::optional<double> section_value(const sol_report& r, const std::string& metric) {
  const auto it = r.values.find(metric);
  if (it == r.values.end()) return std::nullopt;
  const double v = it->second;
  if (!std::isfinite(v) || v < 0)
    raise_input_error<std::invalid_argument>("napkin: metric " + metric + " of \"" + r.name +
                                             "\" must be finite and >= 0, got " + significant(v));
  return v;
}

NAPKIN_DETAIL_FUNC std::string section_field(const char* key, std::optional<double> v) {
  return std::string(" ") + key + "=" + (v ? json_number_text(*v) : std::string("nan"));
}

}  // namespace detail
NAPKIN_END_NAMESPACE
