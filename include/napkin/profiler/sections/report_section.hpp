// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sections/report_section.hpp — one section of a measurement's report beyond the
// Speed-Of-Light numbers (warp state, occupancy, pipes, memory chart: issue 28), in the one plain form every
// renderer takes: its numbers, each with a stable snake_case field name, a label for people, a unit and the
// way it improves, and the findings in words. sections.hpp makes them from a sol_report; the documents
// (report/section_documents.hpp), the text (section_text.hpp) and the HTML page (report/section_html.hpp)
// draw them. docs/reports.md lists the fields.
//
// A section is checked before it is drawn (check_section): a bad one is napkin's input error, never a
// silently wrong document. Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/better.hpp"
#include "napkin/document/document.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

struct section_number {
  std::string field;  // stable snake_case with its unit as suffix where it has one: "l1_hit_rate_pct"
  std::string label;  // for people: "L1/TEX hit rate"
  std::optional<double> value;  // none: not measured (null in JSON, an empty cell in CSV, "n/a" in text)
  std::string unit;   // as people read it: "%", "sectors/request", "cycles", "warps", "" (a plain number)
  better direction = better::none;  // how diff() judges a change (section_field_directions() must agree)
};

struct report_section {
  std::string name;   // stable snake_case: "warp_state", "occupancy", "pipes", "memory"
  std::string title;  // for people: "Warp state (stall reasons per issued instruction)"
  std::vector<section_number> numbers;  // in the order the section shows them
  // The section's parts are shares of one whole (stall reasons): its numbers whose field ends in _share_pct,
  // drawn sorted, largest first, and as one stacked bar; a share has no better direction. Its other numbers
  // (warp cycles per issued instruction) are drawn before them, as in any section.
  bool shares = false;
  // Sentences with their numbers: "top stall: long scoreboard, 61 % of stalls (waiting on L1TEX data)".
  std::vector<std::string> findings;

  const section_number* number(std::string_view field) const {
    for (const section_number& n : numbers)
      if (n.field == field) return &n;
    return nullptr;
  }
};

namespace detail {

// A stable name: a lower-case letter, then lower-case letters, digits and '_' (it becomes part of a flattened
// field name, "sections.memory.l1_hit_rate_pct", and a JSON member, a CSV cell and an HTML id).
inline bool is_snake_case_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// The member that holds a section's words in its JSON object (report/section_documents.hpp), so no number
// may take its name.
inline constexpr std::string_view section_about_member = "about";

}  // namespace detail

// Why `s` cannot be drawn, or "" when it can: a name or field that is not snake_case, a field given twice, a
// missing title or label, a number that is not finite, a measured number (by its suffix: _pct, _ns, _bytes,
// ...) that document readers would refuse (negative, a percentage above 1000), a share (_share_pct) with a
// direction, a section of shares without one, an empty finding.
inline std::string validate_section(const report_section& s) {
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

// validate_section, as napkin's input error (std::invalid_argument by default).
inline void check_section(const report_section& s) {
  if (std::string bad = validate_section(s); !bad.empty()) detail::raise_input_error("napkin: " + bad);
}

NAPKIN_END_NAMESPACE
