// SPDX-License-Identifier: Apache-2.0
// napkin/math/workload.hpp — what a kernel must do at minimum (napkin::workload: FLOPs, bytes, types) and
// how its FLOPs are counted (napkin::counting), plus the overflow-checked arithmetic every workload
// formula (napkin/math/workloads.hpp) is written in.
//
// Plain C++17, no CUDA, usable in constant expressions. Sizes are signed so that a negative size is an
// error rather than a huge unsigned number; a zero or negative size, and any count that overflows 64-bit
// arithmetic, fails to compile in constant evaluation and fails through napkin's failure policy at run
// time (napkin/math/detail/errors.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <limits>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/dtype.hpp"

NAPKIN_BEGIN_NAMESPACE

// How FLOPs are counted. The default is NVIDIA's GPU Performance Background guide (an FMA is 2 FLOPs,
// other operations 1) and FlashAttention's matmul-only attention count: the convention of the datasheet
// peaks, which the roofline always uses. Another convention changes only workload::counted_flops().
struct counting {
  std::uint64_t fma = 2;           // per fused multiply-add; 1 counts MACs (fvcore, THOP, ptflops)
  std::uint64_t exp = 1;           // per exp / transcendental; Dongarra weights log as 8
  std::uint64_t div = 1;           // per division or reciprocal; Dongarra: 4
  std::uint64_t sqrt = 1;          // per sqrt or rsqrt; Dongarra: 4
  bool attention_softmax = false;  // add the softmax's ops to attention (LLM-Viewer), not just matmuls

  static constexpr counting standard() noexcept { return {}; }
  static constexpr counting macs() noexcept { return {1, 1, 1, 1, false}; }
  static constexpr counting dongarra() noexcept { return {2, 8, 4, 4, false}; }

  friend constexpr bool operator==(const counting& a, const counting& b) noexcept {
    return a.fma == b.fma && a.exp == b.exp && a.div == b.div && a.sqrt == b.sqrt &&
           a.attention_softmax == b.attention_softmax;
  }
  friend constexpr bool operator!=(const counting& a, const counting& b) noexcept { return !(a == b); }
};

// What a kernel must do at minimum. bytes() = bytes_read + bytes_written.
struct workload {
  std::uint64_t flops = 0;  // standard count (FMA = 2, other ops 1): what the roofline divides by peaks
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  element_types types{};
  bool matrix = false;  // a matrix product that tensor cores can run (see napkin::default_pipe)
  counting convention{};               // the convention counted_flops() reports in
  std::uint64_t convention_flops = 0;  // the FLOPs as `convention` counts them (read counted_flops())

  // The FLOPs in the workload's counting convention, for display: `flops` under counting::standard().
  // Never use it for time or intensity (a MACs count over a FLOP/s peak halves the time).
  constexpr std::uint64_t counted_flops() const noexcept {
    return convention == counting::standard() ? flops : convention_flops;
  }

  constexpr std::uint64_t bytes() const {
    if (bytes_read > std::numeric_limits<std::uint64_t>::max() - bytes_written)
      detail::arithmetic_overflows_64_bits("the byte count");
    return bytes_read + bytes_written;
  }
  // FLOP per byte of compulsory DRAM traffic.
  constexpr double intensity() const {
    const std::uint64_t b = bytes();
    if (b == 0) detail::value_out_of_range("a workload that moves no bytes has no arithmetic intensity");
    return static_cast<double>(flops) / static_cast<double>(b);
  }
};

namespace detail {

constexpr std::uint64_t positive(std::int64_t v, const char* what) {
  if (v <= 0) size_must_be_positive(what);
  return static_cast<std::uint64_t>(v);
}

constexpr std::uint64_t non_negative(std::int64_t v, const char* what) {
  if (v < 0) count_must_not_be_negative(what);
  return static_cast<std::uint64_t>(v);
}

constexpr std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    arithmetic_overflows_64_bits("a FLOP or byte count");
  return a * b;
}

constexpr std::uint64_t mul(std::uint64_t a, std::uint64_t b, std::uint64_t c) { return mul(mul(a, b), c); }

constexpr std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  if (a > std::numeric_limits<std::uint64_t>::max() - b) arithmetic_overflows_64_bits("a FLOP or byte count");
  return a + b;
}

constexpr std::uint64_t bytes_of(std::uint64_t elements, dtype t) { return mul(elements, bytes_per_element(t)); }

// Sets w.flops with the standard convention and w.counted_flops() with `c`; `count(convention)` is the
// workload's FLOP formula.
template <class Count>
constexpr void set_flops(workload& w, const counting& c, Count count) {
  w.flops = count(counting::standard());
  w.convention = c;
  w.convention_flops = c == counting::standard() ? w.flops : count(c);
}

}  // namespace detail

NAPKIN_END_NAMESPACE
