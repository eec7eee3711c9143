// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/rate_status.hpp — how well a kernel class's or a report row's readings are its own: the rate
// solve's verdict on a class (rate_status; monitor/rate_solver.hpp gives it) and a row's resolution
// (row_resolution; monitor/rate_rows.hpp combines its classes'). Plain data, so that a monitor report's writers
// and readers need not compile the solve. Plain C++17; docs/monitor.md, "The rate solve".
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

enum class rate_status {
  resolved,         // the class's own readings, within the thresholds
  not_sampled,      // in no kept window, or no percentage read while it ran
  blended,          // past the class cap: solved together with every other class past it
  collinear,        // always ran with another class in (nearly) the same proportion
  too_few_windows,  // fewer windows than needed to estimate its error
  imprecise,        // a standard error above the threshold
  not_solved,       // no rate solve was made (a report built without one, a document from before it)
};
inline constexpr std::array<rate_status, 7> all_rate_statuses{
    rate_status::resolved,        rate_status::not_sampled, rate_status::blended,   rate_status::collinear,
    rate_status::too_few_windows, rate_status::imprecise,   rate_status::not_solved};

constexpr std::string_view to_string(rate_status s) noexcept {
  switch (s) {
    case rate_status::resolved: return "resolved";
    case rate_status::not_sampled: return "not-sampled";
    case rate_status::blended: return "blended";
    case rate_status::collinear: return "collinear";
    case rate_status::too_few_windows: return "too-few-windows";
    case rate_status::imprecise: return "imprecise";
    case rate_status::not_solved: return "not-solved";
  }
  return "unknown";
}

constexpr std::string_view describe(rate_status s) noexcept {
  switch (s) {
    case rate_status::resolved: return "resolved: the kernel's own readings";
    case rate_status::not_sampled: return "not sampled: no reading while it ran";
    case rate_status::blended: return "blended: too many kernel classes, solved together with the rest";
    case rate_status::collinear: return "unresolved: always ran with another kernel in the same proportion";
    case rate_status::too_few_windows: return "unresolved: too few windows";
    case rate_status::imprecise: return "unresolved: standard error above the threshold";
    case rate_status::not_solved: return "not solved: no rate solve";
  }
  return "unknown";
}

// How well a row's readings are its own (the rate solve of its classes).
struct row_resolution {
  rate_status status = rate_status::not_sampled;
  std::string reason;
  std::uint64_t windows = 0;                  // kept windows its classes ran in (once per class)
  std::optional<double> solo_share;           // of its sampled time, in windows one class had alone
  std::optional<double> standard_error_pct;   // the largest over SM, L1, L2-slices and DRAM %, in points
  std::optional<double> collinearity;         // the largest variance inflation of its classes; 1: independent

  bool resolved() const { return status == rate_status::resolved; }
};

NAPKIN_END_NAMESPACE
