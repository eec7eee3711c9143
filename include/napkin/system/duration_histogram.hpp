// SPDX-License-Identifier: Apache-2.0
// napkin/system/duration_histogram.hpp — filling and reading duration_histogram (system/system_report.hpp):
// bin b holds durations in [2^(b/4), 2^((b+1)/4)) ns (bin 0 also 0 and 1 ns; the last bin everything
// from 2^(159/4) ns up); the median is the geometric middle of the bin holding the middle duration, within
// 2^(1/8) (9 %) of a median inside the bins; the mean is exact (sum / count). Plain C++17; no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// The bin of a duration.
inline std::size_t duration_bin(std::uint64_t ns) noexcept {
  if (ns < 2) return 0;
  int e = 0;  // floor(log2(ns)), in six steps
  for (int step = 32; step > 0; step /= 2)
    if (ns >> (e + step)) e += step;
  const double x = static_cast<double>(ns) / static_cast<double>(std::uint64_t{1} << e);  // in [1, 2)
  const int q = x >= 1.6817928305074290861 ? 3 : x >= 1.4142135623730950488 ? 2 : x >= 1.1892071150027210667 ? 1 : 0;
  const std::size_t b = 4 * static_cast<std::size_t>(e) + static_cast<std::size_t>(q);
  return b < duration_histogram::bins ? b : duration_histogram::bins - 1;
}

inline void add_duration(duration_histogram& h, std::uint64_t ns) noexcept {
  ++h.counts[duration_bin(ns)];
  ++h.total;
  h.sum_ns += static_cast<long double>(ns);
}

inline void merge_into(duration_histogram& into, const duration_histogram& h) noexcept {
  for (std::size_t b = 0; b < duration_histogram::bins; ++b) into.counts[b] += h.counts[b];
  into.total += h.total;
  into.sum_ns += h.sum_ns;
}

// The geometric middle of the bin holding the lower middle duration; 0 when empty.
inline double median_ns(const duration_histogram& h) noexcept {
  if (h.total == 0) return 0;
  const std::uint64_t rank = (h.total + 1) / 2;  // 1-based
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < duration_histogram::bins; ++b) {
    seen += h.counts[b];
    if (seen >= rank) return std::exp2((static_cast<double>(b) + 0.5) / 4.0);
  }
  return 0;
}

inline double mean_ns(const duration_histogram& h) noexcept {
  return h.total ? static_cast<double>(h.sum_ns / static_cast<long double>(h.total)) : 0.0;
}

NAPKIN_END_NAMESPACE
