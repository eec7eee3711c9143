// Seven kernels measured in-process by napkin's profiler: a copy, a reduction, the seed's naive and
// optimized softmax, an uncoalesced strided read, an FMA-bound loop and a cuBLAS SGEMM.
//
//   profiler_kernels napkin [--only NAME]   measure each with measure() and per_kernel(), print reports,
//                                           NAPKIN_SOL/NAPKIN_COST lines for scripts
//   profiler_kernels plain  [--only NAME]   launch each kernel once, nothing else (the target for ncu)
//
// benchmarks/device/profiler.sh runs both and builds the accuracy and cost tables of docs/profiler.md.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/gpus.hpp"
#include "napkin/profiler.hpp"
#include "napkin/profiler/workload.hpp"
#include "napkin/workloads.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// ---------------------------------------------------------------------------------------------------
// Kernels.

__global__ void fill_input(float* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = static_cast<float>(i % 1000) * 1e-3f;
}

__global__ void napkin_copy(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// Grid-stride partial sums, a shared-memory block reduction, one atomicAdd per block.
__global__ void napkin_reduce(const float* __restrict__ in, float* out, std::size_t n) {
  __shared__ float partial[256];
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int off = blockDim.x / 2; off > 0; off /= 2) {
    if (static_cast<int>(threadIdx.x) < off) partial[threadIdx.x] += partial[threadIdx.x + off];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

// The seed's naive softmax: one block of 256 threads per row, three passes over the row in memory.
__global__ void napkin_softmax_naive(const float* __restrict__ in, float* __restrict__ out, int cols) {
  extern __shared__ float shmem[];
  const int row = blockIdx.x, tid = threadIdx.x, stride = blockDim.x;
  const std::size_t base = std::size_t(row) * cols;
  float local_max = -FLT_MAX;
  for (int c = tid; c < cols; c += stride) local_max = fmaxf(local_max, in[base + c]);
  shmem[tid] = local_max;
  __syncthreads();
  for (int off = stride >> 1; off; off >>= 1) {
    if (tid < off) shmem[tid] = fmaxf(shmem[tid], shmem[tid + off]);
    __syncthreads();
  }
  const float row_max = shmem[0];
  __syncthreads();
  float local_sum = 0.0f;
  for (int c = tid; c < cols; c += stride) {
    const float e = expf(in[base + c] - row_max);
    out[base + c] = e;
    local_sum += e;
  }
  shmem[tid] = local_sum;
  __syncthreads();
  for (int off = stride >> 1; off; off >>= 1) {
    if (tid < off) shmem[tid] += shmem[tid + off];
    __syncthreads();
  }
  const float row_sum = shmem[0];
  for (int c = tid; c < cols; c += stride) out[base + c] /= row_sum;
}

// The seed's optimized softmax: 1024 threads, the row kept in registers, one read and one write.
constexpr int softmax_cols = 16384;
constexpr int softmax_rows = 8192;
constexpr int softmax_items = softmax_cols / 1024;
__global__ void napkin_softmax_opt(const float* __restrict__ in, float* __restrict__ out, int cols) {
  extern __shared__ float shmem[];
  const int row = blockIdx.x, tid = threadIdx.x, stride = blockDim.x;
  const std::size_t base = std::size_t(row) * cols;
  float x[softmax_items];
  float local_max = -FLT_MAX;
  for (int i = 0; i < softmax_items; ++i) {
    x[i] = in[base + tid + i * stride];
    local_max = fmaxf(local_max, x[i]);
  }
  shmem[tid] = local_max;
  __syncthreads();
  for (int off = stride >> 1; off; off >>= 1) {
    if (tid < off) shmem[tid] = fmaxf(shmem[tid], shmem[tid + off]);
    __syncthreads();
  }
  const float row_max = shmem[0];
  __syncthreads();
  float local_sum = 0.0f;
  for (int i = 0; i < softmax_items; ++i) {
    x[i] = expf(x[i] - row_max);
    local_sum += x[i];
  }
  shmem[tid] = local_sum;
  __syncthreads();
  for (int off = stride >> 1; off; off >>= 1) {
    if (tid < off) shmem[tid] += shmem[tid + off];
    __syncthreads();
  }
  const float row_sum = shmem[0];
  for (int i = 0; i < softmax_items; ++i) out[base + tid + i * stride] = x[i] / row_sum;
}

// Uncoalesced: thread i reads in[i * 32]: every 4-byte load touches its own 32-byte sector.
constexpr int strided_stride = 32;
__global__ void napkin_strided_read(const float* __restrict__ in, float* __restrict__ out, std::size_t n_out) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n_out; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i * strided_stride];
}

// FMA-bound: 8 independent chains of FFMA in registers, one store per thread.
constexpr int fma_iterations = 8192;
__global__ void napkin_fma_loop(float* out, float a, float b) {
  float v[8];
  for (int j = 0; j < 8; ++j) v[j] = threadIdx.x * 1e-3f + j;
  for (int i = 0; i < fma_iterations; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = fmaf(v[j], a, b);
  float s = 0;
  for (int j = 0; j < 8; ++j) s += v[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ---------------------------------------------------------------------------------------------------
// The seven workloads: how to launch each, and its napkin model.

constexpr std::size_t big_n = std::size_t(1) << 27;  // 128 Mi floats = 512 MiB
constexpr std::size_t strided_out = std::size_t(1) << 22;
constexpr int gemm_n = 4096;

struct case_t {
  std::string name;
  std::function<void()> launch;
  std::function<void()> reset;  // for work that is not idempotent
  napkin::workload model;
};

struct state {
  float* a = nullptr;  // big input
  float* b = nullptr;  // big output
  float* small = nullptr;
  cublasHandle_t blas = nullptr;
  int sms = 0;
  state() {
    check(cudaMalloc(&a, big_n * 4 * sizeof(float)), "cudaMalloc a");  // room for softmax and strided
    check(cudaMalloc(&b, big_n * 4 * sizeof(float)), "cudaMalloc b");
    check(cudaMalloc(&small, 1 << 20), "cudaMalloc small");
    fill_input<<<1024, 256>>>(a, big_n * 4);
    fill_input<<<1024, 256>>>(b, big_n * 4);
    check(cudaDeviceSynchronize(), "fill");
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  }
  ~state() {
    cublasDestroy(blas);
    cudaFree(a);
    cudaFree(b);
    cudaFree(small);
  }
};

std::vector<case_t> make_cases(state& s) {
  std::vector<case_t> cases;
  const int grid = s.sms * 8;
  cases.push_back({"copy", [&s, grid] { napkin_copy<<<grid, 256>>>(s.a, s.b, big_n); }, {},
                   napkin::elementwise(static_cast<std::int64_t>(big_n), 1, 1, 0)});
  cases.push_back({"reduce", [&s, grid] { napkin_reduce<<<grid, 256>>>(s.a, s.small, big_n); },
                   [&s] { check(cudaMemset(s.small, 0, sizeof(float)), "reset"); },
                   napkin::reduction(static_cast<std::int64_t>(big_n))});
  cases.push_back({"softmax_naive",
                   [&s] { napkin_softmax_naive<<<softmax_rows, 256, 256 * sizeof(float)>>>(s.a, s.b, softmax_cols); },
                   {}, napkin::softmax(softmax_rows, softmax_cols)});
  cases.push_back({"softmax_opt",
                   [&s] { napkin_softmax_opt<<<softmax_rows, 1024, 1024 * sizeof(float)>>>(s.a, s.b, softmax_cols); },
                   {}, napkin::softmax(softmax_rows, softmax_cols)});
  cases.push_back({"strided_read", [&s, grid] { napkin_strided_read<<<grid, 256>>>(s.a, s.b, strided_out); }, {},
                   napkin::elementwise(static_cast<std::int64_t>(strided_out), 1, 1, 0)});
  cases.push_back({"fma_loop", [&s] { napkin_fma_loop<<<s.sms * 16, 256>>>(s.small, 0.999f, 1e-3f); }, {},
                   [&s] {
                     napkin::workload w;  // 8 chains x iterations FMAs per thread, 2 FLOP each
                     w.flops = std::uint64_t(s.sms) * 16 * 256 * 8 * fma_iterations * 2;
                     w.bytes_written = std::uint64_t(s.sms) * 16 * 256 * 4;
                     return w;
                   }()});
  cases.push_back({"sgemm",
                   [&s] {
                     const float one = 1.0f, zero = 0.0f;
                     float* A = s.a;
                     float* B = s.a + std::size_t(gemm_n) * gemm_n;
                     float* C = s.b;
                     if (cublasSgemm(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, gemm_n, gemm_n, gemm_n, &one, A, gemm_n, B,
                                     gemm_n, &zero, C, gemm_n) != CUBLAS_STATUS_SUCCESS)
                       throw std::runtime_error("cublasSgemm failed");
                   },
                   {}, napkin::gemm(gemm_n, gemm_n, gemm_n)});
  return cases;
}

double kernel_ms(const case_t& c) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  constexpr int reps = 5;
  float best = FLT_MAX;
  for (int i = 0; i < reps; ++i) {
    if (c.reset) c.reset();
    check(cudaEventRecord(start), "record");
    c.launch();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    best = std::min(best, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "napkin";
  std::string only;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
  if (mode != "napkin" && mode != "plain") {
    std::fprintf(stderr, "usage: %s napkin|plain [--only NAME]\n", argv[0]);
    return 2;
  }
  state s;
  std::vector<case_t> cases = make_cases(s);
  if (mode == "plain") {
    for (const auto& c : cases)
      if (only.empty() || c.name == only) c.launch();
    check(cudaDeviceSynchronize(), "plain run");
    return 0;
  }

  const auto t_setup = std::chrono::steady_clock::now();
  napkin::profiler prof;  // the SOL set
  const double setup_s = seconds_since(t_setup);
  const napkin::gpu_spec& h100 = napkin::find_gpu("h100-sxm");
  std::printf("NAPKIN_SETUP chip=%s passes=%zu setup_s=%.4f\n", prof.chip().c_str(), prof.passes(), setup_s);
  // measure() for every kernel, then per_kernel() for every kernel: CUPTI's range profiler stays enabled
  // within one mode (switching modes re-enables it, a fixed cost of its own).
  std::vector<double> kernel_time_ms, measure_s;
  for (const auto& c : cases) {
    if (!only.empty() && c.name != only) continue;
    kernel_time_ms.push_back(kernel_ms(c));  // also the warm-up
    const auto t0 = std::chrono::steady_clock::now();
    const napkin::sol_report r = c.reset ? prof.measure(c.name, c.launch, c.reset) : prof.measure(c.name, c.launch);
    measure_s.push_back(seconds_since(t0));
    std::cout << napkin::to_text(r);
    const napkin::pipe p = napkin::pipe::fp32;  // FP32 CUDA cores (cuBLAS SGEMM without TF32 too)
    std::cout << napkin::to_text(napkin::compare(r, c.model, h100, p));
    std::cout << napkin::to_key_values(r) << " mode=measure\n\n";
  }
  std::size_t i = 0;
  for (const auto& c : cases) {
    if (!only.empty() && c.name != only) continue;
    const auto t0 = std::chrono::steady_clock::now();
    const napkin::kernel_reports per = prof.per_kernel(c.launch);
    const double per_kernel_s = seconds_since(t0);
    if (c.reset) c.reset();
    for (const auto& k : per.kernels) {
      std::cout << "  per-kernel: " << k.name << "\n";
      std::cout << napkin::to_key_values(k) << " mode=per_kernel case=" << c.name << "\n";
    }
    std::printf("NAPKIN_COST name=%s passes=%zu kernel_ms=%.4f measure_s=%.4f per_kernel_s=%.4f kernels=%zu\n\n",
                c.name.c_str(), prof.passes(), kernel_time_ms[i], measure_s[i], per_kernel_s, per.kernels.size());
    ++i;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "profiler_kernels: %s\n", e.what());
  return 1;
}
