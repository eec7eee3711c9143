// SPDX-License-Identifier: Apache-2.0
// What a roofline chart shows (napkin/report/roofline_chart.hpp): the function bodies. Included by
// roofline_chart.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "napkin/report/roofline_chart.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

[[noreturn]] NAPKIN_DETAIL_FUNC void bad_roofline_input(const std::string& what) {
  raise_input_error<std::invalid_argument>("napkin: roofline chart: " + what);
}

NAPKIN_DETAIL_FUNC void roofline_positive_finite(double v, const std::string& what) {
  if (!(v > 0) || !std::isfinite(v))  // NaN fails the first test
    bad_roofline_input(what + " must be a finite number > 0 (log axes), got " + general(v));
}

}  // namespace detail

NAPKIN_DETAIL_FUNC roofline_chart make_roofline_chart(const gpu_spec& g, std::vector<pipe> pipes, std::string title) {
  if (pipes.empty()) detail::bad_roofline_input("no pipe to draw a compute ceiling for");
  for (pipe p : pipes) static_cast<void>(roof_of(g, p));  // refuses a pipe without a peak, a spec without DRAM B/s
  roofline_chart c;
  c.gpu = g;
  c.pipes = std::move(pipes);
  c.memory.push_back({"DRAM", g.memory_bandwidth});
  c.title = std::move(title);
  return c;
}

NAPKIN_DETAIL_FUNC roofline_chart make_roofline_chart(const gpu_spec& g, std::string title) {
  std::vector<pipe> pipes;
  for (pipe p : all_pipes)
    if (g.has(p)) pipes.push_back(p);
  return make_roofline_chart(g, std::move(pipes), std::move(title));
}

NAPKIN_DETAIL_FUNC void add_bandwidth_ceiling(roofline_chart& c, std::string name, double bytes_per_s) {
  detail::roofline_positive_finite(bytes_per_s, "the bandwidth of \"" + name + "\"");
  c.memory.push_back({std::move(name), bytes_per_s});
}

NAPKIN_DETAIL_FUNC std::size_t add_point(roofline_chart& c, roofline_point p) {
  detail::roofline_positive_finite(p.intensity, "point \"" + p.label + "\": the arithmetic intensity");
  detail::roofline_positive_finite(p.flops_per_s, "point \"" + p.label + "\": the FLOP/s");
  c.points.push_back(std::move(p));
  return c.points.size() - 1;
}

NAPKIN_DETAIL_FUNC roofline_point estimate_point(std::string label, const roofline_estimate& e) {
  return {std::move(label), e.intensity, e.attainable_flops, point_source::estimate};
}

NAPKIN_DETAIL_FUNC roofline_point measured_point(const sol_report& r, std::string label) {
  const auto flop = r.flop();
  const auto bytes = r.dram_bytes();
  const auto ns = r.duration_ns();
  if (!flop || !bytes || !ns)
    detail::bad_roofline_input("report \"" + r.name + "\" (set \"" + r.metric_set + "\") lacks " +
                               (!flop ? "executed FLOP" : !bytes ? "DRAM bytes" : "a duration") +
                               ": measure with napkin::metric_sets::roofline() to plot it");
  detail::roofline_positive_finite(*flop, "report \"" + r.name + "\": the executed FLOP");
  detail::roofline_positive_finite(*bytes, "report \"" + r.name + "\": the DRAM bytes");
  detail::roofline_positive_finite(*ns, "report \"" + r.name + "\": the duration");
  return {std::move(label), *flop / *bytes, *flop / (*ns * 1e-9), point_source::measured};
}

NAPKIN_DETAIL_FUNC roofline_point measured_point(const sol_report& r) { return measured_point(r, r.name); }

NAPKIN_DETAIL_FUNC std::size_t add_measurement(roofline_chart& c, const sol_report& r) {
  return add_point(c, measured_point(r));
}

NAPKIN_DETAIL_FUNC std::size_t add_measurement(roofline_chart& c, const sol_report& r, std::string label) {
  return add_point(c, measured_point(r, std::move(label)));
}

NAPKIN_DETAIL_FUNC std::size_t add_estimate(roofline_chart& c, std::string label, const roofline_estimate& e) {
  return add_point(c, estimate_point(std::move(label), e));
}

NAPKIN_DETAIL_FUNC void add_pair(roofline_chart& c, std::size_t before, std::size_t after) {
  if (before >= c.points.size() || after >= c.points.size() || before == after)
    detail::bad_roofline_input("a before/after pair needs two different points of the chart (indices " +
                               std::to_string(before) + ", " + std::to_string(after) + " of " +
                               std::to_string(c.points.size()) + " points)");
  c.pairs.push_back({before, after});
}

NAPKIN_DETAIL_FUNC roofline_layout layout_roofline(const roofline_chart& c) {
  if (c.pipes.empty() || c.memory.empty()) detail::bad_roofline_input("a chart needs a pipe and a memory level");
  for (const bandwidth_ceiling& m : c.memory)
    detail::roofline_positive_finite(m.bytes_per_s, "the bandwidth of \"" + m.name + "\"");
  roofline_layout l;
  for (pipe p : c.pipes) {
    const double peak = peak_flops(c.gpu, p);
    auto same = std::find_if(l.ceilings.begin(), l.ceilings.end(),
                             [&](const compute_ceiling& k) { return k.peak_flops == peak; });
    if (same == l.ceilings.end()) {
      l.ceilings.push_back({peak, {p}});
    } else if (std::find(same->pipes.begin(), same->pipes.end(), p) == same->pipes.end()) {
      same->pipes.push_back(p);
    }
  }
  std::stable_sort(l.ceilings.begin(), l.ceilings.end(),
                   [](const compute_ceiling& a, const compute_ceiling& b) { return a.peak_flops > b.peak_flops; });
  constexpr double none = std::numeric_limits<double>::infinity();
  double x_lo = none, x_hi = 0, y_lo = none, y_hi = 0;
  for (std::size_t k = 0; k < l.ceilings.size(); ++k)
    for (std::size_t m = 0; m < c.memory.size(); ++m) {
      const roof r{l.ceilings[k].peak_flops, c.memory[m].bytes_per_s};
      const double ridge = r.ridge();
      l.ridges.push_back({k, m, ridge, r.attainable_flops(ridge)});
      x_lo = std::min(x_lo, ridge), x_hi = std::max(x_hi, ridge);
      y_lo = std::min(y_lo, r.peak_flops), y_hi = std::max(y_hi, r.peak_flops);
    }
  for (const roofline_point& p : c.points) {  // checked again: the vectors are public
    detail::roofline_positive_finite(p.intensity, "point \"" + p.label + "\": the arithmetic intensity");
    detail::roofline_positive_finite(p.flops_per_s, "point \"" + p.label + "\": the FLOP/s");
    x_lo = std::min(x_lo, p.intensity), x_hi = std::max(x_hi, p.intensity);
    y_lo = std::min(y_lo, p.flops_per_s), y_hi = std::max(y_hi, p.flops_per_s);
  }
  l.x_min = std::pow(10.0, std::floor(std::log10(x_lo / 4)));
  l.x_max = std::pow(10.0, std::ceil(std::log10(x_hi * 4)));
  l.y_min = std::pow(10.0, std::floor(std::log10(y_lo / 4)));
  l.y_max = std::pow(10.0, std::ceil(std::log10(y_hi * 2)));
  if (!(l.x_min > 0) || !(l.y_min > 0) || !std::isfinite(l.x_max) || !std::isfinite(l.y_max))
    detail::bad_roofline_input("a point or ceiling is too close to 0 or too large for the axes' margins");
  return l;
}

NAPKIN_END_NAMESPACE
