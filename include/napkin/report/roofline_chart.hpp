// SPDX-License-Identifier: Apache-2.0
// napkin/report/roofline_chart.hpp — what a roofline chart shows, as plain values: a GPU spec, the pipes
// whose dense peaks are the compute ceilings, the memory levels (DRAM from the spec; L2 or L1 only when the
// caller gives their bandwidth: the GPU table has no such figure), points from measurements (sol_report)
// or napkin estimates, and before/after pairs; and the layout to_svg draws (napkin/report/roofline_svg.hpp).
//
// Ceilings, ridges and attainable FLOP/s come from napkin's one roofline model (napkin::roof in
// napkin/math/roofline.hpp); this file only collects and ranges them. Plain C++17, no CUDA; compiles with
// -fno-exceptions. Bad input (a point at 0 on a log axis, a report without FLOP counters, a pipe the GPU
// has no peak for) goes through napkin's failure path (napkin/error.hpp).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/text/numbers.hpp"
#include "napkin/error.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// Where a point's numbers come from: a measurement (filled dot) or napkin::estimate (hollow dot).
enum class point_source : unsigned char { measured, estimate };

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(point_source s) noexcept {
  switch (s) {
    case point_source::measured: return "measured";
    case point_source::estimate: return "estimate";
  }
  return "unknown";
}

struct roofline_point {
  std::string label;
  double intensity = 0;    // FLOP per DRAM byte
  double flops_per_s = 0;  // achieved (measured) or attainable (estimate)
  point_source source = point_source::measured;
};

// Two points of the same chart (indices into roofline_chart::points), drawn as an arrow before -> after.
struct roofline_pair {
  std::size_t before = 0;
  std::size_t after = 0;
};

// A sloped ceiling: a memory level and its bandwidth.
struct bandwidth_ceiling {
  std::string name;  // "DRAM", "L2", ...
  double bytes_per_s = 0;
};

struct roofline_chart {
  gpu_spec gpu;
  std::vector<pipe> pipes;                 // compute ceilings, dense peaks of `gpu`
  std::vector<bandwidth_ceiling> memory;   // DRAM (the spec's) first, then levels the caller adds
  std::vector<roofline_point> points;
  std::vector<roofline_pair> pairs;
  std::string title;
  int width = 820;  // pixels
  int height = 540;
};

namespace detail {
[[noreturn]] inline void bad_roofline_input(const std::string& what) {
  raise_input_error<std::invalid_argument>("napkin: roofline chart: " + what);
}
inline void roofline_positive_finite(double v, const std::string& what) {
  if (!(v > 0) || !std::isfinite(v))  // NaN fails the first test
    bad_roofline_input(what + " must be a finite number > 0 (log axes), got " + general(v));
}
}  // namespace detail

// A chart of GPU `g` with a ceiling for each pipe in `pipes` (each must have a peak in the spec) and the
// spec's DRAM bandwidth.
inline roofline_chart make_roofline_chart(const gpu_spec& g, std::vector<pipe> pipes, std::string title = {}) {
  if (pipes.empty()) detail::bad_roofline_input("no pipe to draw a compute ceiling for");
  for (pipe p : pipes) static_cast<void>(roof_of(g, p));  // refuses a pipe without a peak, a spec without DRAM B/s
  roofline_chart c;
  c.gpu = g;
  c.pipes = std::move(pipes);
  c.memory.push_back({"DRAM", g.memory_bandwidth});
  c.title = std::move(title);
  return c;
}

// Every pipe the spec has a peak for.
inline roofline_chart make_roofline_chart(const gpu_spec& g, std::string title = {}) {
  std::vector<pipe> pipes;
  for (pipe p : all_pipes)
    if (g.has(p)) pipes.push_back(p);
  return make_roofline_chart(g, std::move(pipes), std::move(title));
}

// Another memory level (the spec knows only DRAM's bandwidth): e.g. an L2 bandwidth you measured.
inline void add_bandwidth_ceiling(roofline_chart& c, std::string name, double bytes_per_s) {
  detail::roofline_positive_finite(bytes_per_s, "the bandwidth of \"" + name + "\"");
  c.memory.push_back({std::move(name), bytes_per_s});
}

// Adds a point and returns its index. Intensity and FLOP/s must be finite and > 0: a log axis has no 0.
inline std::size_t add_point(roofline_chart& c, roofline_point p) {
  detail::roofline_positive_finite(p.intensity, "point \"" + p.label + "\": the arithmetic intensity");
  detail::roofline_positive_finite(p.flops_per_s, "point \"" + p.label + "\": the FLOP/s");
  c.points.push_back(std::move(p));
  return c.points.size() - 1;
}

// napkin's estimate as a point: the workload's intensity and the attainable FLOP/s of the estimate's roof.
inline roofline_point estimate_point(std::string label, const roofline_estimate& e) {
  return {std::move(label), e.intensity, e.attainable_flops, point_source::estimate};
}

// A measurement as a point: executed FLOP (sol_report::flop(), ncu's roofline formula) per DRAM byte, and
// FLOP per second of the measured duration. Needs a report with the roofline metric set's numbers.
inline roofline_point measured_point(const sol_report& r, std::string label) {
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
inline roofline_point measured_point(const sol_report& r) { return measured_point(r, r.name); }

inline std::size_t add_measurement(roofline_chart& c, const sol_report& r) { return add_point(c, measured_point(r)); }
inline std::size_t add_measurement(roofline_chart& c, const sol_report& r, std::string label) {
  return add_point(c, measured_point(r, std::move(label)));
}
inline std::size_t add_estimate(roofline_chart& c, std::string label, const roofline_estimate& e) {
  return add_point(c, estimate_point(std::move(label), e));
}

// Joins two points of the chart by an arrow (before -> after).
inline void add_pair(roofline_chart& c, std::size_t before, std::size_t after) {
  if (before >= c.points.size() || after >= c.points.size() || before == after)
    detail::bad_roofline_input("a before/after pair needs two different points of the chart (indices " +
                               std::to_string(before) + ", " + std::to_string(after) + " of " +
                               std::to_string(c.points.size()) + " points)");
  c.pairs.push_back({before, after});
}

// One horizontal line: a peak and every chosen pipe that has it.
struct compute_ceiling {
  double peak_flops = 0;
  std::vector<pipe> pipes;
};

// A ridge: where memory level `memory` meets compute ceiling `ceiling` (roof::ridge()).
struct ridge_mark {
  std::size_t ceiling = 0;  // index into the chart's compute ceilings
  std::size_t memory = 0;   // index into roofline_chart::memory
  double intensity = 0;
  double flops = 0;
};

// What to_svg draws, computed: ceilings highest first, ridges, and the axis ranges (whole decades that
// hold every ridge and every point with a margin: a factor of 4 in intensity, 4 below and 2 above in FLOP/s).
struct roofline_layout {
  std::vector<compute_ceiling> ceilings;
  std::vector<ridge_mark> ridges;
  double x_min = 0, x_max = 0;  // FLOP/B
  double y_min = 0, y_max = 0;  // FLOP/s
};

inline roofline_layout layout_roofline(const roofline_chart& c) {
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
