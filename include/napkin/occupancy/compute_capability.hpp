// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/compute_capability.hpp — a compute capability (major.minor), checked when it is made.
//
// CUDA numbers a compute capability major x 10 + minor (sm_90 is 9.0), so a minor outside 0..9 would read
// as another one (8.10 as 9.0): constructing such a value, or forming the number of one whose public
// fields were changed, is napkin's input error (a compile error in constant evaluation).
#pragma once

#include "napkin/error.hpp"

#include <climits>
#include <string>

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// The largest major version whose number (major x 10 + minor) fits an int.
inline constexpr int max_cc_major = (INT_MAX - 9) / 10;

// Failures. Each is a non-constexpr function, so in constant evaluation the compiler stops at the call
// and names the function; at run time it raises napkin's input error (an exception, or without
// exceptions a message and an abort or the failure handler) with the numbers. The occupancy parts all
// follow this pattern, each with the failures of its own inputs.
[[noreturn]] inline void compute_capability_minor_out_of_range(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) +
                            ": the minor version must be 0..9 (a CC is numbered major x 10 + minor, as in sm_90 "
                            "for 9.0, so a larger or negative minor would read as another CC)");
}
[[noreturn]] inline void compute_capability_major_out_of_range(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) + ": the major version must be 0.." +
                            std::to_string(max_cc_major) + " (its number, major x 10 + minor, must fit an int)");
}
constexpr void require_valid_compute_capability(int major, int minor) {
  if (major < 0 || major > max_cc_major) compute_capability_major_out_of_range(major, minor);
  if (minor < 0 || minor > 9) compute_capability_minor_out_of_range(major, minor);
}
}  // namespace detail

// A compute capability. Constructing one with a minor outside 0..9 or a negative (or too large) major is
// an error: 8.10 would otherwise number as 90, CC 9.0.
struct compute_capability {
  int major = 0;
  int minor = 0;

  constexpr compute_capability() = default;
  constexpr compute_capability(int major_version, int minor_version) : major{major_version}, minor{minor_version} {
    detail::require_valid_compute_capability(major, minor);
  }

  // Whether the fields (public, so changeable after construction) form a compute capability.
  constexpr bool valid() const { return major >= 0 && major <= detail::max_cc_major && minor >= 0 && minor <= 9; }
  // 90 for 9.0, 120 for 12.0: the number in sm_90 / sm_120. An error when !valid().
  constexpr int number() const {
    detail::require_valid_compute_capability(major, minor);
    return major * 10 + minor;
  }
  friend constexpr bool operator==(compute_capability a, compute_capability b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend constexpr bool operator!=(compute_capability a, compute_capability b) { return !(a == b); }
};

NAPKIN_END_NAMESPACE
