// Small reference kernels with known napkin math, and their launchers: a copy, a reduction, a naive
// (three-pass) and an online (two-pass) softmax, a shared-memory-tree softmax (naive and with the row in
// registers), a strided read and an FMA-bound loop. The roofline validation (roofline_validation.cu) times them against napkin's lower
// bounds; the profiler's accuracy program (examples/profiler) measures them against ncu. cuBLAS GEMMs are
// in gemm_cublas.cuh.
//
// All launchers take a stream and return the launch status (cudaGetLastError after the launch); none
// synchronizes. Buffers come from cudaMalloc (256-byte aligned, so float4 access is legal).
//
// Safe to include from several translation units: the kernels and their launchers are `static` (each unit
// has its own copy, as an inline function would), so no definition is duplicated at link time. `static`
// rather than an anonymous namespace keeps each kernel's symbol, which the profiler reports and ncu's
// -k filters match (napkin_kernels::copy_kernel). The templates are inline by nature.
#pragma once

#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace napkin_kernels {

inline unsigned blocks_for(std::size_t work_items, unsigned threads, unsigned max_blocks = 65535u * 8u) {
  const std::size_t b = (work_items + threads - 1) / threads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > max_blocks ? max_blocks : b));
}

// ---- fill -------------------------------------------------------------------------------------------
static __global__ void fill_kernel(float* __restrict__ p, std::size_t n, float value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = value;
}

// p[i] = a small deterministic pattern in [-2, 2), for softmax inputs.
static __global__ void fill_pattern_kernel(float* __restrict__ p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = static_cast<float>(static_cast<int>(i % 1021u)) * (4.0f / 1021.0f) - 2.0f;
}

static inline cudaError_t fill(float* p, std::size_t n, float value, cudaStream_t s = nullptr) {
  fill_kernel<<<blocks_for(n, 256), 256, 0, s>>>(p, n, value);
  return cudaGetLastError();
}

static inline cudaError_t fill_pattern(float* p, std::size_t n, cudaStream_t s = nullptr) {
  fill_pattern_kernel<<<blocks_for(n, 256), 256, 0, s>>>(p, n);
  return cudaGetLastError();
}

// ---- copy: out[i] = in[i]; napkin: elementwise(n, 1 input, 1 output, 0 ops) -------------------------
static __global__ void copy_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t n4 = n / 4;
  const auto* in4 = reinterpret_cast<const float4*>(in);
  auto* out4 = reinterpret_cast<float4*>(out);
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  for (std::size_t i = first; i < n4; i += stride) out4[i] = in4[i];
  for (std::size_t i = 4 * n4 + first; i < n; i += stride) out[i] = in[i];  // the tail
}

static inline cudaError_t copy(const float* in, float* out, std::size_t n, cudaStream_t s = nullptr) {
  copy_kernel<<<blocks_for(n / 4 + 1, 256), 256, 0, s>>>(in, out, n);
  return cudaGetLastError();
}

// ---- reduction: *out = sum(in); napkin: reduction(n) ----------------------------------------------------
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Each block sums a grid-stride slice with float4 loads, reduces through shared memory, and adds its
// partial to *out with one atomic. *out must be zero before the launch (the launcher clears it).
static __global__ void sum_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  __shared__ float partial[32];
  const std::size_t n4 = n / 4;
  const auto* in4 = reinterpret_cast<const float4*>(in);
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = first; i < n4; i += stride) {
    const float4 v = in4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  for (std::size_t i = 4 * n4 + first; i < n; i += stride) acc += in[i];
  acc = warp_sum(acc);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    float v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

// `blocks`: enough to fill the GPU (e.g. SMs x 8 for 256 threads); more only adds atomics.
static inline cudaError_t sum(const float* in, std::size_t n, float* out, unsigned blocks, cudaStream_t s = nullptr) {
  const cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), s);
  if (e != cudaSuccess) return e;
  sum_kernel<<<blocks, 256, 0, s>>>(in, n, out);
  return cudaGetLastError();
}

// ---- softmax over rows: one block per row ---------------------------------------------------------------
// Block-wide reductions for blockDim.x a multiple of 32, at most 1024.
__device__ inline float block_max(float v, float* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? scratch[threadIdx.x] : -FLT_MAX;
    for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
    if (threadIdx.x == 0) scratch[0] = v;
  }
  __syncthreads();
  v = scratch[0];
  __syncthreads();  // scratch is reused by the next reduction
  return v;
}

__device__ inline float block_sum(float v, float* scratch) {
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? scratch[threadIdx.x] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0) scratch[0] = v;
  }
  __syncthreads();
  v = scratch[0];
  __syncthreads();
  return v;
}

// Naive "safe" softmax: three passes over the row in global memory (max; sum of exp; normalize and
// write). napkin: softmax(rows, cols, fp32, softmax_algorithm::three_pass) bytes when the row is not in L2.
static __global__ void softmax_three_pass_kernel(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ float scratch[32];
  const float* row = in + static_cast<std::size_t>(blockIdx.x) * cols;
  float* out_row = out + static_cast<std::size_t>(blockIdx.x) * cols;
  float m = -FLT_MAX;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, row[i]);
  m = block_max(m, scratch);
  float d = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) d += __expf(row[i] - m);
  d = block_sum(d, scratch);
  const float inv = 1.0f / d;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) out_row[i] = __expf(row[i] - m) * inv;
}

// Online softmax (Milakov & Gimelshein 2018): one pass computes the max and the rescaled sum together,
// a second pass normalizes. napkin: softmax_algorithm::online; when the second read hits L2, DRAM sees
// the fused minimum (one read, one write).
static __global__ void softmax_online_kernel(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ float scratch[32];
  const float* row = in + static_cast<std::size_t>(blockIdx.x) * cols;
  float* out_row = out + static_cast<std::size_t>(blockIdx.x) * cols;
  float m = -FLT_MAX, d = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float x = row[i];
    const float m_new = fmaxf(m, x);
    d = d * __expf(m - m_new) + __expf(x - m_new);
    m = m_new;
  }
  const float row_max = block_max(m, scratch);
  d = block_sum(d * __expf(m - row_max), scratch);  // rescale each thread's sum to the row max
  const float inv = 1.0f / d;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) out_row[i] = __expf(row[i] - row_max) * inv;
}

static inline cudaError_t softmax_three_pass(const float* in, float* out, int rows, int cols, cudaStream_t s = nullptr) {
  softmax_three_pass_kernel<<<rows, 1024, 0, s>>>(in, out, cols);
  return cudaGetLastError();
}

static inline cudaError_t softmax_online(const float* in, float* out, int rows, int cols, cudaStream_t s = nullptr) {
  softmax_online_kernel<<<rows, 1024, 0, s>>>(in, out, cols);
  return cudaGetLastError();
}

// ---- the shared-memory-tree softmax pair ---------------------------------------------------------------
// A textbook pair for profiling: a naive softmax that re-reads its row from global memory, and the same
// algorithm with the row kept in registers (one read, one write). The profiler's accuracy table
// (docs/profiler.md) measures exactly these, so they stay as they are.
//
// Their block reduction: a shared-memory tree over one value per thread (blockDim.x a power of two,
// blockDim.x floats of shmem). Every thread gets the result; shmem is free again on return.
struct max_of {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct sum_of {
  __device__ float operator()(float a, float b) const { return a + b; }
};
template <class Op>
__device__ inline float shared_tree_reduce(float v, float* shmem, Op op) {
  const int tid = threadIdx.x;
  shmem[tid] = v;
  __syncthreads();
  for (int off = blockDim.x >> 1; off; off >>= 1) {
    if (tid < off) shmem[tid] = op(shmem[tid], shmem[tid + off]);
    __syncthreads();
  }
  const float r = shmem[0];
  __syncthreads();
  return r;
}

// Naive: 256 threads per row, shared-memory tree reductions, three passes over the row in global memory
// (max; exp and sum, writing exp; normalize in place). Needs blockDim.x floats of dynamic shared memory.
static __global__ void softmax_smem_naive_kernel(const float* __restrict__ in, float* __restrict__ out, int cols) {
  extern __shared__ float shmem[];
  const int row = blockIdx.x, tid = threadIdx.x, stride = blockDim.x;
  const std::size_t base = std::size_t(row) * cols;
  float local_max = -FLT_MAX;
  for (int c = tid; c < cols; c += stride) local_max = fmaxf(local_max, in[base + c]);
  const float row_max = shared_tree_reduce(local_max, shmem, max_of{});
  float local_sum = 0.0f;
  for (int c = tid; c < cols; c += stride) {
    const float e = expf(in[base + c] - row_max);
    out[base + c] = e;
    local_sum += e;
  }
  const float row_sum = shared_tree_reduce(local_sum, shmem, sum_of{});
  for (int c = tid; c < cols; c += stride) out[base + c] /= row_sum;
}

// Optimized: 1024 threads per row, each keeps ITEMS elements of the row in registers (cols == 1024 x ITEMS),
// so the row is read once and written once. Needs 1024 floats of dynamic shared memory.
template <int ITEMS>
__global__ void softmax_smem_registers_kernel(const float* __restrict__ in, float* __restrict__ out, int cols) {
  extern __shared__ float shmem[];
  const int row = blockIdx.x, tid = threadIdx.x, stride = blockDim.x;
  const std::size_t base = std::size_t(row) * cols;
  float x[ITEMS];
  float local_max = -FLT_MAX;
  for (int i = 0; i < ITEMS; ++i) {
    x[i] = in[base + tid + i * stride];
    local_max = fmaxf(local_max, x[i]);
  }
  const float row_max = shared_tree_reduce(local_max, shmem, max_of{});
  float local_sum = 0.0f;
  for (int i = 0; i < ITEMS; ++i) {
    x[i] = expf(x[i] - row_max);
    local_sum += x[i];
  }
  const float row_sum = shared_tree_reduce(local_sum, shmem, sum_of{});
  for (int i = 0; i < ITEMS; ++i) out[base + tid + i * stride] = x[i] / row_sum;
}

static inline cudaError_t softmax_smem_naive(const float* in, float* out, int rows, int cols, cudaStream_t s = nullptr) {
  softmax_smem_naive_kernel<<<rows, 256, 256 * sizeof(float), s>>>(in, out, cols);
  return cudaGetLastError();
}

// cols is 1024 x ITEMS.
template <int ITEMS>
cudaError_t softmax_smem_registers(const float* in, float* out, int rows, cudaStream_t s = nullptr) {
  softmax_smem_registers_kernel<ITEMS><<<rows, 1024, 1024 * sizeof(float), s>>>(in, out, 1024 * ITEMS);
  return cudaGetLastError();
}

// ---- strided read: out[t] = sum of in[(t + k·threads)·stride] ------------------------------------------
// Each warp load touches 32 different sectors once stride·4 B >= 32 B: 8x the sectors of a coalesced read
// at stride 8 (Sectors/Req 32 instead of 4). napkin's minimum bytes count only the floats used.
static __global__ void strided_read_kernel(const float* __restrict__ in, std::size_t n, int stride, float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = t * stride; i < n; i += threads * stride) acc += in[i];
  out[t] = acc;
}

static inline cudaError_t strided_read(const float* in, std::size_t n, int stride, float* out, unsigned blocks,
                                cudaStream_t s = nullptr) {
  strided_read_kernel<<<blocks, 256, 0, s>>>(in, n, stride, out);
  return cudaGetLastError();
}

// ---- FMA-bound loop: 8 independent FMA chains per thread, `iterations` times --------------------------
// FLOPs = threads x iterations x 8 chains x 2. Bytes: one float written per thread. The result is stored
// only when it equals `never` (a value it cannot take), so the compiler keeps the math but the store
// costs nothing.
// `iterations` steps of 8 independent FMA chains, so that the pipe, not the dependency latency, is the limit; their
// sum. Also the body of the kernel zoo's and the monitor workload's FMA kernels (see "Bodies" below).
template <class T>
__device__ inline T fma_chains_sum(int iterations, T a, T b) {
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

static __global__ void fma_loop_kernel(float* __restrict__ out, int iterations, float a, float b, float never) {
  const float r = fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

inline constexpr int fma_chains = 8;

static inline cudaError_t fma_loop(float* out, unsigned blocks, unsigned threads, int iterations, cudaStream_t s = nullptr) {
  // a = 1 - 2^-20 and b = 2^-20 keep x bounded; never = -1 is unreachable from positive starts.
  fma_loop_kernel<<<blocks, threads, 0, s>>>(out, iterations, 1.0f - 9.5367431640625e-07f, 9.5367431640625e-07f,
                                             -1.0f);
  return cudaGetLastError();
}

// ---- shared-memory tree reduction with bank conflicts, repeated `rounds` times per block ----------------
// Interleaved addressing (s[2·stride·tid] += s[2·stride·tid + stride]): at stride 1 two threads of a warp
// share a bank, at stride 16 sixteen do — the classic conflicted reduction ("Optimizing Parallel Reduction
// in CUDA", M. Harris, NVIDIA). Each block loads 512 floats once and reduces them `rounds` times, so shared
// memory, not DRAM, is what the kernel is busy with. out[block] = sum over rounds of the block's sum + r·512.
static __global__ void smem_tree_reduce_kernel(const float* __restrict__ in, std::size_t n, int rounds,
                                               float* __restrict__ out) {
  __shared__ float s[512];
  const unsigned tid = threadIdx.x;
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + tid;
  const float x = i < n ? in[i] : 0.0f;
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    s[tid] = x + static_cast<float>(r);
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
      const unsigned idx = 2 * stride * tid;
      if (idx < blockDim.x) s[idx] += s[idx + stride];
      __syncthreads();
    }
    if (tid == 0) acc += s[0];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = acc;
}

// n floats in blocks of 512 (n a multiple of 512); out needs n / 512 floats.
static inline cudaError_t smem_tree_reduce(const float* in, std::size_t n, int rounds, float* out,
                                           cudaStream_t s = nullptr) {
  smem_tree_reduce_kernel<<<static_cast<unsigned>(n / 512), 512, 0, s>>>(in, n, rounds, out);
  return cudaGetLastError();
}

// ---- L2-resident read: `repeats` sweeps over a buffer that fits in L2 ------------------------------------
// Loads through L2 only (__ldcg: cache global, not L1), so after the first sweep every load hits L2: DRAM
// sees the buffer once, L2 sees it `repeats` times. The sum is stored only when it equals `never`.
static __global__ void l2_resident_read_kernel(const float4* __restrict__ in, std::size_t n4, int repeats,
                                               float never, float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i = t; i < n4; i += threads) {
      const float4 v = __ldcg(in + i);
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == never) out[t] = acc;
}

// n floats (a multiple of 4), read `repeats` times by `blocks` x 256 threads.
static inline cudaError_t l2_resident_read(const float* in, std::size_t n, int repeats, float* out, unsigned blocks,
                                           cudaStream_t s = nullptr) {
  l2_resident_read_kernel<<<blocks, 256, 0, s>>>(reinterpret_cast<const float4*>(in), n / 4, repeats, -1.0f, out);
  return cudaGetLastError();
}

// ---- Bodies of kernels that run under several names ------------------------------------------------------
// The kernel zoo (benchmarks/zoo/zoo.cu, zoo_*) and the monitor's accuracy workload
// (examples/monitor/accuracy_kernels.cuh, mw_*) run kernels of the same character under names of their own, so
// that ncu's -k regex and the monitor's rows tell them apart: each of their __global__ functions wraps one of these.

// Naive transpose of an n x n matrix by blocks of 32 x 8 threads over 32 x 32 tiles: coalesced reads, stores 32
// rows apart (a sector per lane).
__device__ inline void transpose_naive_tile(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + threadIdx.y + j;
    out[std::size_t(x) * n + y] = in[std::size_t(y) * n + x];
  }
}

// Re-reads this block's 16 KB tile (1024 float4) `repeats` times through L1; the offset moves with r so that the
// loads cannot be hoisted out of the loop. Their sum.
__device__ inline float l1_reread_tile(const float4* __restrict__ in, int repeats) {
  const float4* tile = in + blockIdx.x * 1024u;
  float acc = 0.0f;
  for (int r = 0; r < repeats; ++r)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float4 v = __ldca(tile + ((threadIdx.x + 256u * j + 32u * r) & 1023u));
      acc += (v.x + v.y) + (v.z + v.w);
    }
  return acc;
}

// Global atomics on `bins` bins, no shared-memory privatization: the L2's atomic units serialize them.
__device__ inline void histogram_atomics(const unsigned* __restrict__ in, std::size_t n, unsigned* bins,
                                         unsigned bin_count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    atomicAdd(&bins[in[i] % bin_count], 1u);
}

// MUFU work: a sine, an exponential and a reciprocal square root per step, four chains (x stays in [-1, 4]);
// their sum.
__device__ inline float sfu_chains_sum(int iterations) {
  float x[4];
  for (int c = 0; c < 4; ++c) x[c] = static_cast<float>(threadIdx.x + c) * 1e-3f;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < 4; ++c) x[c] = __sinf(x[c]) + __expf(-x[c]) * rsqrtf(x[c] * x[c] + 1.0f);
  }
  return x[0] + x[1] + x[2] + x[3];
}

// next[i] = (a i + c) mod n (n a power of two): a full-period LCG, one cycle through all n entries whose steps
// land far apart: a pointer chase's chain, and pseudo-random histogram bins.
__device__ inline void lcg_chain(unsigned* next, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    next[i] = static_cast<unsigned>((1664525u * static_cast<unsigned>(i) + 1013904223u) & (n - 1));
}

// Each lane of one warp follows its own chain through the n entries: every step waits for the previous load.
// Where the lane ended.
__device__ inline unsigned chase_chain(const unsigned* __restrict__ next, std::size_t n, int steps) {
  unsigned p = static_cast<unsigned>(threadIdx.x * (n / 32));
  for (int i = 0; i < steps; ++i) p = next[p];
  return p;
}

}  // namespace napkin_kernels
