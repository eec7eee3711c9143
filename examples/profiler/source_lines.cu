// Where a kernel spends its time, by source line, in-process: napkin::sample_source_lines runs a function
// once under CUPTI's PC sampling and prints each kernel's hot lines with their stall reasons (the example's
// CMake builds it with -lineinfo; without it, the report lists the top SASS PCs and says how to get lines).
// docs/source-lines.md.
#include <cuda_runtime.h>

#include <cstdio>

#include "napkin/check.hpp"
#include "napkin/profiler/source_sampler.hpp"

// Loads 16 floats apart: every lane of a warp in its own sector, every add waiting on memory.
__global__ void strided_sum(const float* __restrict__ in, std::size_t n, int stride, float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = t * stride; i < n; i += threads * stride)
    acc += in[i];  // the hot line
  out[t] = acc;
}

int main() {
  const std::size_t n = std::size_t(1) << 26;
  float* in = nullptr;
  float* out = nullptr;
  NAPKIN_CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
  NAPKIN_CUDA_CHECK(cudaMalloc(&out, (std::size_t(1) << 20) * sizeof(float)));
  NAPKIN_CUDA_CHECK(cudaMemset(in, 0, n * sizeof(float)));

  napkin::source_sampling_options options;
  options.top_lines = 5;
  const napkin::source_lines_report r = napkin::sample_source_lines([&] {
    for (int rep = 0; rep < 10; ++rep) NAPKIN_CUDA_LAUNCH(strided_sum<<<1024, 256>>>(in, n, 16, out));
  }, options);
  std::printf("%s", napkin::to_text(r).c_str());

  NAPKIN_CUDA_CHECK(cudaFree(in));
  NAPKIN_CUDA_CHECK(cudaFree(out));
  return 0;
}
