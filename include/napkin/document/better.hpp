// SPDX-License-Identifier: Apache-2.0
// napkin/document/better.hpp — which way a reported number improves: lower (time, bytes, cycles), higher
// (throughput %, hit rates, occupancy) or none (counts, shares of a whole). diff() (report/compare.hpp)
// reads it for every compared number; the profiler's report sections (profiler/sections/) declare it per
// number, which is why it lives below both.
//
// Plain C++17, no dependency.
#pragma once

#include "napkin/config.hpp"

#include <string_view>

NAPKIN_BEGIN_NAMESPACE

enum class better { lower, higher, none };

// "lower", "higher", "none".
constexpr std::string_view to_string(better b) noexcept {
  switch (b) {
    case better::lower: return "lower";
    case better::higher: return "higher";
    case better::none: return "none";
  }
  return "unknown";
}

NAPKIN_END_NAMESPACE
