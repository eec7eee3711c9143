// measure() on work whose first run in the process initializes something (issue #12, item 2). The first
// cublasSgemm of a process loads cuBLAS's kernels; before napkin warmed fn up, that one-time work landed in a
// replay pass and the range read 140 ms instead of 2.8 ms on an H200 (SM 2 %, "latency-bound"). Its own
// executable: the first call must be the process's first. Durations are compared with each other (the same
// call measured again), never with a fixed time.
#include <doctest/doctest.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "gemm_cublas.cuh"
#include "napkin/profiler.hpp"

namespace {

constexpr int m = 4096;  // SGEMM 4096^3: 2.7 ms on H100 (docs/profiler.md), long against pass-to-pass noise

struct matrices {
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  matrices() {
    const std::size_t bytes = std::size_t(m) * m * sizeof(float);
    for (float** p : {&a, &b, &c}) {
      REQUIRE(cudaMalloc(p, bytes) == cudaSuccess);
      REQUIRE(cudaMemset(*p, 0, bytes) == cudaSuccess);
    }
  }
  ~matrices() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

__global__ void copy_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

}  // namespace

TEST_CASE("measure(): the first cublasSgemm of the process is measured as the GEMM, not as cuBLAS's start-up") {
  matrices mats;
  cublasHandle_t handle = nullptr;
  REQUIRE(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  {
    napkin::profiler prof;  // SOL set; warm-up run on (the default)
    auto sgemm = [&] {
      REQUIRE(napkin_kernels::sgemm(handle, m, m, m, mats.a, mats.b, mats.c) == CUBLAS_STATUS_SUCCESS);
    };
    const napkin::sol_report first = prof.measure("first sgemm", sgemm);  // the process's first cublasSgemm
    MESSAGE(napkin::to_text(first));
    CHECK(first.passes_disagree.empty());
    REQUIRE(first.pass_samples.size() == first.passes);
    for (const auto& p : first.pass_samples) {  // every pass launched the same (at least one) kernel
      REQUIRE(p.launches);
      CHECK(*p.launches >= 1);
      CHECK(*p.launches == *first.pass_samples[0].launches);
    }
    CHECK(first.sol_table().kind != napkin::bottleneck::latency_bound);
    CHECK(first.sol_table().kind != napkin::bottleneck::passes_disagree);
    // The same call measured again, three times: the first measurement must read like them.
    std::vector<double> later;
    for (int i = 0; i < 3; ++i) {
      const napkin::sol_report r = prof.measure("sgemm", sgemm);
      CHECK(r.passes_disagree.empty());
      REQUIRE(r.duration_ns());
      later.push_back(*r.duration_ns());
    }
    REQUIRE(first.duration_ns());
    MESSAGE("first ", *first.duration_ns() * 1e-6, " ms; later median ", median(later) * 1e-6, " ms");
    CHECK(*first.duration_ns() == doctest::Approx(median(later)).epsilon(0.20));
  }
  cublasDestroy(handle);
}

TEST_CASE("measure() with warm_up = false runs fn once per pass, and passes that differ get no verdict") {
  // Work that does 50 ms of one-time host work on its first call (standing in for a library's start-up),
  // then launches a copy of 256 MiB (0.36 ms on H100).
  const std::size_t n = std::size_t(1) << 26;
  float *in = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemset(in, 0, n * sizeof(float)) == cudaSuccess);
  int calls = 0;
  auto work = [&] {
    if (calls++ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    copy_kernel<<<1024, 256>>>(in, out, n);
  };
  {
    napkin::profiler_options options;
    options.warm_up = false;  // the opt-out: fn runs exactly passes() times
    napkin::profiler prof(napkin::metric_sets::sol(), options);
    const napkin::sol_report r = prof.measure("first call initializes", work);
    MESSAGE(napkin::to_text(r));
    CHECK(calls == static_cast<int>(prof.passes()));
    REQUIRE(r.pass_samples.size() == prof.passes());
    CHECK(r.pass_samples[0].duration_ns > 50e6);  // the sleep is inside the first pass
    CHECK(r.passes_disagree.find("pass durations disagree: pass 1 took") != std::string::npos);
    CHECK(r.sol_table().kind == napkin::bottleneck::passes_disagree);
    REQUIRE(r.ncu_rule());
    CHECK(r.ncu_rule()->kind == napkin::ncu_bottleneck::passes_disagree);
    CHECK(napkin::to_text(r).find("Passes disagree: ") != std::string::npos);
  }
  {
    calls = 0;  // the same work again, from its first call, with the default warm-up run
    napkin::profiler prof;
    const napkin::sol_report r = prof.measure("first call initializes", work);
    MESSAGE(napkin::to_text(r));
    CHECK(calls == static_cast<int>(prof.passes()) + 1);
    CHECK(r.passes_disagree.empty());
    // The 50 ms start-up ran in the warm-up, outside every pass: each pass holds one copy of 512 MiB of
    // traffic (~0.2 ms on H100/H200), far below the sleep.
    for (const auto& p : r.pass_samples) CHECK(p.duration_ns < 10e6);
    // A verdict again (which row a short copy lands in depends on the GPU; gpu_test checks the rows).
    CHECK(r.sol_table().kind != napkin::bottleneck::passes_disagree);
    REQUIRE(r.ncu_rule());
    CHECK(r.ncu_rule()->kind != napkin::ncu_bottleneck::passes_disagree);
  }
  cudaFree(in);
  cudaFree(out);
}
