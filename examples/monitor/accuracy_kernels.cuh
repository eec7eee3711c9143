// The accuracy workload's kernels beyond examples/kernels/kernels.cuh: a multi-pass strided read, a naive
// transpose, an L1-resident re-read, contended global atomics, FP64 FMA chains, an SFU loop, a one-warp
// pointer chase and a long FMA loop: the zoo's cases of the same character (benchmarks/zoo/zoo.cu), their
// bodies shared through kernels.cuh, under mw_ names so that ncu's -k regex and the monitor's kernel rows tell
// them from the zoo's and from each other. `static`, as in kernels.cuh: plain symbols, one copy per unit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels.cuh"

namespace napkin_monitor_workload {

// Loads `stride` floats apart, so that each lane of a warp touches its own sector; `passes` sweeps over the
// buffer, each starting 8 floats (one sector) further into the line, so that a sweep over a buffer much larger
// than L2 reads from DRAM again.
static __global__ void mw_strided_passes(const float* __restrict__ in, std::size_t n, int stride, int passes,
                                         float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = t * stride + static_cast<std::size_t>((8 * p) % stride); i < n; i += threads * stride)
      acc += in[i];
  out[t] = acc;
}

// Naive transpose of an n x n matrix, blocks of 32 x 8 threads over 32 x 32 tiles: coalesced reads, stores 32
// rows apart (a sector per lane).
static __global__ void mw_transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  napkin_kernels::transpose_naive_tile(in, out, n);
}

// Each block re-reads its own 16 KB tile (4 blocks per SM: 64 KB, inside L1). The offset moves with r so that
// the loads cannot be hoisted out of the loop.
static __global__ void mw_l1_reread(const float4* __restrict__ in, int repeats, float never, float* out) {
  const float acc = napkin_kernels::l1_reread_tile(in, repeats);
  if (acc == never) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Global atomics on 8 bins, no shared-memory privatization: the L2's atomic units serialize them.
static __global__ void mw_atomic_histogram(const unsigned* __restrict__ in, std::size_t n, unsigned* bins) {
  napkin_kernels::histogram_atomics(in, n, bins, 8u);
}

static __global__ void mw_fp64_fma(int iterations, double a, double b, double never, double* out) {
  const double r = napkin_kernels::fma_chains_sum<double>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// The FP32 chains under their own name, run long (the ~50 ms kernel).
static __global__ void mw_long_fma(int iterations, float a, float b, float never, float* out) {
  const float r = napkin_kernels::fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// MUFU work: a sine, an exponential and a reciprocal square root per step, four chains (x stays in [-1, 4]).
static __global__ void mw_sfu(int iterations, float never, float* out) {
  const float r = napkin_kernels::sfu_chains_sum(iterations);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// next[i] = (a i + c) mod n (n a power of two): a full-period LCG, one cycle through all n entries whose
// steps land far apart: the pointer chase's chain, and pseudo-random bins for the histogram.
static __global__ void mw_setup_chain(unsigned* next, std::size_t n) {
  napkin_kernels::lcg_chain(next, n);
}

// One warp, each lane following its own chain through the n entries: every step waits for the previous load.
static __global__ void mw_pointer_chase(const unsigned* __restrict__ next, std::size_t n, int steps, unsigned* out) {
  out[threadIdx.x] = napkin_kernels::chase_chain(next, n, steps);
}

}  // namespace napkin_monitor_workload
