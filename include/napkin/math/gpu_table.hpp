// SPDX-License-Identifier: Apache-2.0
// napkin/math/gpu_table.hpp — the datasheet table: peak math rates, memory bandwidth and L2 size of 17
// NVIDIA GPUs, per math pipe, each entry with its sources.
//
// Plain C++17, no CUDA; usable in constant expressions:
//
//   constexpr const napkin::gpu_spec& h100 = napkin::find_gpu("h100-sxm");
//   static_assert(h100.peak(napkin::pipe::fp32) == 66.9e12);
//
// * Peaks are DENSE datasheet boost-clock figures in FLOP/s (OP/s for int8), decimal units (1 TB/s =
//   1e12 B/s). 2:4 sparsity doubles tensor peaks only when asked (napkin/math/roofline.hpp, sparsity).
// * A tensor pipe is keyed by input AND accumulate type: GeForce parts run fp16 with fp32 accumulate at
//   half the fp16-accumulate rate.
// * Every entry names its sources; docs/napkin-math.md has the table, the sources and the caveats.
// * For a GPU not in the table, derive_gpu_spec() (napkin/math/derived_spec.hpp) builds a spec from what
//   the CUDA runtime reports (napkin/math/gpus_cuda.hpp does it for a live device).
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"

NAPKIN_BEGIN_NAMESPACE

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

NAPKIN_END_NAMESPACE
