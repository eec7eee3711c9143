// SPDX-License-Identifier: Apache-2.0
// A measurement's sections beyond Speed-Of-Light (sections.hpp): the function bodies. Included by sections.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/sections.hpp"
#include "napkin/document/better.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/profiler/sections/section_reports.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC section_makers default_section_makers() {
  return {&deeper_verdict_report, &warp_state_report, &pipes_report, &memory_report, &occupancy_report};
}

NAPKIN_DETAIL_FUNC std::vector<report_section> sections_of(const sol_report& r, const section_makers& makers) {
  std::vector<report_section> out;
  for (section_maker make : makers) {
    if (make == nullptr) detail::raise_input_error("napkin: a section maker is a null function pointer");
    std::optional<report_section> s = make(r);
    if (!s) continue;
    check_section(*s);
    for (const report_section& before : out)
      if (before.name == s->name)
        detail::raise_input_error("napkin: two section makers made a section \"" + quote_input(s->name) + "\"");
    for (const section_number& n : s->numbers) {
      const better declared = section_field_direction("sections." + s->name + "." + n.field);
      if (declared != n.direction)
        detail::raise_input_error("napkin: section \"" + s->name + "\", field \"" + n.field + "\" is better " +
                                  std::string(to_string(n.direction)) + ", but section_field_directions() says " +
                                  std::string(to_string(declared)) + ": diff() would judge it otherwise");
    }
    out.push_back(std::move(*s));
  }
  return out;
}

NAPKIN_END_NAMESPACE
