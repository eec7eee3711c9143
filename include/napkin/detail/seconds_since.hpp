// SPDX-License-Identifier: Apache-2.0
// Seconds of the steady clock since a time point: what the profiler and the source sampler charge to each
// part of a measurement's cost.
#pragma once

#include "napkin/config.hpp"

#include <chrono>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace detail
NAPKIN_END_NAMESPACE
