// SPDX-License-Identifier: Apache-2.0
// A report section as text for people (section_text.hpp): the function bodies. Included by section_text.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/section_text.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string section_value_text(const section_number& n) {
  if (!n.value) return "n/a";
  const double v = *n.value;
  if (n.unit == "%") return fixed(v, 2);
  if (std::fabs(v) >= 1e5) {
    std::string s = si(v, "");
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  if (v == std::floor(v)) return fixed(v, 0);
  return significant(v);
}

namespace detail {

// A share's bar: '#' for its part of the whole, '.' for the rest, section_bar_width characters.
NAPKIN_DETAIL_FUNC std::string section_share_bar(double share, double whole) {
  const double part = whole > 0 ? std::clamp(share / whole, 0.0, 1.0) : 0.0;
  const auto filled = static_cast<std::size_t>(std::lround(part * static_cast<double>(section_bar_width)));
  return std::string(filled, '#') + std::string(section_bar_width - filled, '.');
}

NAPKIN_DETAIL_FUNC bool is_section_part(const report_section& s, const section_number& n) {
  return s.shares && is_share_field(n.field);
}

NAPKIN_DETAIL_FUNC std::vector<const section_number*> section_order(const report_section& s) {
  std::vector<const section_number*> order;
  for (const section_number& n : s.numbers)
    if (!is_section_part(s, n)) order.push_back(&n);
  const auto first_part = static_cast<std::ptrdiff_t>(order.size());
  for (const section_number& n : s.numbers)
    if (is_section_part(s, n)) order.push_back(&n);
  std::stable_sort(order.begin() + first_part, order.end(), [](const section_number* a, const section_number* b) {
    if (!a->value || !b->value) return a->value.has_value() && !b->value.has_value();
    return *a->value > *b->value;
  });
  return order;
}

NAPKIN_DETAIL_FUNC double section_whole(const report_section& s) {
  double whole = 0;
  for (const section_number& n : s.numbers)
    if (is_section_part(s, n)) whole += n.value.value_or(0);
  return whole;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_text(const report_section& s) {
  check_section(s);
  std::string out = "    Section: " + printable(s.title) + "\n";
  text_table t;
  t.column("label", text_table::align::left, 27);
  t.column("unit", text_table::align::left, 7);
  t.column("value", text_table::align::right, 14);
  if (s.shares) {
    t.column("bar", text_table::align::left);
    t.column("part", text_table::align::right);
  }
  const double whole = detail::section_whole(s);
  for (const section_number* n : detail::section_order(s)) {
    std::vector<std::string> row{printable(n->label), printable(n->unit), section_value_text(*n)};
    if (detail::is_section_part(s, *n)) {
      row.push_back(n->value ? detail::section_share_bar(*n->value, whole) : std::string());
      row.push_back(n->value && whole > 0 ? percent(*n->value / whole * 100, 0) : std::string());
    }
    t.row(std::move(row));
  }
  if (!s.numbers.empty()) out += t.text("    ", false);
  for (const std::string& f : s.findings) out += "      - " + wrap(printable(f), 100, 8, 8) + "\n";
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_text(const std::vector<report_section>& sections) {
  std::string out;
  for (const report_section& s : sections) out += to_text(s);
  return out;
}

NAPKIN_END_NAMESPACE
