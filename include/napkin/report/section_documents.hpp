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

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// One section's JSON object (the section is checked first: check_section).
inline json_value section_json_value(const report_section& s) {
  check_section(s);
  json_value v = json_value::object();
  json_value labels = json_value::object(), units = json_value::object(), directions = json_value::object();
  for (const section_number& n : s.numbers) {
    v.set(n.field, n.value ? json_value::number(*n.value) : json_value());
    labels.set(n.field, json_value::string(n.label));
    units.set(n.field, json_value::string(n.unit));
    directions.set(n.field, json_value::string(std::string(to_string(n.direction))));
  }
  json_value about = json_value::object();
  about.set("title", json_value::string(s.title));
  about.set("shares", json_value::boolean(s.shares));
  about.set("labels", std::move(labels));
  about.set("units", std::move(units));
  about.set("better", std::move(directions));
  json_value findings = json_value::array();
  for (const std::string& f : s.findings) findings.push(json_value::string(f));
  about.set("findings", std::move(findings));
  v.set(section_about_member, std::move(about));
  return v;
}

// The "sections" member: one object per section, by name, in their order.
inline json_value sections_value(const std::vector<report_section>& sections) {
  json_value v = json_value::object();
  for (const report_section& s : sections) v.set(s.name, section_json_value(s));
  return v;
}

}  // namespace detail

// The sections of `reports` as one long CSV table: one row per section number, columns name (the report's),
// section, field, label, value (empty when not measured), unit, better. Only the header when no report has a
// section.
inline std::string to_sections_csv(const std::vector<sol_report>& reports,
                                   const section_makers& makers = default_section_makers()) {
  csv_table t{{"name", "section", "field", "label", "value", "unit", "better"}, {}};
  for (const sol_report& r : reports)
    for (const report_section& s : sections_of(r, makers))
      for (const section_number& n : s.numbers)
        t.rows.push_back({r.name, s.name, n.field, n.label, detail::csv_cell(n.value), n.unit,
                          std::string(to_string(n.direction))});
  return write_csv(t);
}

inline std::string to_sections_csv(const sol_report& r, const section_makers& makers = default_section_makers()) {
  return to_sections_csv(std::vector<sol_report>{r}, makers);
}

NAPKIN_END_NAMESPACE
