// SPDX-License-Identifier: Apache-2.0
// The measured estimates (measured_quantify.hpp): the function bodies. Included by measured_quantify.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>

#include "napkin/profiler/sections/measured_quantify.hpp"
#include "napkin/math/quantify.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// Shares measured in different replay passes may add up to a little over 1; Amdahl's fraction cannot.
NAPKIN_DETAIL_FUNC measured_estimate amdahl_estimate(double fraction, double factor) {
  const double f = std::min(fraction, 1.0);  // NaN and negatives stay and are refused by amdahl_speedup
  return {factor, f, amdahl_speedup(f, factor)};
}
}  // namespace detail

NAPKIN_DETAIL_FUNC measured_estimate coalescing_estimate(double sectors, double ideal_sectors,
                                                         double memory_busy_fraction) {
  return detail::amdahl_estimate(memory_busy_fraction, coalescing_speedup(sectors, ideal_sectors));
}

NAPKIN_DETAIL_FUNC measured_estimate bank_conflict_estimate(double wavefronts, double ideal_wavefronts,
                                                            double l1_busy_fraction) {
  return detail::amdahl_estimate(l1_busy_fraction, bank_conflict_ways(wavefronts, ideal_wavefronts));
}

NAPKIN_DETAIL_FUNC measured_estimate traffic_estimate(double measured_bytes, double minimum_bytes,
                                                      double dram_busy_fraction) {
  return detail::amdahl_estimate(dram_busy_fraction, traffic_overhead(measured_bytes, minimum_bytes));
}

NAPKIN_DETAIL_FUNC measured_estimate divergence_estimate(double active_threads_per_warp,
                                                         double instruction_bound_fraction) {
  return detail::amdahl_estimate(instruction_bound_fraction, divergence_speedup(active_threads_per_warp));
}

NAPKIN_END_NAMESPACE
