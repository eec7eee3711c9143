// SPDX-License-Identifier: Apache-2.0
// The kernel zoo: kernels of distinct character (LSU-, FMA-, SFU-, tensor-, DRAM-, L1-, L2-, latency-bound, ...)
// for checking napkin's in-process profiler against Nsight Compute (benchmarks/device/zoo.sh runs both,
// benchmarks/zoo/accuracy_table.py compares them; benchmarks/zoo/README.md lists the cases).
//
//   zoo list                                   name<TAB>character, one line per case (the table's order)
//   zoo time [--only NAME]                     best of 5 event-timed launches per case (ZOO_TIME lines)
//   zoo plain [--only NAME] [--repeat R]       the target for ncu: every case once unprofiled (warm-up: cuBLAS
//                                              modules, heuristics), then cudaProfilerStart() and each case R
//                                              times inside napkin::range{name}, each preceded by the marker
//                                              kernel zoo_case_marker<<<index + 1, 32>>> (see below)
//       [--no-profiler-api]                    without cudaProfilerStart/Stop (for ncu's range replay, whose
//                                              ranges are the NVTX ones: --nvtx --nvtx-include "napkin@NAME/")
//   zoo napkin [--only NAME] [--set sol|sol_fast|elapsed]   measure(), per_kernel() (kernel replay) and
//                                              per_kernel(fn, replay::application, reset) of every case:
//                                              NAPKIN_SOL lines ending " mode=<mode> case=<name>"
//   zoo why [--only NAME] [--replay application|kernel]   per_kernel(fn, replay::application, reset) (or
//                                              per_kernel(fn), CUPTI's kernel replay, per_kernel's default) with
//                                              metric_sets::why() (warp state, pipes, memory chart, achieved
//                                              occupancy): one NAPKIN_WHY line per kernel, every counter as
//                                              metric=value plus the sections' leader / busiest pipe
//                                              (benchmarks/zoo/why_table.py)
//   zoo monitor [--only NAME]                  napkin::monitor's per-kernel rows: each case back to back for ~50 ms
//                                              in napkin::range{name}, 30 ms apart, 1 ms windows sampled all the
//                                              time; the report as key=value lines (benchmarks/zoo/monitor_table.py
//                                              compares them with ncu's SpeedOfLight of `zoo plain`)
//
// How ncu's rows are tied to cases: in `plain`, before each case, zoo_case_marker runs with a grid of
// (case index + 1) blocks; ncu's CSV has the grid size of every kernel and numbers kernels in launch order, so
// every kernel between two markers belongs to the case the first one names, cuBLAS's kernels included. Run
// ncu with --profile-from-start off so that the warm-up is not profiled.
//
// Every kernel has its own name starting with zoo_ (ncu's -k regex can pick one); library kernels keep theirs.
// Sizes are fixed so that each case runs 20 us - 5 ms on an H100 or H200, except short_copy (5-20 us) and
// long_fma (over 50 ms).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/check/cublas.hpp"
#include "napkin/monitor.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/warp_state.hpp"

// The kernels are `static` rather than in the anonymous namespace, as in examples/kernels/kernels.cuh: their
// names stay plain (zoo_copy, not (anonymous namespace)::zoo_copy) for the profiler's reports and ncu's -k.

// ---------------------------------------------------------------------------------------------------
// Sizes.
constexpr std::size_t big_n = std::size_t(1) << 26;   // 64 Mi floats = 256 MiB per big buffer
constexpr int transpose_n = 8192;                     // 8192^2 floats = big_n
constexpr std::size_t smem_n = std::size_t(1) << 24;  // shared-memory cases: 16 Mi floats in blocks
constexpr int smem_rounds = 16;
constexpr int stencil_sweeps = 32;
constexpr std::size_t histogram_n = std::size_t(1) << 22;
constexpr unsigned histogram_bins = 8;  // few bins: every warp's atomics collide on the same 8 addresses
constexpr int fma_iterations = 4096;
constexpr int long_fma_iterations = 1 << 20;  // ~70-80 ms on an H100 or H200
constexpr int sfu_iterations = 1024;
constexpr int int_iterations = 2048;
constexpr int mma_iterations = 2048;
constexpr int gemm_n = 4096;
constexpr std::size_t gemm_nn = std::size_t(gemm_n) * gemm_n;
constexpr int l1_repeats = 512;
constexpr std::size_t l2_n = std::size_t(1) << 22;  // 16 MiB: fits the 50 MB L2 of an H100, not an L1
constexpr int l2_repeats = 32;
constexpr int spill_iterations = 256;
constexpr int divergent_iterations = 256;
constexpr int strided_stride = 16;  // floats: each lane's load has its own 64-byte stretch
constexpr std::size_t scatter_n = std::size_t(1) << 24;
constexpr int chase_steps = 2048;
constexpr int conflict_iterations = 512;
constexpr std::size_t short_n = std::size_t(1) << 22;  // 16 MiB in, 16 MiB out: about 10 us
constexpr int shuffle_iterations = 1024;
constexpr int splitk_m = 128;  // small M and N, large K: cuBLAS's split-K shape
constexpr int splitk_k = 1 << 18;
constexpr std::size_t graph_n = std::size_t(1) << 24;

// ---------------------------------------------------------------------------------------------------
// Setup kernels (not cases).
static __global__ void zoo_setup_pattern(float* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = static_cast<float>(static_cast<int>(i % 1021u)) * (1.0f / 1021.0f);
}

// next[i] = (a i + c) mod n: a full-period LCG (c odd, a = 1 mod 4), so one cycle through all n entries whose
// steps land far apart (the pointer chase's chain, and pseudo-random bins for the histogram).
static __global__ void zoo_setup_chain(unsigned* next, std::size_t n) {
  napkin_kernels::lcg_chain(next, n);
}

template <class T>
static __global__ void zoo_setup_value(T* p, std::size_t n, float v) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = T(v);
}

// The marker before each case in `plain` mode: its grid size is the case's index + 1 (ncu's "Grid Size").
static __global__ void zoo_case_marker() {}

// ---------------------------------------------------------------------------------------------------
// The zoo's kernels. Results that only keep the compiler honest are stored when they equal `never`, a value
// they cannot take.

// Conflict-free tree (sequential addressing), a barrier per step; `rounds` per block so that shared memory,
// not DRAM, is the work.
static __global__ void zoo_smem_tree_reduce(const float* __restrict__ in, int rounds, float* __restrict__ out) {
  __shared__ float s[512];
  const unsigned t = threadIdx.x;
  const float x = in[blockIdx.x * 512u + t];
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    s[t] = x + static_cast<float>(r);
    __syncthreads();
    for (unsigned half = 256; half > 0; half >>= 1) {
      if (t < half) s[t] += s[t + half];
      __syncthreads();
    }
    if (t == 0) acc += s[0];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = acc;
}

// A 3-point smoothing stencil ping-ponged between two shared buffers: three loads and a store per thread and
// a barrier per sweep.
static __global__ void zoo_smem_stencil(const float* __restrict__ in, int sweeps, float* __restrict__ out) {
  __shared__ float s[2][256 + 2];
  const unsigned t = threadIdx.x;
  const float x = in[blockIdx.x * 256u + t];
  s[0][t + 1] = x;
  if (t == 0) s[0][0] = s[0][257] = s[1][0] = s[1][257] = 0.0f;
  __syncthreads();
  int cur = 0;
  for (int k = 0; k < sweeps; ++k) {
    s[cur ^ 1][t + 1] = 0.25f * (s[cur][t] + 2.0f * s[cur][t + 1] + s[cur][t + 2]);
    cur ^= 1;
    __syncthreads();
  }
  out[blockIdx.x * 256u + t] = s[cur][t + 1];
}

// Transposes of an n x n matrix, blocks of 32 x 8 threads over 32 x 32 tiles. Naive: coalesced reads, stores
// 32 rows apart (a sector per lane). Tiled: through a padded shared tile, both sides coalesced.
static __global__ void zoo_transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  napkin_kernels::transpose_naive_tile(in, out, n);
}

static __global__ void zoo_transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][33];  // the pad puts a column's 32 floats in 32 banks
  int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(blockIdx.y * 32 + threadIdx.y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8)
    out[std::size_t(blockIdx.x * 32 + threadIdx.y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Global atomics on 8 bins, no shared-memory privatization: the L2's atomic units serialize them.
static __global__ void zoo_atomic_histogram(const unsigned* __restrict__ in, std::size_t n, unsigned* bins) {
  napkin_kernels::histogram_atomics(in, n, bins, histogram_bins);
}

static __global__ void zoo_fp64_fma(int iterations, double a, double b, double never, double* out) {
  const double r = napkin_kernels::fma_chains_sum<double>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

static __global__ void zoo_fp32_fma(int iterations, float a, float b, float never, float* out) {
  const float r = napkin_kernels::fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// The same loop as zoo_fp32_fma, under its own name, run long (the > 50 ms case).
static __global__ void zoo_long_fma(int iterations, float a, float b, float never, float* out) {
  const float r = napkin_kernels::fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// Packed half FMAs (HFMA2): x = x a + b with a = b = 0.5 converges to 1, so nothing overflows.
static __global__ void zoo_fp16_hfma2(int iterations, float a, float b, float never, float* out) {
  const __half2 a2 = __float2half2_rn(a), b2 = __float2half2_rn(b);
  __half2 x[8];
  for (int c = 0; c < 8; ++c) x[c] = __float2half2_rn(static_cast<float>(c) * 0.125f);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = __hfma2(x[c], a2, b2);
  }
  float r = 0.0f;
  for (int c = 0; c < 8; ++c) r += __low2float(x[c]) + __high2float(x[c]);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// MUFU work: a sine, an exponential and a reciprocal square root per step, four chains (x stays in [-1, 4]).
static __global__ void zoo_sfu(int iterations, float never, float* out) {
  const float r = napkin_kernels::sfu_chains_sum(iterations);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// Integer hashing: multiply-add, shifts, a rotate and xors (IMAD, SHF, LOP3), four chains.
static __global__ void zoo_int_hash(int iterations, unsigned never, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h[4];
  for (int c = 0; c < 4; ++c) h[c] = t + static_cast<unsigned>(c) * 0x9E3779B9u;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      unsigned v = h[c] * 0x85EBCA6Bu + 0xC2B2AE35u;
      v ^= v >> 13;
      v = (v << 7) | (v >> 25);
      h[c] = v ^ (0x27D4EB2Fu & (v >> 3));
    }
  }
  const unsigned r = h[0] ^ h[1] ^ h[2] ^ h[3];
  if (r == never) out[t] = r;
}

// Tensor cores by hand: mma.sync m16n8k16 (FP16 in, FP32 accumulate) on fragments kept in registers, four
// independent accumulators per warp. No memory traffic beyond the first fragment load.
static __global__ void zoo_mma_sync_f16(const unsigned* __restrict__ frag, int iterations, float never, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned lane = threadIdx.x % 32;
  const unsigned a0 = frag[lane], a1 = frag[lane + 32], a2 = frag[lane + 64], a3 = frag[lane + 96];
  const unsigned b0 = frag[lane + 128], b1 = frag[lane + 160];
  float d[4][4] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%0,%1,%2,%3};\n"
          : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float r = 0.0f;
  for (int c = 0; c < 4; ++c) r += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
#else
  (void)frag, (void)iterations, (void)never, (void)out;
#endif
}

// Each block re-reads its own 16 KB tile (4 blocks per SM: 64 KB, well inside L1). The offset moves with r so
// that the loads cannot be hoisted out of the loop.
static __global__ void zoo_l1_reread(const float4* __restrict__ in, int repeats, float never, float* out) {
  const float acc = napkin_kernels::l1_reread_tile(in, repeats);
  if (acc == never) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// `repeats` sweeps over a 16 MiB buffer through L2 only (__ldcg): after the first sweep every load hits L2.
static __global__ void zoo_l2_reread(const float4* __restrict__ in, std::size_t n4, int repeats, float never,
                                     float* out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i = t; i < n4; i += threads) {
      const float4 v = __ldcg(in + i);
      acc += (v.x + v.y) + (v.z + v.w);
    }
  if (acc == never) out[t] = acc;
}

// A dynamically indexed per-thread array: the compiler must put it in local memory (256 B a thread, more
// than L1 holds for a full SM, so it spills to L2).
static __global__ void zoo_local_spill(const unsigned* __restrict__ seed, int iterations, float never, float* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = static_cast<float>(threadIdx.x + i);
  unsigned k = seed[t];
  for (int i = 0; i < iterations; ++i) {
    k = k * 1664525u + 1013904223u;
    arr[k & 63u] += arr[(k >> 8) & 63u];
  }
  float r = 0.0f;
  for (int i = 0; i < 64; ++i) r += arr[i];
  if (r == never) out[t] = r;
}

// Each lane of a group of eight takes its own path (different operations, so the compiler cannot merge them):
// a warp runs all eight one after the other.
static __global__ void zoo_divergent(int iterations, float never, float* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(threadIdx.x) * 1e-3f + 0.5f;
  unsigned u = t;
  switch (threadIdx.x & 7u) {
    case 0:
      for (int i = 0; i < iterations; ++i) x = fmaf(x, 0.999f, 0.001f);
      break;
    case 1:
      for (int i = 0; i < iterations; ++i) x = x * x * 0.5f + 0.25f;
      break;
    case 2:
      for (int i = 0; i < iterations; ++i) x = __sinf(x) + 0.5f;
      break;
    case 3:
      for (int i = 0; i < iterations; ++i) x = sqrtf(x + 1.0f);
      break;
    case 4:
      for (int i = 0; i < iterations; ++i) u = u * 0x9E3779B1u + (u >> 7);
      x = static_cast<float>(u & 255u);
      break;
    case 5:
      for (int i = 0; i < iterations; ++i) x = __expf(-x) + 0.1f;
      break;
    case 6:
      for (int i = 0; i < iterations; ++i) x = 1.0f / (x + 1.0f);
      break;
    default:
      for (int i = 0; i < iterations; ++i) x = rsqrtf(x * x + 0.5f);
      break;
  }
  if (x == never) out[t] = x;
}

// Loads `stride` floats apart: each lane of a warp touches its own sector (32 sectors per request).
static __global__ void zoo_strided_load(const float* __restrict__ in, std::size_t n, int stride,
                                        float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = t * stride; i < n; i += threads * stride) acc += in[i];
  out[t] = acc;
}

// Coalesced reads, stores scattered by an odd multiplier (a permutation of [0, n), n a power of two).
static __global__ void zoo_scatter_store(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[(i * 0x9E3779B1u) & (n - 1)] = in[i];
}

// One warp, each lane following its own chain through 256 MiB: every step waits for the previous load.
static __global__ void zoo_pointer_chase(const unsigned* __restrict__ next, std::size_t n, int steps, unsigned* out) {
  out[threadIdx.x] = napkin_kernels::chase_chain(next, n, steps);
}

// Each lane reads and writes its own row of 32 floats in shared memory, column k: all 32 lanes in one bank.
static __global__ void zoo_bank_conflict32(int iterations, float never, float* out) {
  __shared__ float s[8][32 * 32];
  volatile float* row = &s[threadIdx.x / 32][(threadIdx.x % 32) * 32];  // volatile: every access happens
  for (int k = 0; k < 32; ++k) row[k] = static_cast<float>(k);
  __syncwarp();
  float acc = 0.0f;
  for (int i = 0; i < iterations; ++i) {
    const float v = row[i & 31];
    row[(i + 1) & 31] = v + 1.0f;
    acc += v;
  }
  if (acc == never) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static __device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Grid-stride sum with float4 loads, a warp and block reduction, one atomic per block (*out cleared by reset).
static __global__ void zoo_grid_reduce(const float4* __restrict__ in, std::size_t n4, float* out) {
  __shared__ float partial[32];
  float acc = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 v = in[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  acc = warp_sum(acc);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    float v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

static __global__ void zoo_stream_copy(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

// The short case: the same copy under its own name, 16 MiB.
static __global__ void zoo_short_copy(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

// Stores only: DRAM write bandwidth.
static __global__ void zoo_write_only(float4* __restrict__ out, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(i & 1023u));
}

// Butterfly all-reduces over the warp: five SHFL.BFLY per step, nothing else.
static __global__ void zoo_shuffle_butterfly(int iterations, float never, float* out) {
  float v = static_cast<float>(threadIdx.x) * 1e-3f;
  for (int i = 0; i < iterations; ++i)
#pragma unroll
    for (int m = 16; m > 0; m /= 2) v = 0.5f * (v + __shfl_xor_sync(0xffffffffu, v, m));
  if (v == never) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The CUDA graph's three kernels: scale, add, square (each reads and writes 64 MiB).
static __global__ void zoo_graph_scale(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = 2.0f * in[i];
}
static __global__ void zoo_graph_add(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i] + 1.0f;
}
static __global__ void zoo_graph_square(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i] * in[i];
}

// The two-stream case: an FMA loop and a copy, each on half the SMs' worth of blocks, running side by side.
static __global__ void zoo_concurrent_fma(int iterations, float a, float b, float never, float* out) {
  const float r = napkin_kernels::fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}
static __global__ void zoo_concurrent_copy(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

namespace {

void check_launch() { NAPKIN_CUDA_CHECK(cudaGetLastError()); }

// ---------------------------------------------------------------------------------------------------
// Device state: buffers, handles, the graph and the streams. Made by init(), so that `list` needs no GPU.
struct state {
  float* a = nullptr;     // 2 big_n floats (the strided load's span, the split-K GEMM's operands)
  float* b = nullptr;     // big_n floats
  float* c = nullptr;     // big_n floats
  unsigned* u = nullptr;  // big_n: the chase's chain, the histogram's input, local_spill's indices
  unsigned* bins = nullptr;
  float* acc = nullptr;
  float* small = nullptr;       // 4 MiB of per-thread outputs
  __half* h = nullptr;          // FP16 GEMM: A, B, C of gemm_nn each (also mma.sync's fragments)
  __nv_bfloat16* bf = nullptr;  // BF16 GEMM: A, B, C; the FP8 GEMM's D is the third
  __nv_fp8_e4m3* f8 = nullptr;  // FP8 GEMM: A, B
  cublasHandle_t blas = nullptr;
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t fp8_op = nullptr;
  cublasLtMatrixLayout_t fp8_a = nullptr, fp8_b = nullptr, fp8_d = nullptr;
  cublasLtMatmulHeuristicResult_t fp8_algo{};
  void* workspace = nullptr;
  static constexpr std::size_t workspace_bytes = std::size_t(32) << 20;
  std::string fp8_unavailable;  // why the FP8 case cannot run here (empty: it can)
  cudaStream_t graph_stream = nullptr, s1 = nullptr, s2 = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t graph_exec = nullptr;
  unsigned sms = 0;

  void init() {
    int n = 0;
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
    sms = static_cast<unsigned>(n);
    NAPKIN_CUDA_CHECK(cudaMalloc(&a, 2 * big_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&b, big_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&c, big_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&u, big_n * sizeof(unsigned)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&bins, 256 * sizeof(unsigned)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&acc, 256 * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&small, std::size_t(4) << 20));
    NAPKIN_CUDA_CHECK(cudaMalloc(&h, 3 * gemm_nn * sizeof(__half)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&bf, 3 * gemm_nn * sizeof(__nv_bfloat16)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&f8, 2 * gemm_nn * sizeof(__nv_fp8_e4m3)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&workspace, workspace_bytes));
    const unsigned grid = sms * 8;
    zoo_setup_pattern<<<grid, 256>>>(a, 2 * big_n);
    zoo_setup_pattern<<<grid, 256>>>(b, big_n);
    zoo_setup_pattern<<<grid, 256>>>(c, big_n);
    zoo_setup_chain<<<grid, 256>>>(u, big_n);
    zoo_setup_value<__half><<<grid, 256>>>(h, 3 * gemm_nn, 0.01f);
    zoo_setup_value<__nv_bfloat16><<<grid, 256>>>(bf, 3 * gemm_nn, 0.01f);
    zoo_setup_value<__nv_fp8_e4m3><<<grid, 256>>>(f8, 2 * gemm_nn, 0.5f);
    check_launch();
    NAPKIN_CUDA_CHECK(cudaMemset(small, 0, std::size_t(4) << 20));
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    NAPKIN_CUDA_CHECK(cublasCreate(&blas));
    NAPKIN_CUDA_CHECK(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
    NAPKIN_CUDA_CHECK(cublasSetWorkspace(blas, workspace, workspace_bytes));
    init_fp8();
    NAPKIN_CUDA_CHECK(cudaStreamCreate(&s1));
    NAPKIN_CUDA_CHECK(cudaStreamCreate(&s2));
    NAPKIN_CUDA_CHECK(cudaStreamCreate(&graph_stream));
    // The graph: three dependent kernels captured on their own stream (capture needs a non-default stream).
    NAPKIN_CUDA_CHECK(cudaStreamBeginCapture(graph_stream, cudaStreamCaptureModeThreadLocal));
    zoo_graph_scale<<<grid, 256, 0, graph_stream>>>(a, b, graph_n);
    zoo_graph_add<<<grid, 256, 0, graph_stream>>>(b, c, graph_n);
    zoo_graph_square<<<grid, 256, 0, graph_stream>>>(c, b + graph_n, graph_n);
    NAPKIN_CUDA_CHECK(cudaStreamEndCapture(graph_stream, &graph));
    NAPKIN_CUDA_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
  }

  // FP8 (E4M3) through cuBLASLt: "TN" only (A transposed), D in BF16, unit scales (null scale pointers).
  void init_fp8() {
    try {
      NAPKIN_CUDA_CHECK(cublasLtCreate(&lt));
      NAPKIN_CUDA_CHECK(cublasLtMatmulDescCreate(&fp8_op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
      const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
      NAPKIN_CUDA_CHECK(cublasLtMatmulDescSetAttribute(fp8_op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
      NAPKIN_CUDA_CHECK(cublasLtMatmulDescSetAttribute(fp8_op, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n));
      NAPKIN_CUDA_CHECK(cublasLtMatrixLayoutCreate(&fp8_a, CUDA_R_8F_E4M3, gemm_n, gemm_n, gemm_n));
      NAPKIN_CUDA_CHECK(cublasLtMatrixLayoutCreate(&fp8_b, CUDA_R_8F_E4M3, gemm_n, gemm_n, gemm_n));
      NAPKIN_CUDA_CHECK(cublasLtMatrixLayoutCreate(&fp8_d, CUDA_R_16BF, gemm_n, gemm_n, gemm_n));
      cublasLtMatmulPreference_t pref = nullptr;
      NAPKIN_CUDA_CHECK(cublasLtMatmulPreferenceCreate(&pref));
      const std::size_t ws = workspace_bytes;
      NAPKIN_CUDA_CHECK(
          cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
      int found = 0;
      const cublasStatus_t s =
          cublasLtMatmulAlgoGetHeuristic(lt, fp8_op, fp8_a, fp8_b, fp8_d, fp8_d, pref, 1, &fp8_algo, &found);
      cublasLtMatmulPreferenceDestroy(pref);
      NAPKIN_CUDA_CHECK(s);
      if (found == 0) fp8_unavailable = "cuBLASLt has no FP8 algorithm for this device";
    } catch (const std::exception& e) {
      fp8_unavailable = e.what();
    }
  }

  ~state() {
    if (graph_exec) cudaGraphExecDestroy(graph_exec);
    if (graph) cudaGraphDestroy(graph);
    for (cudaStream_t s : {graph_stream, s1, s2})
      if (s) cudaStreamDestroy(s);
    if (fp8_a) cublasLtMatrixLayoutDestroy(fp8_a);
    if (fp8_b) cublasLtMatrixLayoutDestroy(fp8_b);
    if (fp8_d) cublasLtMatrixLayoutDestroy(fp8_d);
    if (fp8_op) cublasLtMatmulDescDestroy(fp8_op);
    if (lt) cublasLtDestroy(lt);
    if (blas) cublasDestroy(blas);
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(c), static_cast<void*>(u),
                    static_cast<void*>(bins), static_cast<void*>(acc), static_cast<void*>(small), static_cast<void*>(h),
                    static_cast<void*>(bf), static_cast<void*>(f8), workspace})
      if (p) cudaFree(p);
  }
};

struct case_t {
  std::string name;
  std::string character;  // what it is meant to be bound by
  std::function<void()> launch;
  std::function<void()> reset;  // for work that is not idempotent (empty: none needed)
};

// x -> x a + b with a = 1 - 2^-20, b = 2^-20: bounded, never -1 from positive starts (as kernels.cuh's loop).
constexpr float fma_a = 1.0f - 9.5367431640625e-07f, fma_b = 9.5367431640625e-07f;

// One cublasGemmEx of gemm_n^3, C = A B, all three matrices of `type`, column-major, no transposes.
void gemm_ex(const state& s, const void* a, const void* b, void* c, cudaDataType type, cublasComputeType_t compute) {
  const float one = 1.0f, zero = 0.0f;
  NAPKIN_CUDA_CHECK(cublasGemmEx(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, gemm_n, gemm_n, gemm_n, &one, a, type, gemm_n, b,
                                 type, gemm_n, &zero, c, type, gemm_n, compute, CUBLAS_GEMM_DEFAULT));
}

std::vector<case_t> make_cases(state& s) {
  std::vector<case_t> v;
  // Grids are computed at launch time: `list` builds the cases without a GPU.
  v.push_back({"smem_tree_reduce",
               "LSU-pipe bound: shared-memory tree reduction, a barrier per step",
               [&s] {
                 zoo_smem_tree_reduce<<<static_cast<unsigned>(smem_n / 512), 512>>>(s.a, smem_rounds, s.b);
                 check_launch();
               },
               {}});
  v.push_back({"smem_stencil",
               "LSU-pipe bound: 3-point stencil ping-ponged in shared memory, a barrier per sweep",
               [&s] {
                 zoo_smem_stencil<<<static_cast<unsigned>(smem_n / 256), 256>>>(s.a, stencil_sweeps, s.b);
                 check_launch();
               },
               {}});
  v.push_back({"transpose_naive",
               "DRAM/L2 bound with uncoalesced stores: naive 8192^2 float transpose",
               [&s] {
                 zoo_transpose_naive<<<dim3(transpose_n / 32, transpose_n / 32), dim3(32, 8)>>>(s.a, s.b, transpose_n);
                 check_launch();
               },
               {}});
  v.push_back({"transpose_tiled",
               "DRAM bound: 8192^2 float transpose through a padded 32x33 shared tile",
               [&s] {
                 zoo_transpose_tiled<<<dim3(transpose_n / 32, transpose_n / 32), dim3(32, 8)>>>(s.a, s.b, transpose_n);
                 check_launch();
               },
               {}});
  v.push_back({"atomic_histogram", "L2 atomic-unit bound: contended global atomicAdd into 8 bins",
               [&s] {
                 zoo_atomic_histogram<<<s.sms * 8, 256>>>(s.u, histogram_n, s.bins);
                 check_launch();
               },
               [&s] { NAPKIN_CUDA_CHECK(cudaMemsetAsync(s.bins, 0, 256 * sizeof(unsigned))); }});
  v.push_back({"fp64_fma",
               "FP64 pipe bound: 8 independent DFMA chains per thread",
               [&s] {
                 zoo_fp64_fma<<<s.sms * 8, 256>>>(fma_iterations, fma_a, fma_b, -1.0,
                                                  reinterpret_cast<double*>(s.small));
                 check_launch();
               },
               {}});
  v.push_back({"fp32_fma",
               "FMA pipe bound: 8 independent FFMA chains per thread",
               [&s] {
                 zoo_fp32_fma<<<s.sms * 8, 256>>>(fma_iterations, fma_a, fma_b, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"fp16_hfma2",
               "FMA pipe bound (FP16): 8 independent HFMA2 (half2) chains per thread",
               [&s] {
                 zoo_fp16_hfma2<<<s.sms * 8, 256>>>(fma_iterations, 0.5f, 0.5f, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"sfu",
               "XU (SFU) pipe bound: __sinf, __expf and rsqrtf chains",
               [&s] {
                 zoo_sfu<<<s.sms * 8, 256>>>(sfu_iterations, -100.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"int_hash",
               "ALU/integer bound: IMAD, shift, rotate and LOP3 hash chains",
               [&s] {
                 zoo_int_hash<<<s.sms * 8, 256>>>(int_iterations, 0x12345u, reinterpret_cast<unsigned*>(s.small));
                 check_launch();
               },
               {}});
  v.push_back({"gemm_fp16",
               "Tensor-core bound: cublasGemmEx 4096^3, FP16 in/out, FP32 accumulate",
               [&s] { gemm_ex(s, s.h, s.h + gemm_nn, s.h + 2 * gemm_nn, CUDA_R_16F, CUBLAS_COMPUTE_32F); },
               {}});
  v.push_back({"gemm_bf16",
               "Tensor-core bound: cublasGemmEx 4096^3, BF16 in/out, FP32 accumulate",
               [&s] { gemm_ex(s, s.bf, s.bf + gemm_nn, s.bf + 2 * gemm_nn, CUDA_R_16BF, CUBLAS_COMPUTE_32F); },
               {}});
  v.push_back({"gemm_tf32",
               "Tensor-core bound: cublasGemmEx 4096^3, FP32 in/out, CUBLAS_COMPUTE_32F_FAST_TF32",
               [&s] { gemm_ex(s, s.a, s.a + gemm_nn, s.b, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32); },
               {}});
  v.push_back({"gemm_fp8",
               "Tensor-core bound: cublasLtMatmul 4096^3, FP8 E4M3 in (TN), BF16 out",
               [&s] {
                 if (!s.fp8_unavailable.empty()) throw std::runtime_error("FP8 GEMM unavailable: " + s.fp8_unavailable);
                 const float one = 1.0f, zero = 0.0f;
                 __nv_bfloat16* d = s.bf + 2 * gemm_nn;
                 NAPKIN_CUDA_CHECK(cublasLtMatmul(s.lt, s.fp8_op, &one, s.f8, s.fp8_a, s.f8 + gemm_nn, s.fp8_b, &zero,
                                                  d, s.fp8_d, d, s.fp8_d, &s.fp8_algo.algo, s.workspace,
                                                  state::workspace_bytes, nullptr));
               },
               {}});
  v.push_back({"mma_sync",
               "Tensor-core bound, by hand: mma.sync m16n8k16 FP16->FP32 on register fragments",
               [&s] {
                 zoo_mma_sync_f16<<<s.sms * 8, 256>>>(reinterpret_cast<const unsigned*>(s.h), mma_iterations, -1.0f,
                                                      s.small);
                 check_launch();
               },
               {}});
  v.push_back({"l1_reread",
               "L1 bound: each block re-reads its own 16 KB tile (L1 hits)",
               [&s] {
                 zoo_l1_reread<<<s.sms * 4, 256>>>(reinterpret_cast<const float4*>(s.a), l1_repeats, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"l2_reread",
               "L2 bound: 32 sweeps over a 16 MiB buffer through L2 (__ldcg)",
               [&s] {
                 zoo_l2_reread<<<s.sms * 8, 256>>>(reinterpret_cast<const float4*>(s.a), l2_n / 4, l2_repeats, -1.0f,
                                                   s.small);
                 check_launch();
               },
               {}});
  v.push_back({"local_spill",
               "Local-memory bound: dynamically indexed 64-float per-thread array",
               [&s] {
                 zoo_local_spill<<<s.sms * 8, 256>>>(s.u, spill_iterations, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"divergent",
               "Divergence (latency/issue) bound: an 8-way per-lane switch, different math per path",
               [&s] {
                 zoo_divergent<<<s.sms * 8, 256>>>(divergent_iterations, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"uncoalesced_load",
               "L1/L2 sector bound: loads 16 floats apart, a sector per lane",
               [&s] {
                 zoo_strided_load<<<s.sms * 8, 256>>>(s.a, 2 * big_n, strided_stride, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"scattered_store",
               "L2/DRAM bound by partial writes: coalesced reads, stores scattered by a hash",
               [&s] {
                 zoo_scatter_store<<<s.sms * 8, 256>>>(s.a, scatter_n, s.b);
                 check_launch();
               },
               {}});
  v.push_back({"pointer_chase",
               "Latency bound: one warp chasing dependent loads through 256 MiB",
               [&s] {
                 zoo_pointer_chase<<<1, 32>>>(s.u, big_n, chase_steps, reinterpret_cast<unsigned*>(s.small));
                 check_launch();
               },
               {}});
  v.push_back({"bank_conflict",
               "Shared-memory bank conflicts: 32-way (every lane in one bank)",
               [&s] {
                 zoo_bank_conflict32<<<s.sms * 4, 256>>>(conflict_iterations, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"grid_reduce", "DRAM bound: grid-stride float4 sum of 256 MiB, one atomic per block",
               [&s] {
                 zoo_grid_reduce<<<s.sms * 8, 256>>>(reinterpret_cast<const float4*>(s.a), big_n / 4, s.acc);
                 check_launch();
               },
               [&s] { NAPKIN_CUDA_CHECK(cudaMemsetAsync(s.acc, 0, sizeof(float))); }});
  v.push_back({"stream_copy",
               "DRAM bound: float4 copy of 256 MiB",
               [&s] {
                 zoo_stream_copy<<<s.sms * 8, 256>>>(reinterpret_cast<const float4*>(s.a),
                                                     reinterpret_cast<float4*>(s.b), big_n / 4);
                 check_launch();
               },
               {}});
  v.push_back({"write_only",
               "DRAM write bound: float4 stores to 256 MiB, no loads",
               [&s] {
                 zoo_write_only<<<s.sms * 8, 256>>>(reinterpret_cast<float4*>(s.b), big_n / 4);
                 check_launch();
               },
               {}});
  v.push_back({"shuffle",
               "Warp-shuffle bound: butterfly all-reduces (SHFL.BFLY)",
               [&s] {
                 zoo_shuffle_butterfly<<<s.sms * 8, 256>>>(shuffle_iterations, -100.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"short_copy",
               "Short (5-20 us): float4 copy of 16 MiB, launch and ramp weigh in",
               [&s] {
                 zoo_short_copy<<<s.sms * 4, 256>>>(reinterpret_cast<const float4*>(s.a),
                                                    reinterpret_cast<float4*>(s.b), short_n / 4);
                 check_launch();
               },
               {}});
  v.push_back({"long_fma",
               "Long (> 50 ms): FFMA chains, 2^20 iterations",
               [&s] {
                 zoo_long_fma<<<s.sms * 8, 256>>>(long_fma_iterations, fma_a, fma_b, -1.0f, s.small);
                 check_launch();
               },
               {}});
  v.push_back({"memset",
               "Not a kernel: cudaMemsetAsync of 256 MiB (copy engine / driver; ncu's -k cannot see it)",
               [&s] { NAPKIN_CUDA_CHECK(cudaMemsetAsync(s.b, 0, big_n * sizeof(float))); },
               {}});
  v.push_back({"memcpy_d2d",
               "Not a kernel: cudaMemcpyAsync device to device, 256 MiB",
               [&s] { NAPKIN_CUDA_CHECK(cudaMemcpyAsync(s.b, s.a, big_n * sizeof(float), cudaMemcpyDeviceToDevice)); },
               {}});
  v.push_back({"cublas_multi",
               "Several library kernels: split-K-shaped cublasSgemm (128x128x262144) + cublasSgeam",
               [&s] {
                 const float one = 1.0f, zero = 0.0f;
                 const float* A = s.a;                                     // m x k
                 const float* B = s.a + std::size_t(splitk_m) * splitk_k;  // k x n
                 NAPKIN_CUDA_CHECK(cublasSgemm(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, splitk_m, splitk_m, splitk_k, &one, A,
                                               splitk_m, B, splitk_k, &zero, s.small, splitk_m));
                 NAPKIN_CUDA_CHECK(cublasSgeam(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, gemm_n, gemm_n, &one, s.b, gemm_n,
                                               &one, s.b + gemm_nn, gemm_n, s.c, gemm_n));
               },
               {}});
  v.push_back({"graph3",
               "A CUDA graph of 3 kernels (scale, add, square; DRAM bound); per_kernel() refuses graphs",
               [&s] { NAPKIN_CUDA_CHECK(cudaGraphLaunch(s.graph_exec, s.graph_stream)); },
               {}});
  v.push_back({"two_streams",
               "Concurrency: an FMA loop and a DRAM copy on two streams at once",
               [&s] {
                 zoo_concurrent_fma<<<s.sms, 256, 0, s.s1>>>(fma_iterations * 4, fma_a, fma_b, -1.0f, s.small);
                 check_launch();
                 zoo_concurrent_copy<<<s.sms, 256, 0, s.s2>>>(reinterpret_cast<const float4*>(s.a),
                                                              reinterpret_cast<float4*>(s.c), big_n / 8);
                 check_launch();
               },
               {}});
  return v;
}

void device_sync() { NAPKIN_CUDA_CHECK(cudaDeviceSynchronize()); }

double best_us(const case_t& c) {
  cudaEvent_t start, stop;
  NAPKIN_CUDA_CHECK(cudaEventCreate(&start));
  NAPKIN_CUDA_CHECK(cudaEventCreate(&stop));
  float best = FLT_MAX;
  for (int i = 0; i < 5; ++i) {
    if (c.reset) c.reset();
    device_sync();
    NAPKIN_CUDA_CHECK(cudaEventRecord(start));
    c.launch();
    NAPKIN_CUDA_CHECK(cudaEventRecord(stop));  // the legacy stream waits for s1, s2 and the graph's stream
    NAPKIN_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    NAPKIN_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = std::min(best, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best * 1e3;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

void print_kernels(const napkin::kernel_reports& per, const char* mode, const std::string& name) {
  for (const auto& k : per.kernels)
    std::cout << napkin::to_key_values(k) << " mode=" << mode << " case=" << name << "\n";
  std::cout << "ZOO_KERNELS case=" << name << " mode=" << mode << " kernels=" << per.kernels.size()
            << " dropped=" << per.dropped << std::endl;
}

// A kernel's name as one token of a key=value line.
std::string token(std::string s) {
  for (char& c : s)
    if (c == ' ' || c == '=' || c == '\t') c = '_';
  return s;
}

// `zoo why`: the sections beyond SOL per kernel, in application replay (fn re-run per pass, L2 cleaned) or in
// CUPTI's kernel replay (fn once; per_kernel's default).
// The case in napkin's application replay (its reset before every pass, where it has one).
napkin::kernel_reports application_replay(napkin::profiler& prof, const case_t& c) {
  return c.reset ? prof.per_kernel(c.launch, napkin::replay::application, c.reset)
                 : prof.per_kernel(c.launch, napkin::replay::application);
}

napkin::kernel_reports replayed(napkin::profiler& prof, const case_t& c, napkin::replay how) {
  if (how == napkin::replay::application) return application_replay(prof, c);
  if (c.reset) c.reset();
  return prof.per_kernel(c.launch);
}

int why_mode(const std::vector<case_t>& cases, const std::vector<std::size_t>& chosen, napkin::replay how) {
  napkin::profiler prof(napkin::metric_sets::why());
  std::printf("NAPKIN_SETUP chip=%s set=why passes=%zu replay=%s\n", prof.chip().c_str(), prof.passes(),
              std::string(napkin::to_string(how)).c_str());
  // The case list, so that why_table.py can name ncu's cases by their marker (grid size = index + 1).
  for (std::size_t i = 0; i < cases.size(); ++i)
    std::printf("ZOO_CASE index=%zu name=%s\n", i, cases[i].name.c_str());
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i : chosen) {
    const case_t& c = cases[i];
    try {
      const auto t0 = std::chrono::steady_clock::now();
      const napkin::kernel_reports per = replayed(prof, c, how);
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (c.reset) c.reset();
      std::size_t index = 0;
      for (const auto& k : per.kernels) {
        std::string line = "NAPKIN_WHY case=" + c.name + " index=" + std::to_string(index++) +
                           " kernel=" + token(k.name) + " passes=" + std::to_string(k.passes);
        if (const auto w = napkin::warp_state(k); w && w->leader())
          line += " leader=" + std::string(napkin::to_string(w->leader()->reason)) +
                  " clear_leader=" + (w->clear_leader() ? "1" : "0");
        if (const auto p = napkin::pipes(k); p && p->busiest()) line += " busiest=" + std::string(p->busiest()->name);
        for (const auto& [metric, value] : k.values) {
          char number[32];
          std::snprintf(number, sizeof number, "%.10g", value);
          line += " " + metric + "=" + number;
        }
        std::cout << line << "\n";
      }
      std::printf("ZOO_COST case=%s mode=why wall_s=%.4f kernels=%zu dropped=%zu\n", c.name.c_str(), wall_s,
                  per.kernels.size(), per.dropped);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::cout << "ZOO_ERROR case=" << c.name << " mode=why what=" << one_line(e.what()) << std::endl;
    }
  }
  std::printf("ZOO_COST case=all mode=why wall_s=%.3f\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}

// monitor: napkin::monitor's per-kernel rows on the zoo (benchmarks/zoo/monitor_table.py compares them with ncu's
// SpeedOfLight on `zoo plain`). Each case runs back to back for about 50 ms in a napkin::range of its name,
// 30 ms apart, under 1 ms windows sampled all the time, so that every kernel has windows of its own; the report's
// rows are printed as key=value lines.
int monitor_mode(const std::vector<case_t>& cases, const std::vector<std::size_t>& chosen) {
  for (std::size_t i : chosen) {  // warm-up: modules, cuBLAS's heuristics
    try {
      if (cases[i].reset) cases[i].reset();
      cases[i].launch();
      device_sync();
    } catch (const std::exception& e) {
      std::printf("ZOO_ERROR case=%s mode=monitor what=%s\n", cases[i].name.c_str(), one_line(e.what()).c_str());
    }
  }
  napkin::monitor_settings with;
  with.enabled = true;
  with.interval_ns = 1000000;
  with.sample_for_ns = with.sample_every_ns = 0;
  with.system = false;
  napkin::monitor mon(with);
  std::fprintf(stderr, "monitor: %s\n", mon.status().c_str());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // past the session's setup sample
  for (std::size_t i : chosen) {
    const case_t& c = cases[i];
    try {
      napkin::range r{c.name};  // every launch of the case in it: a kernel is one class, (name, case)
      const auto t0 = std::chrono::steady_clock::now();
      if (c.reset) c.reset();
      c.launch();
      device_sync();
      const double one_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const int n = static_cast<int>(std::clamp(0.05 / std::max(one_s, 1e-6), 1.0, 5000.0));
      {
        for (int j = 0; j < n; ++j) {
          if (c.reset) c.reset();
          c.launch();
        }
        device_sync();
      }
      std::printf("ZOO_MONITOR case=%s launches=%d\n", c.name.c_str(), n);
    } catch (const std::exception& e) {
      std::printf("ZOO_ERROR case=%s mode=monitor what=%s\n", c.name.c_str(), one_line(e.what()).c_str());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  mon.stop();
  std::cout << napkin::to_key_values(mon.report()) << "\n";
  std::printf("MONITOR_DIAGNOSTICS %s\n", mon.diagnostics().c_str());
  return mon.status().rfind("sampling", 0) == 0 ? 0 : 1;
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s list | time [--only NAME] | plain [--only NAME] [--repeat R] [--no-profiler-api] | "
               "napkin [--only NAME] [--set sol|sol_fast|elapsed] | "
               "why [--only NAME] [--replay application|kernel] | monitor [--only NAME]\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "";
  std::string only, set_name = "sol_fast", replay_name = "application";
  int repeat = 1;
  bool profiler_api = true;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--no-profiler-api") == 0)
      profiler_api = false;
    else if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc)
      set_name = argv[++i];
    else if (std::strcmp(argv[i], "--replay") == 0 && i + 1 < argc)
      replay_name = argv[++i];
    else
      return usage(argv[0]);
  }
  if (mode != "list" && mode != "time" && mode != "plain" && mode != "napkin" && mode != "why" && mode != "monitor")
    return usage(argv[0]);
  if (set_name != "sol" && set_name != "sol_fast" && set_name != "elapsed") return usage(argv[0]);
  if (replay_name != "application" && replay_name != "kernel") return usage(argv[0]);
  const napkin::replay how = replay_name == "kernel" ? napkin::replay::kernel : napkin::replay::application;
  state s;
  const std::vector<case_t> cases = make_cases(s);
  if (mode == "list") {
    for (const auto& c : cases) std::printf("%s\t%s\n", c.name.c_str(), c.character.c_str());
    return 0;
  }
  std::vector<std::size_t> chosen;  // indices into `cases` (the marker's grid is the index + 1)
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (only.empty() || cases[i].name == only) chosen.push_back(i);
  if (chosen.empty()) {
    std::fprintf(stderr, "zoo: no case named %s (zoo list)\n", only.c_str());
    return 2;
  }
  s.init();
  // A case that cannot run here is left out of every mode rather than left to throw inside a measurement.
  if (!s.fp8_unavailable.empty()) {
    std::printf("ZOO_ERROR case=gemm_fp8 mode=all what=FP8 GEMM unavailable: %s\n",
                one_line(s.fp8_unavailable).c_str());
    chosen.erase(
        std::remove_if(chosen.begin(), chosen.end(), [&cases](std::size_t i) { return cases[i].name == "gemm_fp8"; }),
        chosen.end());
  }

  if (mode == "time") {
    for (std::size_t i : chosen) {
      const case_t& c = cases[i];
      try {
        std::printf("ZOO_TIME case=%s us=%.2f\n", c.name.c_str(), best_us(c));
      } catch (const std::exception& e) {
        std::printf("ZOO_ERROR case=%s mode=time what=%s\n", c.name.c_str(), one_line(e.what()).c_str());
      }
      std::fflush(stdout);
    }
    return 0;
  }

  if (mode == "plain") {
    // Warm-up outside any range and before profiling starts (ncu --profile-from-start off skips it):
    // cuBLAS loads its modules and picks its kernels here.
    for (std::size_t i : chosen) {
      try {
        if (cases[i].reset) cases[i].reset();
        cases[i].launch();
        device_sync();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ZOO_ERROR case=%s mode=plain what=%s\n", cases[i].name.c_str(),
                     one_line(e.what()).c_str());
      }
    }
    // Without a profiler attached these are no-ops; their status is not this program's concern.
    if (profiler_api) {
      (void)cudaProfilerStart();
      (void)cudaGetLastError();  // nor may a failure here land on the next launch check
    }
    for (int rep = 0; rep < repeat; ++rep)
      for (std::size_t i : chosen) {
        const case_t& c = cases[i];
        try {
          if (c.reset) c.reset();
          zoo_case_marker<<<static_cast<unsigned>(i + 1), 32>>>();
          check_launch();
          device_sync();
          std::fprintf(stderr, "ZOO_CASE index=%zu name=%s\n", i, c.name.c_str());
          napkin::range r{c.name};  // for ncu's range replay: --nvtx --nvtx-include "napkin@<name>/"
          c.launch();
          device_sync();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "ZOO_ERROR case=%s mode=plain what=%s\n", c.name.c_str(), one_line(e.what()).c_str());
        }
      }
    if (profiler_api) (void)cudaProfilerStop();
    return 0;
  }

  if (mode == "why") return why_mode(cases, chosen, how);
  if (mode == "monitor") return monitor_mode(cases, chosen);

  // napkin: one profiler for everything; measure() for every case, then per_kernel() for every case, then
  // the application replay: CUPTI's range profiler stays enabled within one mode (switching costs a re-enable).
  napkin::metric_set set = set_name == "sol" ? napkin::metric_sets::sol() : napkin::metric_sets::sol_fast();
  if (set_name == "elapsed")  // the fast set and each unit's elapsed cycles: what a user range's span holds
    for (const char* m : {"sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second", "sm__cycles_elapsed.max",
                          "smsp__cycles_elapsed.avg", "lts__cycles_elapsed.avg", "lts__cycles_elapsed.avg.per_second"})
      set.metrics.emplace_back(m);
  napkin::profiler prof(set);
  std::printf("NAPKIN_SETUP chip=%s set=%s passes=%zu\n", prof.chip().c_str(), set_name.c_str(), prof.passes());
  auto report_error = [](const std::string& name, const char* m, const std::exception& e) {
    std::cout << "ZOO_ERROR case=" << name << " mode=" << m << " what=" << one_line(e.what()) << std::endl;
  };
  for (std::size_t i : chosen) {
    const case_t& c = cases[i];
    try {
      const auto t0 = std::chrono::steady_clock::now();
      const napkin::sol_report r = c.reset ? prof.measure(c.name, c.launch, c.reset) : prof.measure(c.name, c.launch);
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::cout << napkin::to_key_values(r) << " mode=measure case=" << c.name << std::endl;
      std::printf("ZOO_COST case=%s mode=measure wall_s=%.4f passes=%zu\n", c.name.c_str(), wall_s, r.passes);
    } catch (const std::exception& e) {
      report_error(c.name, "measure", e);
    }
  }
  for (std::size_t i : chosen) {
    const case_t& c = cases[i];
    try {
      const napkin::kernel_reports per = prof.per_kernel(c.launch);
      if (c.reset) c.reset();
      print_kernels(per, "per_kernel", c.name);
    } catch (const std::exception& e) {
      report_error(c.name, "per_kernel", e);
    }
  }
  for (std::size_t i : chosen) {
    const case_t& c = cases[i];
    try {
      const auto t0 = std::chrono::steady_clock::now();
      const napkin::kernel_reports per = application_replay(prof, c);
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("ZOO_COST case=%s mode=application wall_s=%.4f kernels=%zu\n", c.name.c_str(), wall_s,
                  per.kernels.size());
      if (c.reset) c.reset();
      print_kernels(per, "application", c.name);
    } catch (const std::exception& e) {
      report_error(c.name, "application", e);
    }
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "zoo: %s\n", e.what());
  return 1;
}
