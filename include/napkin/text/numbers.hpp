// SPDX-License-Identifier: Apache-2.0
// napkin/text/numbers.hpp — the one place napkin turns numbers into text (napkin/text.hpp).
//
// Every report, explanation and CLI line formats its numbers here, so that "81.0%", "2.78 ms" and
// "137.4 GFLOP" look the same wherever they appear. Plain C++17; a value that is not finite prints as
// "nan", "inf" or "-inf" rather than as whatever printf makes of it.
//
//   fixed(0.625, 3)              "0.625"
//   significant(19.9701)         "19.97"        four significant digits, at least one decimal
//   percent(81.04)               "81.0%"        the argument is already in percent
//   percent_of(0.8104)           "81.0%"        the argument is a fraction
//   si(1.374e11, "FLOP")         "137.4 GFLOP"  decimal prefixes (k = 1000), said so by the unit
//   duration(2.779e-3)           "2.78 ms"      a measured time: ns, us, ms or s (1 <= value < 1000)
//   estimate_duration(1.389e-4)  "138.9 µs"     an estimated time: the same units, four digits
//   general(2.5e-7)              "2.5e-07"      printf's %g, for a value an error message quotes back
//   named_number(6.69e13, "flop_per_s")  "66.90 TFLOP/s"  a document's number by its member's unit suffix
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// `decimals` digits after the point (0..17).
std::string fixed(double v, int decimals);

// Four significant digits and at least one decimal: 682.7, 19.97, 0.6250, 1365.3; 0 prints as "0".
std::string significant(double v);

std::string percent(double pct, int decimals = 1);

inline std::string percent_of(double fraction, int decimals = 1) { return percent(fraction * 100.0, decimals); }

// The decimal SI prefix (k = 1000, up to E) that keeps |value| below 1000, and the value scaled by it:
// {4.8, "T"} for 4.8e12, {256, ""} for 256. si() and the SVG's axis labels use it.
struct si_scaled {
  double value;
  const char* prefix;
};

si_scaled si_scale(double value);

// A decimal SI prefix chosen so that the number is below 1000: si(4.8e12, "B/s") = "4.800 TB/s".
// Whole numbers below 1000 print without decimals: si(256, "B") = "256 B".
std::string si(double value, std::string_view unit);

// The unit that keeps |seconds| between 1 and 1000 (ns below 1 µs).
struct time_unit {
  double per_second;   // 1e3 for ms
  const char* ascii;   // "us"
  const char* symbol;  // "µs"
};

time_unit time_unit_of(double seconds);

// A measured time, two decimals (whole nanoseconds): "179.74 us", "2.78 ms", "42 ns". Written "us", not
// "µs", so that reports stay ASCII in every terminal and log.
std::string duration(double seconds);

// An estimated time, with significant()'s four digits so that it reads like the si() quantities printed
// beside it: "138.9 µs", "30.05 µs", "1.500 s". The µ sign is what the napkin CLI has always printed.
std::string estimate_duration(double seconds);

// printf's %g (six significant digits, scientific when that is shorter): "-1", "0.5", "1e+306". For a
// value an error message quotes back, whatever its magnitude.
std::string general(double v);

// A number of a report document for people, in the unit its member's name ends with (docs/CONTRIBUTING.md:
// `duration_ns`, `compute_s`, `sm_pct`, `dram_bytes`, `dram_bytes_per_s`, `flop_per_s`, `sm_hz`,
// `intensity_flop_per_byte`): times as duration() ("2.05 ms"), rates and sizes with SI prefixes
// ("66.90 TFLOP/s", "3.614 TB/s", "4.295 GB"), percentages as percent(); a count of bytes named so in its
// middle (`max_bytes_for_compute_bound`) as bytes; any other name (a count, a ratio) with general()'s six
// digits. A flattened path takes the unit of its last name, else of the object holding it: `cost.total_s` is
// a time, `workload.flop` FLOPs, `peak_flop_per_s.fp16` a rate. `napkin diff` prints both sides of a change
// this way; the documents keep the exact number.
std::string named_number(double value, std::string_view name);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/text/numbers_impl.hpp"
#endif
