// SPDX-License-Identifier: Apache-2.0
// Report sections on the HTML run page (napkin/report/section_html.hpp): the function bodies. Included by
// section_html.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <string>

#include "napkin/report/section_html.hpp"
#include "napkin/profiler/sections/section_text.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC const char* html_share_colour(std::size_t i) {
  static constexpr const char* colours[] = {"#3b7dd8", "#e0803a", "#3fa66b", "#c94b4b", "#8a63c4",
                                            "#8c6d52", "#d46fb0", "#7f7f7f", "#b5b83a", "#3ab5c4"};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

NAPKIN_DETAIL_FUNC std::string html_section_style() {
  return ".report-section{margin:10px 0 4px}.report-section h4{font-size:13px;margin:6px 0 4px}"
         ".share-bar{display:flex;width:480px;height:16px;border:1px solid #ccc;background:#eee}"
         ".share{height:100%}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px}"
         "ul.findings{margin:4px 0 8px}";
}

// Where the parts of a section of shares start in its drawing order (section_order puts them last).
NAPKIN_DETAIL_FUNC std::size_t first_part(const std::vector<const section_number*>& order, const report_section& s) {
  std::size_t i = 0;
  while (i < order.size() && !is_section_part(s, *order[i])) ++i;
  return i;
}

// One section as HTML: checked first (check_section).
NAPKIN_DETAIL_FUNC std::string html_section(const report_section& s, const std::string& id) {
  check_section(s);
  std::string out = "<div class=\"report-section\" id=\"" + xml_escape(id) + "\" data-section=\"" +
                    xml_escape(s.name) + "\" data-shares=\"" + (s.shares ? "true" : "false") + "\"><h4>" +
                    xml_escape(s.title) + "</h4>\n";
  const std::vector<const section_number*> order = section_order(s);
  const double whole = section_whole(s);
  const std::size_t parts_from = first_part(order, s);  // a part's colour: its place among the parts
  if (s.shares && whole > 0) {
    out += "<div class=\"share-bar\" role=\"img\" aria-label=\"" + xml_escape(s.title) + "\">";
    for (std::size_t i = 0; i < order.size(); ++i) {
      const section_number& n = *order[i];
      if (!is_section_part(s, n) || !n.value || *n.value <= 0) continue;
      const double pct = *n.value / whole * 100;
      out += "<div class=\"share\" data-field=\"" + xml_escape(n.field) + "\" data-share-pct=\"" + svg_number(pct) +
             "\" style=\"width:" + fixed(pct, 2) + "%;background:" + html_share_colour(i - parts_from) +
             "\" title=\"" + xml_escape(n.label) + ": " + percent(pct) + "\"></div>";
    }
    out += "</div>\n";
  }
  if (!s.numbers.empty()) {
    out += "<table class=\"section-numbers\"><thead><tr><th></th><th class=\"num\">Value</th><th>Unit</th>";
    if (s.shares) out += "<th class=\"num\">Share</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < order.size(); ++i) {
      const section_number& n = *order[i];
      out += "<tr data-field=\"" + xml_escape(n.field) + "\" data-value=\"" +
             (n.value ? svg_number(*n.value) : std::string()) + "\"><td class=\"label\">";
      const bool part = is_section_part(s, n);
      if (part)
        out += "<span class=\"swatch\" style=\"background:" + std::string(html_share_colour(i - parts_from)) +
               "\"></span>";
      out += xml_escape(n.label) + "</td><td class=\"num" + (n.value ? "" : " missing") + "\">" +
             xml_escape(section_value_text(n)) + "</td><td class=\"unit\">" + xml_escape(n.unit) + "</td>";
      if (s.shares)
        out += "<td class=\"num share-pct\">" +
               (part && n.value && whole > 0 ? percent(*n.value / whole * 100) : std::string("-")) + "</td>";
      out += "</tr>\n";
    }
    out += "</tbody></table>\n";
  }
  if (!s.findings.empty()) {
    out += "<ul class=\"findings\">";
    for (const std::string& f : s.findings) out += "<li>" + xml_escape(f) + "</li>";
    out += "</ul>\n";
  }
  return out + "</div>\n";
}

NAPKIN_DETAIL_FUNC std::string html_sections(const std::vector<report_section>& sections,
                                             const std::string& id_prefix) {
  std::string out;
  for (const report_section& s : sections) out += html_section(s, id_prefix + "-section-" + s.name);
  return out;
}

}  // namespace detail

NAPKIN_END_NAMESPACE
