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

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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
[[noreturn]] void bad_roofline_input(const std::string& what);
void roofline_positive_finite(double v, const std::string& what);
}  // namespace detail

// A chart of GPU `g` with a ceiling for each pipe in `pipes` (each must have a peak in the spec) and the
// spec's DRAM bandwidth.
roofline_chart make_roofline_chart(const gpu_spec& g, std::vector<pipe> pipes, std::string title = {});

// Every pipe the spec has a peak for.
roofline_chart make_roofline_chart(const gpu_spec& g, std::string title = {});

// Another memory level (the spec knows only DRAM's bandwidth): e.g. an L2 bandwidth you measured.
void add_bandwidth_ceiling(roofline_chart& c, std::string name, double bytes_per_s);

// Adds a point and returns its index. Intensity and FLOP/s must be finite and > 0: a log axis has no 0.
std::size_t add_point(roofline_chart& c, roofline_point p);

// napkin's estimate as a point: the workload's intensity and the attainable FLOP/s of the estimate's roof.
roofline_point estimate_point(std::string label, const roofline_estimate& e);

// A measurement as a point: executed FLOP (sol_report::flop(), ncu's roofline formula) per DRAM byte, and
// FLOP per second of the measured duration. Needs a report with the roofline metric set's numbers.
roofline_point measured_point(const sol_report& r, std::string label);
roofline_point measured_point(const sol_report& r);

std::size_t add_measurement(roofline_chart& c, const sol_report& r);
std::size_t add_measurement(roofline_chart& c, const sol_report& r, std::string label);
std::size_t add_estimate(roofline_chart& c, std::string label, const roofline_estimate& e);

// Joins two points of the chart by an arrow (before -> after).
void add_pair(roofline_chart& c, std::size_t before, std::size_t after);

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

roofline_layout layout_roofline(const roofline_chart& c);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/roofline_chart_impl.hpp"
#endif
