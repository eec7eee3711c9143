// SPDX-License-Identifier: Apache-2.0
// napkin/math/derived_spec.hpp — a gpu_spec for a GPU that is not in the table, derived from what the
// CUDA runtime reports (device_facts): per-SM FLOP per clock of each compute capability × SMs × clock,
// and DRAM bandwidth from the memory clock and bus width. napkin/math/gpus_cuda.hpp fills device_facts
// from a live device.
//
// Plain C++17, no CUDA, usable in constant expressions.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"

NAPKIN_BEGIN_NAMESPACE

// A spec for a GPU that is not in the table, from what the CUDA runtime reports. The derivation
// (docs/napkin-math.md, "Specs from cudaDeviceProp"):
//   peak(pipe)  = SMs × FLOP per clock per SM (per compute capability, below) × max SM clock
//   bandwidth   = 2 (double data rate) × memory clock × bus width / 8
// The max SM clock is the boost clock; NVIDIA's tensor figures on Hopper use a lower clock (1.83 vs
// 1.98 GHz on H100 SXM), so derived tensor peaks are up to 8% high. Derived peaks are upper bounds,
// which keeps roofline times lower bounds.
struct device_facts {
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double sm_clock_khz = 0;      // cudaDevAttrClockRate
  double memory_clock_khz = 0;  // cudaDevAttrMemoryClockRate
  int memory_bus_bits = 0;      // cudaDeviceProp::memoryBusWidth
  std::uint64_t l2_bytes = 0;   // cudaDeviceProp::l2CacheSize
};

// FLOP per clock per SM (FMA = 2) of each pipe, per compute capability: each is the dense datasheet peak
// of a reference part of that capability divided by its SM count and the clock that figure uses, and
// agrees with the per-SM throughput table of the CUDA C++ Programming Guide where that lists the pipe.
// The 8.6 and 8.9 tensor rates are the datacenter parts' (A10, L4/L40S); GeForce parts of the same
// capability run FP32-accumulate tensor math at half that rate (see gpu_table).
struct per_sm_rates {
  int cc_major;
  int cc_minor;
  pipe_peaks flops_per_clock;
  std::string_view reference;
};

constexpr pipe_peaks per_clock(std::initializer_list<pipe_peak> list) { return make_peaks(list); }

inline constexpr std::array<per_sm_rates, 7> per_sm_rate_table{{
    {7, 0,
     per_clock({{pipe::fp64, 64}, {pipe::fp32, 128}, {pipe::fp16, 256}, {pipe::fp16_tensor, 1024},
                {pipe::fp16_tensor_fp16acc, 1024}}),
     "V100 SXM2: 80 SMs x 1.53 GHz"},
    {7, 5,
     per_clock({{pipe::fp64, 4}, {pipe::fp32, 128}, {pipe::fp16, 256}, {pipe::fp16_tensor, 1024},
                {pipe::fp16_tensor_fp16acc, 1024}, {pipe::int8_tensor, 2048}}),
     "T4: 40 SMs x 1.59 GHz"},
    {8, 0,
     per_clock({{pipe::fp64, 64}, {pipe::fp32, 128}, {pipe::fp16, 512}, {pipe::bf16, 256},
                {pipe::fp64_tensor, 128}, {pipe::tf32_tensor, 1024}, {pipe::fp16_tensor, 2048},
                {pipe::fp16_tensor_fp16acc, 2048}, {pipe::bf16_tensor, 2048}, {pipe::int8_tensor, 4096}}),
     "A100: 108 SMs x 1.41 GHz"},
    {8, 6,
     per_clock({{pipe::fp64, 4}, {pipe::fp32, 256}, {pipe::fp16, 256}, {pipe::bf16, 256},
                {pipe::tf32_tensor, 512}, {pipe::fp16_tensor, 1024}, {pipe::fp16_tensor_fp16acc, 1024},
                {pipe::bf16_tensor, 1024}, {pipe::int8_tensor, 2048}}),
     "A10: 72 SMs x 1.695 GHz"},
    {8, 9,
     per_clock({{pipe::fp64, 4}, {pipe::fp32, 256}, {pipe::fp16, 256}, {pipe::bf16, 256},
                {pipe::tf32_tensor, 512}, {pipe::fp16_tensor, 1024}, {pipe::fp16_tensor_fp16acc, 1024},
                {pipe::bf16_tensor, 1024}, {pipe::fp8_tensor, 2048}, {pipe::fp8_tensor_fp16acc, 2048},
                {pipe::int8_tensor, 2048}}),
     "L4: 58 SMs x 2.04 GHz; L40S: 142 SMs x 2.52 GHz"},
    {9, 0,
     per_clock({{pipe::fp64, 128}, {pipe::fp32, 256}, {pipe::fp16, 512}, {pipe::bf16, 512},
                {pipe::fp64_tensor, 256}, {pipe::tf32_tensor, 2048}, {pipe::fp16_tensor, 4096},
                {pipe::fp16_tensor_fp16acc, 4096}, {pipe::bf16_tensor, 4096}, {pipe::fp8_tensor, 8192},
                {pipe::fp8_tensor_fp16acc, 8192}, {pipe::int8_tensor, 8192}}),
     "H100 SXM: 132 SMs x 1.98 GHz (vector) / 1.83 GHz (tensor)"},
    {10, 0,
     per_clock({{pipe::fp64, 128}, {pipe::fp32, 256}, {pipe::fp64_tensor, 128}, {pipe::tf32_tensor, 4096},
                {pipe::fp16_tensor, 8192}, {pipe::fp16_tensor_fp16acc, 8192}, {pipe::bf16_tensor, 8192},
                {pipe::fp8_tensor, 16384}, {pipe::fp8_tensor_fp16acc, 16384}, {pipe::int8_tensor, 16384}}),
     "B200 (HGX figures, 148 SMs; secondary): FP32 75 TFLOPS implies 1.98 GHz, FP16 TC 2,250 implies 1.86 GHz"},
}};

// Per-SM rates for a compute capability: the index in per_sm_rate_table, or per_sm_rate_table.size() when
// napkin does not know it. (An index rather than a pointer: some compilers cannot compare element
// addresses with nullptr in constant evaluation under sanitizers.)
constexpr std::size_t find_per_sm_rates(int cc_major, int cc_minor) noexcept {
  for (std::size_t i = 0; i < per_sm_rate_table.size(); ++i)
    if (per_sm_rate_table[i].cc_major == cc_major && per_sm_rate_table[i].cc_minor == cc_minor) return i;
  return per_sm_rate_table.size();
}

// DRAM bandwidth in B/s from the memory clock (kHz) and bus width (bits), double data rate. For HBM the
// runtime reports the per-pin data clock / 2 and for GDDR6X a clock such that this formula gives the
// datasheet figure: H100 SXM 2,619 MHz x 5,120 bit -> 3.35 TB/s; RTX 4090 10,501 MHz x 384 bit -> 1.01 TB/s.
constexpr double dram_bandwidth(double memory_clock_khz, int bus_bits) {
  detail::positive_finite(memory_clock_khz, "the memory clock (kHz)");
  if (bus_bits <= 0) detail::value_out_of_range("the memory bus width must be positive");
  return detail::finite_result(2.0 * memory_clock_khz * 1e3 * static_cast<double>(bus_bits) / 8.0,
                               "the DRAM bandwidth (2 x memory clock x bus width / 8)");
}

// The derived spec. Pipes are filled only for a compute capability in per_sm_rate_table; for any other
// the spec still has its bandwidth, and asking for a peak is an error that says so.
constexpr gpu_spec derive_gpu_spec(const device_facts& f) {
  if (f.sm_count <= 0) detail::value_out_of_range("the SM count must be positive");
  detail::positive_finite(f.sm_clock_khz, "the SM clock (kHz)");
  gpu_spec g;
  g.key = "derived";
  g.name = "derived from the device's properties";
  g.cc_major = f.cc_major;
  g.cc_minor = f.cc_minor;
  g.sm_count = f.sm_count;
  g.boost_clock_mhz = f.sm_clock_khz / 1e3;
  g.memory_bandwidth = dram_bandwidth(f.memory_clock_khz, f.memory_bus_bits);
  g.l2_bytes = f.l2_bytes;
  g.source = "derived: SMs x per-SM FLOP/clock (napkin::per_sm_rate_table) x max SM clock; "
             "bandwidth = 2 x memory clock x bus width / 8";
  const std::size_t r = find_per_sm_rates(f.cc_major, f.cc_minor);
  if (r < per_sm_rate_table.size()) {
    for (std::size_t i = 0; i < pipe_count; ++i)
      g.peaks[i] = detail::finite_result(
          per_sm_rate_table[r].flops_per_clock[i] * static_cast<double>(f.sm_count) * f.sm_clock_khz * 1e3,
          "a derived peak (SMs x FLOP per clock x SM clock)");
  }
  return g;
}

NAPKIN_END_NAMESPACE
