// SPDX-License-Identifier: Apache-2.0
// napkin/report/section_html.hpp — a measurement's report sections (profiler/sections/) on the HTML run page
// (report/html_page.hpp draws them under each kernel's Speed-Of-Light bars): each section a table of its
// numbers (label, value, unit), a section of shares (stall reasons) first as one horizontal stacked bar of
// its parts (its _share_pct numbers), largest first, then its table: its other numbers, then the parts sorted
// with their colour and share; then the findings. Plain
// HTML and inline CSS: no script, nothing loaded from elsewhere. Every name and word is escaped.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "napkin/profiler/sections/report_section.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The colours of a stacked bar's parts, in turn (a part past the last takes the first again).
const char* html_share_colour(std::size_t i);

std::string html_section_style();

// Every section of one measurement; `id_prefix` makes their ids unique on the page ("kernel-3" gives
// "kernel-3-section-memory"). "" when there are none.
std::string html_sections(const std::vector<report_section>& sections, const std::string& id_prefix);

}  // namespace detail

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/section_html_impl.hpp"
#endif
