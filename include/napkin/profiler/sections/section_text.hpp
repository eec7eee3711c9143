// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sections/section_text.hpp — a report section (report_section.hpp) as text for people, laid
// out like the profiler's Speed-Of-Light section (profiler/report.hpp): a title line, then label, unit and
// value in columns; a section of shares (stall reasons) sorted, largest first, each with a bar of its part of
// the whole; then the findings. The profiler's to_text(sol_report) appends a report's sections this way.
//
// Plain C++17, no CUDA.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "napkin/profiler/sections/report_section.hpp"

NAPKIN_BEGIN_NAMESPACE

// A section number's value for people, without its unit: a percentage with two decimals (ncu's layout),
// a whole number as it is, a large number with an SI prefix ("12.58 M"), any other with four significant
// digits; "n/a" when not measured.
std::string section_value_text(const section_number& n);

namespace detail {

inline constexpr std::size_t section_bar_width = 20;

// Whether `n` is one of the parts of a section of shares (its _share_pct numbers).
bool is_section_part(const report_section& s, const section_number& n);

// The order a section is drawn in: as made; in a section of shares its other numbers first, as made, then its
// parts, largest first (not measured last, ties as made).
std::vector<const section_number*> section_order(const report_section& s);

// The whole the parts of a section of shares make up: their sum.
double section_whole(const report_section& s);

}  // namespace detail

// "    Section: <title>", the numbers (label, unit, value; a section's shares last, sorted, each with a bar and
// its part of the whole), then each finding wrapped at 100 columns. The section is checked first
// (check_section).
std::string to_text(const report_section& s);

// Each section's text, one after another ("" when there are none).
std::string to_text(const std::vector<report_section>& sections);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/section_text_impl.hpp"
#endif
