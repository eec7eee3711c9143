// The accuracy workload's kernels beyond examples/kernels/kernels.cuh: a multi-pass strided read, a naive
// transpose, an L1-resident re-read, contended global atomics, FP64 FMA chains, an SFU loop, a one-warp
// pointer chase and a long FMA loop. Copied from benchmarks/zoo/zoo.cu (the zoo's cases of the same character;
// examples do not depend on benchmarks), renamed mw_ so that ncu's -k regex and the monitor's kernel rows tell
// them from the zoo's and from each other. `static`, as in kernels.cuh: plain symbols, one copy per unit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

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
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + threadIdx.y + j;
    out[std::size_t(x) * n + y] = in[std::size_t(y) * n + x];
  }
}

// Each block re-reads its own 16 KB tile (4 blocks per SM: 64 KB, inside L1). The offset moves with r so that
// the loads cannot be hoisted out of the loop.
static __global__ void mw_l1_reread(const float4* __restrict__ in, int repeats, float never, float* out) {
  const float4* tile = in + blockIdx.x * 1024u;
  float acc = 0.0f;
  for (int r = 0; r < repeats; ++r)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float4 v = __ldca(tile + ((threadIdx.x + 256u * j + 32u * r) & 1023u));
      acc += (v.x + v.y) + (v.z + v.w);
    }
  if (acc == never) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Global atomics on 8 bins, no shared-memory privatization: the L2's atomic units serialize them.
static __global__ void mw_atomic_histogram(const unsigned* __restrict__ in, std::size_t n, unsigned* bins) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    atomicAdd(&bins[in[i] % 8u], 1u);
}

// 8 independent FMA chains per thread, so that the pipe, not the dependency latency, is the limit.
template <class T>
static __device__ inline T mw_fma_chains(int iterations, T a, T b) {
  T x[8];
  for (int c = 0; c < 8; ++c) x[c] = static_cast<T>(threadIdx.x + c);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = fma(x[c], a, b);
  }
  T r = 0;
  for (int c = 0; c < 8; ++c) r += x[c];
  return r;
}

static __global__ void mw_fp64_fma(int iterations, double a, double b, double never, double* out) {
  const double r = mw_fma_chains<double>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// The FP32 chains under their own name, run long (the ~50 ms kernel).
static __global__ void mw_long_fma(int iterations, float a, float b, float never, float* out) {
  const float r = mw_fma_chains<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// MUFU work: a sine, an exponential and a reciprocal square root per step, four chains (x stays in [-1, 4]).
static __global__ void mw_sfu(int iterations, float never, float* out) {
  float x[4];
  for (int c = 0; c < 4; ++c) x[c] = static_cast<float>(threadIdx.x + c) * 1e-3f;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 4; ++c) x[c] = __sinf(x[c]) + __expf(-x[c]) * rsqrtf(x[c] * x[c] + 1.0f);
  }
  const float r = x[0] + x[1] + x[2] + x[3];
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// next[i] = (a i + c) mod n (n a power of two): a full-period LCG, one cycle through all n entries whose
// steps land far apart: the pointer chase's chain, and pseudo-random bins for the histogram.
static __global__ void mw_setup_chain(unsigned* next, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    next[i] = static_cast<unsigned>((1664525u * static_cast<unsigned>(i) + 1013904223u) & (n - 1));
}

// One warp, each lane following its own chain through the n entries: every step waits for the previous load.
static __global__ void mw_pointer_chase(const unsigned* __restrict__ next, std::size_t n, int steps, unsigned* out) {
  unsigned p = static_cast<unsigned>(threadIdx.x * (n / 32));
  for (int i = 0; i < steps; ++i) p = next[p];
  out[threadIdx.x] = p;
}

}  // namespace napkin_monitor_workload
