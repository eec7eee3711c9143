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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/better.hpp"

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

  const section_number* number(std::string_view field) const;
};

namespace detail {

// A stable name: a lower-case letter, then lower-case letters, digits and '_' (it becomes part of a flattened
// field name, "sections.memory.l1_hit_rate_pct", and a JSON member, a CSV cell and an HTML id).
bool is_snake_case_name(std::string_view s);

// The member that holds a section's words in its JSON object (report/section_documents.hpp), so no number
// may take its name.
inline constexpr std::string_view section_about_member = "about";

}  // namespace detail

// Why `s` cannot be drawn, or "" when it can: a name or field that is not snake_case, a field given twice, a
// missing title or label, a number that is not finite, a measured number (by its suffix: _pct, _ns, _bytes,
// ...) that document readers would refuse (negative, a percentage above 1000), a share (_share_pct) with a
// direction, a section of shares without one, an empty finding.
std::string validate_section(const report_section& s);

// validate_section, as napkin's input error (std::invalid_argument by default).
void check_section(const report_section& s);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/report_section_impl.hpp"
#endif
