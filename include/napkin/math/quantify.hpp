// SPDX-License-Identifier: Apache-2.0
// napkin/math/quantify.hpp — how much a profiled problem costs and what fixing it could gain, from numbers
// read off Nsight Compute. NVIDIA's "Analysis-Driven Optimization" series (R. Crovella, NVIDIA Developer
// Blog, 2020, part 1) fixes limiters "in pareto order": the one that, if fixed, would yield the largest
// improvement first; these formulas put a number on that improvement. They are ratios of Nsight Compute
// metrics (names and meaning: the Nsight Compute Profiling Guide) and Amdahl's law (G. Amdahl, AFIPS
// 1967). Every function is constexpr and rejects impossible inputs: NaN, infinity, negative counts,
// fractions outside [0, 1], ...
//
//   static_assert(napkin::coalescing_speedup(16) == 4.0);   // 16 sectors/request instead of 4
//
// Plain C++17, no CUDA.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>

#include "napkin/math/detail/errors.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// A finite result from finite inputs (huge inputs can still overflow).
constexpr double checked_result(double v) { return finite_result(v, "the result"); }

// A measured amount over a positive quantity (bytes per second, iterations per warp): the numerator
// finite and >= 0, the denominator finite and > 0, the quotient finite.
constexpr double measured_ratio(double numerator, const char* numerator_what, double denominator,
                                const char* denominator_what) {
  non_negative_finite(numerator, numerator_what);
  positive_finite(denominator, denominator_what);
  return checked_result(numerator / denominator);
}
}  // namespace detail

// --- Coalescing (L1/TEX table, Global Load row, "Sectors/Req") -------------------------------------
// A sector is 32 B (Nsight Compute Profiling Guide, "Memory"). A warp whose 32 threads each load
// `bytes_per_thread` contiguous bytes needs 32·bytes/32 sectors: 4 for 4-byte loads, 8 for float2, 16 for
// float4.
constexpr double ideal_sectors_per_request(double bytes_per_thread = 4) {
  return detail::positive_finite(bytes_per_thread, "bytes per thread");
}

// Fraction of fetched sectors that carry no requested byte: (sectors − ideal) / sectors.
constexpr double bandwidth_waste(double sectors_per_request, double ideal = 4) {
  detail::positive_finite(ideal, "the ideal sectors per request");
  detail::positive_finite(sectors_per_request, "sectors per request");
  if (!(sectors_per_request >= ideal))
    detail::value_out_of_range("sectors per request cannot be below the ideal for the access width");
  return (sectors_per_request - ideal) / sectors_per_request;
}

// Speedup if a DRAM-bound kernel's accesses became perfectly coalesced: sectors / ideal.
constexpr double coalescing_speedup(double sectors_per_request, double ideal = 4) {
  bandwidth_waste(sectors_per_request, ideal);  // validates
  return sectors_per_request / ideal;
}

// --- Traffic (dram__bytes.sum against napkin's minimum bytes) ----------------------------------------
// Above 2: data is re-read instead of reused (missing tiling) or intermediates go through DRAM (missing
// fusion).
constexpr double traffic_overhead(double measured_bytes, double minimum_bytes) {
  return detail::measured_ratio(measured_bytes, "measured bytes", minimum_bytes, "the minimum byte count");
}

// --- Amdahl (bank conflicts: fraction of time in shared-memory access, n-way conflicts) -------------
// Speedup when a fraction f of the time becomes n times faster: 1 / ((1 − f) + f / n).
constexpr double amdahl_speedup(double fraction, double n) {
  if (!(fraction >= 0 && fraction <= 1)) detail::value_out_of_range("Amdahl's fraction must lie in [0, 1]");
  detail::positive_finite(n, "Amdahl's speedup factor");
  return detail::checked_result(1.0 / ((1.0 - fraction) + fraction / n));
}

// Average N-way of shared-memory bank conflicts: wavefronts / ideal wavefronts (Source page columns
// "L1 Wavefronts Shared" and "L1 Wavefronts Shared Ideal").
constexpr double bank_conflict_ways(double wavefronts, double ideal_wavefronts) {
  detail::positive_finite(ideal_wavefronts, "ideal wavefronts");
  detail::positive_finite(wavefronts, "wavefronts");
  if (!(wavefronts >= ideal_wavefronts)) detail::value_out_of_range("wavefronts cannot be below the ideal");
  return detail::checked_result(wavefronts / ideal_wavefronts);
}

// --- Divergence ("Avg. Predicated-On Threads Executed" / "Avg. Not Predicated Off Threads Per Warp") -
inline constexpr double warp_size = 32;

constexpr void check_active_threads(double active) {
  if (!(active > 0 && active <= warp_size)) detail::value_out_of_range("active threads per warp must lie in (0, 32]");
}

// Fraction of lanes doing no work: 1 − active / 32.
constexpr double divergence_waste(double active_threads_per_warp) {
  check_active_threads(active_threads_per_warp);
  return 1.0 - active_threads_per_warp / warp_size;
}

// Speedup if every lane were active: 32 / active.
constexpr double divergence_speedup(double active_threads_per_warp) {
  check_active_threads(active_threads_per_warp);
  return warp_size / active_threads_per_warp;
}

// --- Instruction mix (SASS counts per opcode) --------------------------------------------------------
// (LDS + STS + LDG + STG) / FFMA: ~0.25 for a GEMM with 8×8 thread tiles (16 loads feed 64 FFMAs), ~1 or
// more without coarsening.
constexpr double memory_instructions_per_ffma(double lds, double sts, double ldg, double stg, double ffma) {
  detail::non_negative_finite(lds, "the LDS count");
  detail::non_negative_finite(sts, "the STS count");
  detail::non_negative_finite(ldg, "the LDG count");
  detail::non_negative_finite(stg, "the STG count");
  detail::positive_finite(ffma, "the FFMA count");
  return detail::checked_result((lds + sts + ldg + stg) / ffma);
}

// Warps in a launch: blocks × ceil(threads per block / 32). Equals the usual
// grid·block threads / 32 when the block size is a multiple of 32, and counts partial warps otherwise.
constexpr std::uint64_t warps_in_launch(std::uint64_t grid_x, std::uint64_t grid_y, std::uint64_t grid_z,
                                        std::uint64_t block_x, std::uint64_t block_y = 1, std::uint64_t block_z = 1) {
  if (grid_x == 0 || grid_y == 0 || grid_z == 0 || block_x == 0 || block_y == 0 || block_z == 0)
    detail::size_must_be_positive("every grid and block dimension");
  if (block_x > 1024 || block_y > 1024 || block_z > 64 || block_x * block_y * block_z > 1024)
    detail::value_out_of_range("a CUDA block has at most 1024 threads (x, y <= 1024, z <= 64)");
  const std::uint64_t threads = block_x * block_y * block_z;
  const std::uint64_t warps_per_block = (threads + 31) / 32;
  const std::uint64_t max = ~std::uint64_t{0};
  if (grid_x > max / grid_y || grid_x * grid_y > max / grid_z) detail::arithmetic_overflows_64_bits("the block count");
  const std::uint64_t blocks = grid_x * grid_y * grid_z;
  if (blocks > max / warps_per_block) detail::arithmetic_overflows_64_bits("the warp count");
  return blocks * warps_per_block;
}

// Iterations of a loop: "Instructions Executed" of an instruction inside it (warp-level) / warps.
constexpr double loop_iterations(double instructions_executed, double warps) {
  return detail::measured_ratio(instructions_executed, "instructions executed", warps, "the warp count");
}

// --- Achieved rates ----------------------------------------------------------------------------------
// FLOP/s from sm__sass_thread_inst_executed_op_ffma_pred_on.sum (thread-level FFMAs, 2 FLOPs each).
constexpr double ffma_flops_per_second(double ffma_count, double seconds) {
  return detail::checked_result(2.0 * detail::measured_ratio(ffma_count, "the FFMA count", seconds, "the duration"));
}

// B/s from dram__bytes.sum / gpu__time_duration.sum.
constexpr double effective_bandwidth(double bytes, double seconds) {
  return detail::measured_ratio(bytes, "the byte count", seconds, "the duration");
}

// Fraction of the roofline lower bound a kernel achieved: lower bound / measured time. At most 1 when
// the peaks, the bandwidth and the byte count are right; above 1 means one of them is wrong.
constexpr double fraction_of_roofline(double lower_bound_seconds, double measured_seconds) {
  detail::positive_finite(lower_bound_seconds, "the lower bound");  // a zero bound is no roofline
  return detail::measured_ratio(lower_bound_seconds, "the lower bound", measured_seconds, "the measured time");
}

NAPKIN_END_NAMESPACE
