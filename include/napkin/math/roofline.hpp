// SPDX-License-Identifier: Apache-2.0
// napkin/math/roofline.hpp — napkin's one roofline model: ridge points, attainable FLOP/s, time bounds
// and the regime of a workload on a GPU's pipe (napkin::estimate). Whatever in napkin needs a roofline
// (the CLI, the profiler's comparison) asks this model; nothing recomputes intensity, ridge or regime.
//
// Plain C++17, no CUDA; usable in constant expressions (the example also needs the workloads and the
// GPU table: include napkin/math.hpp):
//
//   constexpr auto e = napkin::estimate(napkin::gemm(4096, 4096, 4096, napkin::dtype::fp16),
//                                       napkin::gpus::h100_sxm, napkin::pipe::fp16_tensor);
//   static_assert(e.bound == napkin::regime::compute_bound);
//
// The model (Williams, Waterman & Patterson 2009; NVIDIA's GPU Performance Background guide):
//   ridge        = peak FLOP/s / DRAM B/s                       (FLOP/B)
//   attainable   = min(peak, bandwidth × intensity)
//   lower bound  = max(FLOPs / peak, bytes / bandwidth)         (math and memory overlap perfectly)
//   upper bound  = FLOPs / peak + bytes / bandwidth             (no overlap; at most 2× the lower bound)
// Both bounds ignore launch overhead (~µs) and caches: a kernel's measured time is at least the lower
// bound when the peak, the bandwidth and the byte count are right. The no-overlap time is NOT a bound on
// real kernels (they can be far slower); it is the model's pessimistic case.
// FLOPs are always the workload's standard count (workload::flops: FMA = 2), the convention the peaks
// are quoted in; a workload's counting convention changes only workload::counted_flops().
// Every input must be a finite positive number (NaN and infinity are refused), and so must every
// ratio computed from them.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/dtype.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/math/workload.hpp"

NAPKIN_BEGIN_NAMESPACE

// Dense by default. 2:4 structured sparsity doubles the tensor pipes of compute capability 8.0 and
// newer (not FP64 tensor); it must be asked for.
enum class sparsity : unsigned char { dense, sparse_2_4 };

// "dense", "2:4-sparse"; "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(sparsity s) noexcept {
  switch (s) {
    case sparsity::dense: return "dense";
    case sparsity::sparse_2_4: return "2:4-sparse";
  }
  return "unknown";
}

// "dense", "2:4 sparse" (the CLI's report line).
constexpr std::string_view describe(sparsity s) noexcept {
  return s == sparsity::sparse_2_4 ? "2:4 sparse" : to_string(s);
}

constexpr bool supports_sparsity(const gpu_spec& g, pipe p) noexcept {
  return is_tensor(p) && p != pipe::fp64_tensor && g.cc_major >= 8 && g.has(p);
}

constexpr double peak_flops(const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  const double dense = g.peak(p);
  if (s == sparsity::dense) return dense;
  if (s != sparsity::sparse_2_4) detail::enum_value_out_of_range("sparsity", static_cast<int>(s));
  if (!supports_sparsity(g, p)) detail::sparsity_needs_a_sparse_tensor_pipe(g.key, to_string(p));
  return detail::finite_result(2.0 * dense, "the 2:4-sparse peak (2 x the dense peak)");
}

// A roof: one compute ceiling and one bandwidth ceiling. Build one from the table (roof_of) or from
// your own measured ceilings.
struct roof {
  double peak_flops = 0;  // FLOP/s
  double bandwidth = 0;   // B/s

  // Both ceilings finite and positive.
  constexpr void validate() const {
    detail::positive_finite(peak_flops, "a roof's peak FLOP/s");
    detail::positive_finite(bandwidth, "a roof's bandwidth");
  }
  // The intensity (FLOP/B) at which memory time equals math time: the least intensity a kernel needs to
  // be compute-bound.
  constexpr double ridge() const {
    validate();
    return detail::finite_result(peak_flops / bandwidth, "the ridge (peak FLOP/s / bandwidth)");
  }
  constexpr double attainable_flops(double intensity) const {
    validate();
    detail::non_negative_finite(intensity, "arithmetic intensity");
    return std::min(peak_flops, bandwidth * intensity);
  }
};

constexpr roof roof_of(const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  if (g.memory_bandwidth == 0) detail::value_out_of_range("the GPU spec has no memory bandwidth");
  detail::positive_finite(g.memory_bandwidth, "a GPU spec's memory bandwidth");
  return roof{peak_flops(g, p, s), g.memory_bandwidth};
}

// A roof scaled to what good kernels reach, e.g. derate(r, 0.8, 0.9): large H100 GEMMs reach ~80% of the
// dense tensor peak and bandwidth-bound kernels ~90% of DRAM bandwidth (docs/napkin-math.md).
constexpr roof derate(const roof& r, double compute_efficiency, double memory_efficiency) {
  r.validate();
  if (!(compute_efficiency > 0 && compute_efficiency <= 1) || !(memory_efficiency > 0 && memory_efficiency <= 1))
    detail::value_out_of_range("efficiencies must lie in (0, 1]");  // NaN fails both comparisons
  return roof{r.peak_flops * compute_efficiency, r.bandwidth * memory_efficiency};
}

constexpr double ridge_point(const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return roof_of(g, p, s).ridge();
}

constexpr double attainable_flops(const gpu_spec& g, pipe p, double intensity, sparsity s = sparsity::dense) {
  return roof_of(g, p, s).attainable_flops(intensity);
}

// The pipe a workload runs on by default: a matrix product with a 16- or 8-bit, tf32 or fp64 input on
// the matching tensor pipe when the GPU has it; fp32 matrix products on the FP32 CUDA cores (TF32 must
// be asked for with dtype::tf32); everything else on the CUDA-core pipe of its accumulate type.
constexpr pipe default_pipe(const gpu_spec& g, const workload& w) {
  if (w.matrix && w.types.input != dtype::fp32) {
    const pipe tc = tensor_pipe(w.types.input, w.types.accumulate);
    if (g.has(tc) || w.types.input != dtype::fp64) return tc;
    return pipe::fp64;  // FP64 GEMM on a GPU without DMMA
  }
  return vector_pipe(w.types.accumulate);
}

enum class regime : unsigned char { memory_bound, compute_bound };

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(regime r) noexcept {
  switch (r) {
    case regime::memory_bound: return "memory-bound";
    case regime::compute_bound: return "compute-bound";
  }
  return "unknown";
}

struct roofline_estimate {
  double flops = 0;            // the workload's FLOPs, standard count (workload::flops)
  double bytes = 0;            // the workload's bytes
  double intensity = 0;        // FLOP/B
  double ridge = 0;            // FLOP/B
  double compute_seconds = 0;  // FLOPs / peak
  double memory_seconds = 0;   // bytes / bandwidth
  double attainable_flops = 0; // min(peak, bandwidth × intensity)
  regime bound = regime::memory_bound;

  constexpr double lower_bound_seconds() const { return std::max(compute_seconds, memory_seconds); }
  constexpr double no_overlap_seconds() const { return compute_seconds + memory_seconds; }
  // Bytes the kernel may move and still be compute-bound on this roof: FLOPs / ridge.
  constexpr double max_bytes_for_compute_bound() const { return flops / ridge; }
};

// Intensity at or above the ridge is compute-bound.
constexpr roofline_estimate estimate(const workload& w, const roof& r) {
  r.validate();
  roofline_estimate e;
  e.flops = static_cast<double>(w.flops);
  e.bytes = static_cast<double>(w.bytes());
  e.intensity = w.intensity();
  e.ridge = r.ridge();
  e.compute_seconds = detail::finite_result(e.flops / r.peak_flops, "the compute time (FLOPs / peak)");
  e.memory_seconds = detail::finite_result(e.bytes / r.bandwidth, "the memory time (bytes / bandwidth)");
  e.attainable_flops = r.attainable_flops(e.intensity);
  e.bound = e.intensity >= e.ridge ? regime::compute_bound : regime::memory_bound;
  return e;
}

constexpr roofline_estimate estimate(const workload& w, const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return estimate(w, roof_of(g, p, s));
}

constexpr roofline_estimate estimate(const workload& w, const gpu_spec& g) { return estimate(w, g, default_pipe(g, w)); }

constexpr double lower_bound_seconds(const workload& w, const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return estimate(w, g, p, s).lower_bound_seconds();
}

constexpr double no_overlap_seconds(const workload& w, const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return estimate(w, g, p, s).no_overlap_seconds();
}

constexpr regime expected_regime(const workload& w, const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return estimate(w, g, p, s).bound;
}

// The arithmetic intensity a kernel must reach to become compute-bound on (g, p): the ridge point.
constexpr double intensity_to_be_compute_bound(const gpu_spec& g, pipe p, sparsity s = sparsity::dense) {
  return ridge_point(g, p, s);
}

NAPKIN_END_NAMESPACE
