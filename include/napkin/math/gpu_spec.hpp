// SPDX-License-Identifier: Apache-2.0
// napkin/math/gpu_spec.hpp — napkin::gpu_spec: what napkin knows of one GPU (dense peak per pipe, DRAM
// bandwidth, L2 size, SM count, clock) and where the numbers come from.
//
// Plain C++17, no CUDA, usable in constant expressions. Specs come from the datasheet table
// (napkin/math/gpu_table.hpp), from a device's properties (napkin/math/derived_spec.hpp), or by hand.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/pipes.hpp"

NAPKIN_BEGIN_NAMESPACE

struct gpu_spec {
  std::string_view key;   // lookup key: "h100-sxm"
  std::string_view name;  // marketing name
  int cc_major = 0;       // compute capability
  int cc_minor = 0;
  int sm_count = 0;             // 0: unknown
  double boost_clock_mhz = 0;   // the clock the FP32 datasheet peak implies; 0: unknown
  double memory_bandwidth = 0;  // DRAM, B/s (datasheet)
  std::uint64_t l2_bytes = 0;   // 0: unknown
  pipe_peaks peaks{};           // dense FLOP/s per pipe; 0: absent on the chip or no published figure
  std::string_view source;      // where the numbers come from

  // False for a pipe the spec has no figure for, and for a value outside the pipe enumerators.
  constexpr bool has(pipe p) const noexcept { return is_valid(p) && peaks[index(p)] > 0.0; }

  // Dense peak of `p`; an error when the table has no figure for it, or when the figure (in a spec built
  // by hand) is not a finite positive number.
  constexpr double peak(pipe p) const {
    const double v = peaks[detail::checked_index(p)];
    if (v == 0.0) detail::pipe_not_available_on_this_gpu(key, to_string(p));
    return detail::positive_finite(v, "a GPU spec's peak FLOP/s");
  }
};

inline constexpr std::uint64_t MB = 1024ull * 1024ull;  // L2 sizes are binary megabytes

NAPKIN_END_NAMESPACE
