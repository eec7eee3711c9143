// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sections/sections.hpp — a measurement's sections beyond Speed-Of-Light (report_section.hpp),
// made from its report: each section is a pure function of the sol_report's collected metrics (`values`),
// so a report read back from its JSON document (report/json_read_run.hpp rebuilds it from "values") gets the
// same sections as the one measured. A maker that finds its metrics missing makes no section.
//
//   for (const napkin::report_section& s : napkin::sections_of(report)) std::cout << napkin::to_text(s);
//
// How diff() judges a section's number (report/compare.hpp's better_direction for "sections.<name>.<field>")
// is declared once, in section_field_directions() (section_directions.hpp); every number a maker makes must
// declare the same direction there (sections_of checks it), so a document read back, whose numbers carry no
// direction, is compared as the one in memory.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <vector>

#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/profiler/sections/section_reports.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

// Makes one section from a report, or nullopt when the report lacks the metrics it needs.
using section_maker = std::optional<report_section> (*)(const sol_report&);
using section_makers = std::vector<section_maker>;

// The sections napkin draws for every report that holds their metrics, in the order they are drawn
// (section_reports.hpp): the deeper verdict, warp state, pipes, the memory chart and occupancy.
section_makers default_section_makers();

// Each maker's section, in the makers' order (a maker returning nullopt adds none). Each section is checked
// (check_section), two sections may not share a name, and each number's direction must be the one
// section_field_directions() declares for it: otherwise napkin's input error.
std::vector<report_section> sections_of(const sol_report& r, const section_makers& makers = default_section_makers());

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/sections_impl.hpp"
#endif
