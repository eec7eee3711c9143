// napkin/gpus.hpp — peak math rates, memory bandwidth and L2 size of NVIDIA GPUs, per math pipe.
//
// Plain C++17, no CUDA; usable in constant expressions:
//
//   constexpr const napkin::gpu_spec& h100 = napkin::find_gpu("h100-sxm");
//   static_assert(h100.peak(napkin::pipe::fp32) == 66.9e12);
//
// * Peaks are DENSE datasheet boost-clock figures in FLOP/s (OP/s for int8), decimal units (1 TB/s =
//   1e12 B/s). 2:4 sparsity doubles tensor peaks only when asked (napkin/roofline.hpp, sparsity).
// * A tensor pipe is keyed by input AND accumulate type: GeForce parts run fp16 with fp32 accumulate at
//   half the fp16-accumulate rate.
// * Every entry names its sources; docs/napkin-math.md has the table, the sources and the caveats.
// * For a GPU not in the table, derive_gpu_spec() builds a spec from what the CUDA runtime reports
//   (napkin/gpus_cuda.hpp does it for a live device).
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "napkin/detail/math_errors.hpp"
#include "napkin/workloads.hpp"

NAPKIN_BEGIN_NAMESPACE

// Math pipes. "Vector" pipes are the CUDA cores; *_tensor pipes are the tensor cores, named by input
// type and (where it changes the rate) accumulate type.
enum class pipe : unsigned char {
  fp64,                 // CUDA cores, FP64 FMA
  fp32,                 // CUDA cores, FP32 FMA
  fp16,                 // CUDA cores, FP16 (HFMA2)
  bf16,                 // CUDA cores, BF16 (HFMA2.BF16)
  fp64_tensor,          // DMMA
  tf32_tensor,          // TF32 in, FP32 accumulate
  fp16_tensor,          // FP16 in, FP32 accumulate
  fp16_tensor_fp16acc,  // FP16 in, FP16 accumulate
  bf16_tensor,          // BF16 in, FP32 accumulate
  fp8_tensor,           // FP8 (E4M3/E5M2) in, FP32 accumulate
  fp8_tensor_fp16acc,   // FP8 in, FP16 accumulate
  int8_tensor,          // INT8 in, INT32 accumulate (OP/s, not FLOP/s)
};
inline constexpr std::size_t pipe_count = 12;

inline constexpr std::array<pipe, pipe_count> all_pipes{
    pipe::fp64,        pipe::fp32,        pipe::fp16,        pipe::bf16,
    pipe::fp64_tensor, pipe::tf32_tensor, pipe::fp16_tensor, pipe::fp16_tensor_fp16acc,
    pipe::bf16_tensor, pipe::fp8_tensor,  pipe::fp8_tensor_fp16acc, pipe::int8_tensor};

constexpr std::size_t index(pipe p) noexcept { return static_cast<std::size_t>(p); }

// False for a value outside the enumerators (static_cast<pipe>(12)): every table lookup checks it first.
constexpr bool is_valid(pipe p) noexcept { return index(p) < pipe_count; }

constexpr bool is_tensor(pipe p) noexcept { return is_valid(p) && index(p) >= index(pipe::fp64_tensor); }

// Short names, used by the command-line tool: fp32, fp16, fp16-tc, fp16-tc-f16acc, int8-tc, ...
// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(pipe p) noexcept {
  constexpr std::array<std::string_view, pipe_count> names{
      "fp64",  "fp32",     "fp16",  "bf16",           "fp64-tc", "tf32-tc",
      "fp16-tc", "fp16-tc-f16acc", "bf16-tc", "fp8-tc", "fp8-tc-f16acc", "int8-tc"};
  return is_valid(p) ? names[index(p)] : "unknown";
}

// What the pipe is, without parentheses (callers put it in some): "FP16 tensor cores, FP32 accumulate".
constexpr std::string_view describe(pipe p) noexcept {
  constexpr std::array<std::string_view, pipe_count> text{
      "FP64 CUDA cores",
      "FP32 CUDA cores",
      "FP16 CUDA cores, non-tensor",
      "BF16 CUDA cores, non-tensor",
      "FP64 tensor cores",
      "TF32 tensor cores, FP32 accumulate",
      "FP16 tensor cores, FP32 accumulate",
      "FP16 tensor cores, FP16 accumulate",
      "BF16 tensor cores, FP32 accumulate",
      "FP8 tensor cores, FP32 accumulate",
      "FP8 tensor cores, FP16 accumulate",
      "INT8 tensor cores, INT32 accumulate, OP/s"};
  return is_valid(p) ? text[index(p)] : "unknown pipe";
}

namespace detail {
constexpr std::size_t checked_index(pipe p) {
  if (!is_valid(p)) enum_value_out_of_range("pipe", static_cast<int>(p));
  return index(p);
}
}  // namespace detail

constexpr pipe parse_pipe(std::string_view s) {
  for (pipe p : all_pipes)
    if (to_string(p) == s) return p;
  detail::unknown_name("pipe", s,
                       "try fp64, fp32, fp16, bf16, fp64-tc, tf32-tc, fp16-tc, fp16-tc-f16acc, bf16-tc, fp8-tc, "
                       "fp8-tc-f16acc, int8-tc");
}

// The tensor pipe for (input, accumulate), e.g. (fp16, fp32) → fp16_tensor.
constexpr pipe tensor_pipe(dtype in, dtype acc) {
  if (in == dtype::fp64 && acc == dtype::fp64) return pipe::fp64_tensor;
  if (in == dtype::tf32 && acc == dtype::fp32) return pipe::tf32_tensor;
  if (in == dtype::fp16 && acc == dtype::fp32) return pipe::fp16_tensor;
  if (in == dtype::fp16 && acc == dtype::fp16) return pipe::fp16_tensor_fp16acc;
  if (in == dtype::bf16 && acc == dtype::fp32) return pipe::bf16_tensor;
  if (in == dtype::fp8 && acc == dtype::fp32) return pipe::fp8_tensor;
  if (in == dtype::fp8 && acc == dtype::fp16) return pipe::fp8_tensor_fp16acc;
  if (in == dtype::int8 && acc == dtype::int32) return pipe::int8_tensor;
  detail::no_pipe_for_these_types("this (input, accumulate) pair on tensor cores");
}

// The CUDA-core pipe that computes in `compute` (tf32 computes as fp32 off the tensor cores).
constexpr pipe vector_pipe(dtype compute) {
  switch (compute) {
    case dtype::fp64: return pipe::fp64;
    case dtype::fp32:
    case dtype::tf32: return pipe::fp32;
    case dtype::fp16: return pipe::fp16;
    case dtype::bf16: return pipe::bf16;
    default: break;
  }
  detail::no_pipe_for_these_types("this compute type on CUDA cores (napkin has no integer or fp8 vector pipe)");
}

using pipe_peaks = std::array<double, pipe_count>;

struct pipe_peak {
  pipe p;
  double value;  // dense FLOP/s (OP/s for int8), or FLOP per clock per SM in per_sm_rate_table
};

// Builds the per-pipe array from {pipe, value} pairs; a pipe listed twice is an error, and so is a value
// that is not a finite positive number.
constexpr pipe_peaks make_peaks(std::initializer_list<pipe_peak> list) {
  pipe_peaks out{};
  for (const pipe_peak& e : list) {
    const std::size_t i = detail::checked_index(e.p);
    if (out[i] != 0.0) detail::value_out_of_range("a pipe is listed twice in a GPU spec");
    out[i] = detail::positive_finite(e.value, "a listed peak");
  }
  return out;
}

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

// ---------------------------------------------------------------------------------------------------
// The table. Sources are abbreviated here; docs/napkin-math.md cites them in full. "derived" marks a
// value computed from cited inputs; a missing pipe means no published dense figure was found.
namespace gpus {

using P = pipe;

inline constexpr gpu_spec v100_sxm2{
    "v100-sxm2", "Tesla V100 SXM2", 7, 0, 80, 1530, 900e9, 6 * MB,
    make_peaks({{P::fp64, 7.8e12}, {P::fp32, 15.7e12}, {P::fp16, 31.4e12}, {P::fp16_tensor, 125e12},
                  {P::fp16_tensor_fp16acc, 125e12}}),
    "NVIDIA V100 datasheet; NVIDIA GPU Performance Background guide (80 SMs x 1.53 GHz, 125 TFLOPS TC); "
    "A100 whitepaper comparison table (FP16 vec 31.4)"};

// A100: four SKUs differ only in memory bandwidth. FP16 vector is 4x FP32 but BF16 vector only 2x.
inline constexpr pipe_peaks a100_peaks = make_peaks(
    {{P::fp64, 9.7e12}, {P::fp32, 19.5e12}, {P::fp16, 78e12}, {P::bf16, 39e12}, {P::fp64_tensor, 19.5e12}, {P::tf32_tensor, 156e12},
     {P::fp16_tensor, 312e12}, {P::fp16_tensor_fp16acc, 312e12}, {P::bf16_tensor, 312e12}, {P::int8_tensor, 624e12}});
inline constexpr std::string_view a100_source =
    "NVIDIA A100 datasheet and whitepaper (dense = sparse/2; FP16 vec 78, BF16 vec 39); bandwidths: "
    "llm-analysis gpu_configs / NVIDIA datasheet";
inline constexpr gpu_spec a100_sxm_40gb{"a100-sxm-40gb", "A100 SXM4 40GB", 8, 0, 108, 1410, 1555e9, 40 * MB,
                                        a100_peaks, a100_source};
inline constexpr gpu_spec a100_sxm_80gb{"a100-sxm-80gb", "A100 SXM4 80GB", 8, 0, 108, 1410, 2039e9, 40 * MB,
                                        a100_peaks, a100_source};
inline constexpr gpu_spec a100_pcie_40gb{"a100-pcie-40gb", "A100 PCIe 40GB", 8, 0, 108, 1410, 1555e9, 40 * MB,
                                         a100_peaks, a100_source};
inline constexpr gpu_spec a100_pcie_80gb{"a100-pcie-80gb", "A100 PCIe 80GB", 8, 0, 108, 1410, 1935e9, 40 * MB,
                                         a100_peaks, a100_source};

// H100 SXM: vector peaks use 1.98 GHz, tensor peaks 1.83 GHz (989.4e12 / (132 x 4096) = 1.83e9).
inline constexpr pipe_peaks h100_sxm_peaks = make_peaks(
    {{P::fp64, 33.5e12}, {P::fp32, 66.9e12}, {P::fp16, 133.8e12}, {P::bf16, 133.8e12}, {P::fp64_tensor, 66.9e12},
     {P::tf32_tensor, 494.7e12}, {P::fp16_tensor, 989.4e12}, {P::fp16_tensor_fp16acc, 989.4e12}, {P::bf16_tensor, 989.4e12},
     {P::fp8_tensor, 1978.9e12}, {P::fp8_tensor_fp16acc, 1978.9e12}, {P::int8_tensor, 1978.9e12}});
inline constexpr gpu_spec h100_sxm{
    "h100-sxm", "H100 SXM5 80GB", 9, 0, 132, 1980, 3350e9, 50 * MB, h100_sxm_peaks,
    "NVIDIA H100 datasheet (dense = sparse/2), glennklockwood.com H100 table (1.83/1.98 GHz), "
    "stas00/ml-engineering (989.4 = 1830 MHz x 528 TC x 512 FMA x 2)"};

inline constexpr gpu_spec h100_pcie{
    "h100-pcie", "H100 PCIe 80GB", 9, 0, 114, 1755, 2039e9, 50 * MB,
    make_peaks({{P::fp64, 25.6e12}, {P::fp32, 51.2e12}, {P::fp16, 102.4e12}, {P::bf16, 102.4e12}, {P::fp64_tensor, 51.2e12},
                  {P::tf32_tensor, 378e12}, {P::fp16_tensor, 756e12}, {P::fp16_tensor_fp16acc, 756e12},
                  {P::bf16_tensor, 756e12}, {P::fp8_tensor, 1513e12}, {P::fp8_tensor_fp16acc, 1513e12},
                  {P::int8_tensor, 1513e12}}),
    "NVIDIA H100 datasheet (dense = sparse/2; Lightning _CUDA_FLOPS); bandwidth 2,039 GB/s derived from "
    "the 1,593 MHz HBM2e clock x 5,120 bit (Chips and Cheese), datasheet rounds to 2 TB/s; FP16/BF16 vec "
    "derived 2x FP32 as on H100 SXM"};

inline constexpr gpu_spec h100_nvl{
    "h100-nvl", "H100 NVL 94GB (per GPU)", 9, 0, 0, 0, 3900e9, 0,
    make_peaks({{P::fp64, 30e12}, {P::fp32, 60e12}, {P::fp64_tensor, 60e12}, {P::tf32_tensor, 417.5e12},
                  {P::fp16_tensor, 835.5e12}, {P::fp16_tensor_fp16acc, 835.5e12}, {P::bf16_tensor, 835.5e12},
                  {P::fp8_tensor, 1670.5e12}, {P::fp8_tensor_fp16acc, 1670.5e12}}),
    "NVIDIA H100 NVL datasheet per GPU via Lightning PR #21743 (dense) and stas00 (3.9 TB/s); SM count, "
    "clock and L2 unverified, so left unknown"};

inline constexpr gpu_spec h200_sxm{
    "h200-sxm", "H200 SXM 141GB", 9, 0, 132, 1980, 4800e9, 50 * MB, h100_sxm_peaks,
    "NVIDIA H200 datasheet (compute as H100 SXM, 4.8 TB/s; stas00, tritonbench #78); L2 assumed equal "
    "to H100's (same GH100 die)"};

inline constexpr gpu_spec b200{
    "b200", "B200 (HGX B200 figures)", 10, 0, 148, 0, 7700e9, 0,
    make_peaks({{P::fp64, 37e12}, {P::fp32, 75e12}, {P::fp64_tensor, 37e12}, {P::tf32_tensor, 1100e12},
                  {P::fp16_tensor, 2250e12}, {P::fp16_tensor_fp16acc, 2250e12}, {P::bf16_tensor, 2250e12},
                  {P::fp8_tensor, 4500e12}, {P::fp8_tensor_fp16acc, 4500e12}, {P::int8_tensor, 4500e12}}),
    "NVIDIA HGX B200 spec page (tensor figures quoted sparse, halved here; 7.7 TB/s); the DGX B200 "
    "datasheet gives 80 FP32 / 8 TB/s; 148 SMs from a secondary source (blackwell-gpu-wiki #2)"};

inline constexpr gpu_spec l4{
    "l4", "L4", 8, 9, 58, 2040, 300e9, 48 * MB,
    make_peaks({{P::fp64, 0.47e12}, {P::fp32, 30.3e12}, {P::fp16, 30.3e12}, {P::bf16, 30.3e12}, {P::tf32_tensor, 60e12},
                  {P::fp16_tensor, 121e12}, {P::fp16_tensor_fp16acc, 121e12}, {P::bf16_tensor, 121e12},
                  {P::fp8_tensor, 242.5e12}, {P::fp8_tensor_fp16acc, 242.5e12}, {P::int8_tensor, 242.5e12}}),
    "NVIDIA L4 datasheet (tensor quoted sparse, halved here: 120/242/485); 300 GB/s, 48 MB L2, 2,040 MHz "
    "(TechPowerUp-style pages); SM count derived (7,424 cores / 128)"};

inline constexpr gpu_spec l40s{
    "l40s", "L40S", 8, 9, 142, 2520, 864e9, 0,
    make_peaks({{P::fp64, 1.43e12}, {P::fp32, 91.6e12}, {P::fp16, 91.6e12}, {P::bf16, 91.6e12}, {P::tf32_tensor, 183e12},
                  {P::fp16_tensor, 362.05e12}, {P::fp16_tensor_fp16acc, 362.05e12}, {P::bf16_tensor, 362.05e12},
                  {P::fp8_tensor, 733e12}, {P::fp8_tensor_fp16acc, 733e12}, {P::int8_tensor, 733e12}}),
    "NVIDIA L40/L40S datasheet (\"* with sparsity\" figures halved); 864 GB/s; FP16/BF16 vec 1:1 with FP32 "
    "on AD102; L2 size not verified"};

inline constexpr gpu_spec t4{
    "t4", "Tesla T4", 7, 5, 40, 1590, 320e9, 4 * MB,
    make_peaks({{P::fp64, 0.25e12}, {P::fp32, 8.1e12}, {P::fp16, 16.2e12}, {P::fp16_tensor, 65e12},
                  {P::fp16_tensor_fp16acc, 65e12}, {P::int8_tensor, 130e12}}),
    "NVIDIA T4 datasheet (8.1 FP32, 65 FP16 mixed, 130 INT8, 320 GB/s); FP16 vec derived 2x FP32 (Turing); "
    "40 SMs, 1,590 MHz, 4 MB L2"};

inline constexpr gpu_spec a10{
    "a10", "A10", 8, 6, 72, 1695, 600e9, 6 * MB,
    make_peaks({{P::fp64, 0.49e12}, {P::fp32, 31.2e12}, {P::fp16, 31.2e12}, {P::bf16, 31.2e12}, {P::tf32_tensor, 62.5e12},
                  {P::fp16_tensor, 125e12}, {P::fp16_tensor_fp16acc, 125e12}, {P::bf16_tensor, 125e12},
                  {P::int8_tensor, 250e12}}),
    "NVIDIA A10 datasheet (31.2 FP32, 62.5 TF32, 125 FP16, 250 INT8 dense; 600 GB/s); FP64 derived from "
    "the CUDA Programming Guide's 2 FP64 FMA/clk/SM on CC 8.6 x 72 SMs x 1.695 GHz"};

inline constexpr gpu_spec rtx_3090{
    "rtx-3090", "GeForce RTX 3090", 8, 6, 82, 1695, 936e9, 6 * MB,
    make_peaks({{P::fp64, 0.56e12}, {P::fp32, 35.6e12}, {P::fp16, 35.6e12}, {P::bf16, 35.6e12}, {P::tf32_tensor, 35.6e12},
                  {P::fp16_tensor, 71e12}, {P::fp16_tensor_fp16acc, 142e12}, {P::bf16_tensor, 71e12},
                  {P::int8_tensor, 284e12}}),
    "NVIDIA GA102 whitepaper appendix A (FP16 TC 71 with FP32 acc / 142 with FP16 acc, TF32 35.6, INT8 284, "
    "dense); TechPowerUp data (82 SMs, 1,695 MHz, 35.58 FP32, FP16 1:1, 936 GB/s, 6 MB L2)"};

inline constexpr gpu_spec rtx_4090{
    "rtx-4090", "GeForce RTX 4090", 8, 9, 128, 2520, 1008e9, 72 * MB,
    make_peaks({{P::fp64, 1.29e12}, {P::fp32, 82.6e12}, {P::fp16, 82.6e12}, {P::bf16, 82.6e12}, {P::tf32_tensor, 82.6e12},
                  {P::fp16_tensor, 165.2e12}, {P::fp16_tensor_fp16acc, 330.3e12}, {P::bf16_tensor, 165.2e12},
                  {P::fp8_tensor, 330.3e12}, {P::fp8_tensor_fp16acc, 660.6e12}, {P::int8_tensor, 660.6e12}}),
    "NVIDIA Ada whitepaper v2.1 via Lightning _CUDA_FLOPS and waredb (FP16 vec 82.58 = 1:1 FP32; FP16 TC "
    "165.2 FP32-acc / 330.3 FP16-acc dense); 1,008 GB/s, 72 MB L2"};

inline constexpr gpu_spec rtx_6000_ada{
    "rtx-6000-ada", "RTX 6000 Ada Generation", 8, 9, 142, 2505, 960e9, 96 * MB,
    make_peaks({{P::fp32, 91.1e12}, {P::fp16, 91.1e12}, {P::bf16, 91.1e12}, {P::fp8_tensor, 728.5e12}}),
    "NVIDIA RTX 6000 Ada datasheet (91.1 FP32, 1,457 FP8 TFLOPS with sparsity, halved here; 960 GB/s); "
    "96 MB L2, 142 SMs; FP16/BF16 vec 1:1 with FP32 on AD102; other tensor rates not published densely"};

}  // namespace gpus

inline constexpr std::array<gpu_spec, 17> gpu_table{
    gpus::v100_sxm2, gpus::a100_sxm_40gb, gpus::a100_sxm_80gb, gpus::a100_pcie_40gb, gpus::a100_pcie_80gb,
    gpus::h100_sxm,  gpus::h100_pcie,     gpus::h100_nvl,      gpus::h200_sxm,       gpus::b200,
    gpus::l4,        gpus::l40s,          gpus::t4,            gpus::a10,            gpus::rtx_3090,
    gpus::rtx_4090,  gpus::rtx_6000_ada};

// The table entry with this key; an error for an unknown key.
constexpr const gpu_spec& find_gpu(std::string_view key) {
  for (const gpu_spec& g : gpu_table)
    if (g.key == key) return g;
  detail::unknown_gpu(key);
}

// ---------------------------------------------------------------------------------------------------
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
