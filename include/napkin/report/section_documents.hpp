// SPDX-License-Identifier: Apache-2.0
// napkin/report/section_documents.hpp — a measurement's report sections (profiler/sections/) in its JSON
// document and as a CSV table of their own.
//
// JSON: the member "sections" of a report (report/profiler_documents.hpp writes it when sections_of gives
// any), one object per section, its numbers as members of it and its words under "about":
//
//   "sections": {"memory": {"l1_hit_rate_pct": 92.5, "global_load_sectors_per_request": 4,
//                           "about": {"title": "Memory chart", "shares": false,
//                                     "labels": {"l1_hit_rate_pct": "L1/TEX hit rate", ...},
//                                     "units": {"l1_hit_rate_pct": "%", ...},
//                                     "better": {"l1_hit_rate_pct": "higher", ...},
//                                     "findings": ["..."]}}}
//
// so a document flattens (document/document.hpp) each number as "sections.<name>.<field>", the name diff()
// compares and finds the direction of (section_field_direction); "about" holds no number. A number not
// measured is null. The sections are not read back: a reader rebuilds the report from its "values" and makes
// them again (report/json_read_run.hpp, sections_of).
//
// CSV: the fixed-column table of the reports stays as it is; the sections are a long table, one row per
// number: name, section, field, label, value, unit, better.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <vector>

#include "napkin/document/json_writer.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The "sections" member: one object per section, by name, in their order.
json_value sections_value(const std::vector<report_section>& sections);

}  // namespace detail

// The sections of `reports` as one long CSV table: one row per section number, columns name (the report's),
// section, field, label, value (empty when not measured), unit, better. Only the header when no report has a
// section.
std::string to_sections_csv(const std::vector<sol_report>& reports,
                            const section_makers& makers = default_section_makers());

std::string to_sections_csv(const sol_report& r, const section_makers& makers = default_section_makers());

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/section_documents_impl.hpp"
#endif
