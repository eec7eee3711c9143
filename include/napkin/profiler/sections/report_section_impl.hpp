// SPDX-License-Identifier: Apache-2.0
// One section of a measurement's report (report_section.hpp): the function bodies. Included by
// report_section.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/document/better.hpp"
#include "napkin/document/document.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC const section_number* report_section::number(std::string_view field) const {
  for (const section_number& n : numbers)
    if (n.field == field) return &n;
  return nullptr;
}

namespace detail {

NAPKIN_DETAIL_FUNC bool is_snake_case_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string validate_section(const report_section& s) {
  const std::string where = "section \"" + quote_input(s.name) + "\"";
  if (!detail::is_snake_case_name(s.name))
    return where + ": a section's name is snake_case (a-z, 0-9, '_', a letter first, at most 64 characters)";
  if (s.title.empty()) return where + ": no title";
  for (std::size_t i = 0; i < s.numbers.size(); ++i) {
    const section_number& n = s.numbers[i];
    const std::string at = where + ", number " + std::to_string(i + 1) + " \"" + quote_input(n.field) + "\"";
    if (!detail::is_snake_case_name(n.field))
      return at + ": a field name is snake_case (a-z, 0-9, '_', a letter first, at most 64 characters)";
    if (n.field == detail::section_about_member) return at + ": \"about\" is the member that holds the section's words";
    for (std::size_t j = 0; j < i; ++j)
      if (s.numbers[j].field == n.field) return at + ": the field is given twice (numbers " + std::to_string(j + 1) +
                                                " and " + std::to_string(i + 1) + ")";
    if (n.label.empty()) return at + ": no label";
    if (n.value && !std::isfinite(*n.value))
      return at + ": the value must be finite or missing, got " + general(*n.value);
    if (n.value && detail::is_measured_member(n.field))
      if (std::string bad = detail::measured_number_problem(*n.value, detail::is_percentage_member(n.field));
          !bad.empty())
        return at + ": " + bad;
    if (detail::is_share_field(n.field) && n.direction != better::none)
      return at + ": a share of a whole has no better direction (declared " + std::string(to_string(n.direction)) + ")";
  }
  if (s.shares) {
    bool any_share = false;
    for (const section_number& n : s.numbers) any_share = any_share || detail::is_share_field(n.field);
    if (!any_share) return where + ": a section of shares has no share (a field ending in _share_pct)";
  }
  for (std::size_t i = 0; i < s.findings.size(); ++i)
    if (s.findings[i].empty()) return where + ": finding " + std::to_string(i + 1) + " is empty";
  return {};
}

NAPKIN_DETAIL_FUNC void check_section(const report_section& s) {
  if (std::string bad = validate_section(s); !bad.empty()) detail::raise_input_error("napkin: " + bad);
}

NAPKIN_END_NAMESPACE
