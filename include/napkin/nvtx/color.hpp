// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/color.hpp — NVTX colors, and the deterministic color napkin gives a range that names none.
//
//   napkin::color{0xFF00FF00u}, napkin::rgb{255, 128, 0}, napkin::argb{255, 255, 128, 0}  (NVTX3's types)
//   napkin::color_from_hsv(200, 0.75, 0.9)     HSV to an opaque color; constexpr
//   napkin::color_of("gemm")                   hue from the name's FNV-1a hash; constexpr
#pragma once

#include "napkin/error.hpp"
#include "napkin/nvtx/config.hpp"

#include <cstdint>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

using color = nvtx3::v1::color;  // ARGB color; napkin::color{0xFF00FF00u} or from rgb/argb
using rgb = nvtx3::v1::rgb;      // napkin::rgb{255, 128, 0}
using argb = nvtx3::v1::argb;    // napkin::argb{255, 255, 128, 0}

namespace detail {
// 32-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/): tiny, constexpr, well distributed.
constexpr std::uint32_t fnv1a(std::string_view s) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}
// unit is in [0, 1], so adding 0.5 and truncating rounds half up (what Python's int(x * 255 + 0.5) does).
constexpr std::uint8_t to_byte(double unit) noexcept {
  return static_cast<std::uint8_t>(unit * 255.0 + 0.5);  // NOLINT(bugprone-incorrect-roundings)
}

// Not constexpr: in constant evaluation the compiler stops here and names the problem; at run time it is
// napkin's failure policy (an exception, or a message and abort without exceptions). The values are
// quoted with std::to_string rather than significant(): napkin/text/numbers.hpp brings <cmath>,
// which alone would cost every unit that includes napkin/nvtx.hpp half of nvtx3.hpp (docs/compile-time.md).
[[noreturn]] NAPKIN_DETAIL_COLD inline void hsv_out_of_range(unsigned hue_degrees, double saturation, double value) {
  raise_input_error("napkin: color_from_hsv(" + std::to_string(hue_degrees) + ", " + std::to_string(saturation) + ", " +
                    std::to_string(value) + "): hue must be in [0, 360), saturation and value in [0, 1]");
}
}  // namespace detail

// HSV (hue in degrees [0, 360), saturation and value in [0, 1]) to an opaque NVTX color.
constexpr color color_from_hsv(unsigned hue_degrees, double saturation, double value) {
  if (hue_degrees >= 360 || !(saturation >= 0.0 && saturation <= 1.0) || !(value >= 0.0 && value <= 1.0)) {
    detail::hsv_out_of_range(hue_degrees, saturation, value);
  }
  const unsigned sector = hue_degrees / 60;
  const double f = static_cast<double>(hue_degrees % 60) / 60.0;
  const double p = value * (1.0 - saturation);
  const double q = value * (1.0 - saturation * f);
  const double t = value * (1.0 - saturation * (1.0 - f));
  double r = value, g = t, b = p;  // sector 0
  switch (sector) {
    case 1: r = q; g = value; b = p; break;
    case 2: r = p; g = value; b = t; break;
    case 3: r = p; g = q; b = value; break;
    case 4: r = t; g = p; b = value; break;
    case 5: r = value; g = p; b = q; break;
    default: break;
  }
  return color{rgb{detail::to_byte(r), detail::to_byte(g), detail::to_byte(b)}};
}

// The color napkin gives a range that names none: the name's FNV-1a hash picks the hue; saturation
// and value are fixed (0.75, 0.9) so every range is readable on Nsight's timeline. constexpr: NAPKIN_RANGE
// makes a literal's color a compile-time constant; napkin::range computes it only when a tool listens.
constexpr color color_of(std::string_view name) {
  return color_from_hsv(detail::fnv1a(name) % 360u, 0.75, 0.9);
}

NAPKIN_END_NAMESPACE
