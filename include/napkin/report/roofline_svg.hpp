// SPDX-License-Identifier: Apache-2.0
// napkin/report/roofline_svg.hpp — a roofline chart (napkin/report/roofline_chart.hpp) as one self-contained
// SVG (no fonts, scripts or links), drawn like Nsight Compute's: log-log axes with decade ticks, one
// horizontal ceiling per peak (pipes with equal peaks share a line), a sloped ceiling per memory level,
// ridge points, labelled points (filled: measured, hollow: napkin estimate), before/after arrows.
// docs/reports-pictures.md shows one.
//
// Every drawn element carries its numbers as data- attributes (data-intensity, data-flops, data-pipe,
// data-memory; the root has the axis ranges and the plot frame) so that tests and scripts can read a
// position back. Plain C++17, no CUDA; compiles with -fno-exceptions.
//
//   auto chart = napkin::make_roofline_chart(napkin::find_gpu("h100-sxm"), "softmax, before and after");
//   napkin::add_pair(chart, napkin::add_measurement(chart, naive), napkin::add_measurement(chart, fused));
//   std::ofstream("roofline.svg") << napkin::to_svg(chart);
#pragma once

#include "napkin/config.hpp"

#include <iosfwd>
#include <string>
#include <string_view>

#include "napkin/report/roofline_chart.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// Text for XML and HTML content and attribute values. Control characters XML 1.0 cannot hold become '?';
// Unicode's bidi overrides and isolates are shown as <U+202E> (text/printable.hpp), not obeyed.
std::string xml_escape(std::string_view s);

// A data- attribute value: six significant digits, enough to place a point within a pixel.
std::string svg_number(double v);

}  // namespace detail

std::string to_svg(const roofline_chart& c);

void write_svg(std::ostream& out, const roofline_chart& c);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/roofline_svg_impl.hpp"
#endif
