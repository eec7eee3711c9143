// SPDX-License-Identifier: Apache-2.0
// A measurement's report sections as JSON and CSV (napkin/report/section_documents.hpp): the function bodies.
// Included by section_documents.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <utility>

#include "napkin/report/section_documents.hpp"
#include "napkin/document/csv.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// One section's JSON object (the section is checked first: check_section).
NAPKIN_DETAIL_FUNC json_value section_json_value(const report_section& s) {
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

NAPKIN_DETAIL_FUNC json_value sections_value(const std::vector<report_section>& sections) {
  json_value v = json_value::object();
  for (const report_section& s : sections) v.set(s.name, section_json_value(s));
  return v;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_sections_csv(const std::vector<sol_report>& reports,
                                               const section_makers& makers) {
  csv_table t{{"name", "section", "field", "label", "value", "unit", "better"}, {}};
  for (const sol_report& r : reports)
    for (const report_section& s : sections_of(r, makers))
      for (const section_number& n : s.numbers)
        t.rows.push_back({r.name, s.name, n.field, n.label, detail::csv_cell(n.value), n.unit,
                          std::string(to_string(n.direction))});
  return write_csv(t);
}

NAPKIN_DETAIL_FUNC std::string to_sections_csv(const sol_report& r, const section_makers& makers) {
  return to_sections_csv(std::vector<sol_report>{r}, makers);
}

NAPKIN_END_NAMESPACE
