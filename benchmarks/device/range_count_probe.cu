// Probe behind docs/accuracy.md ("cublas_multi"): per_kernel(fn, replay::application) on one profiler, fn's
// kernel count changing between calls (0 = a memset only, as the zoo's memset and memcpy cases). Prints each
// call's kernels and dropped count, with napkin's session reuse as it is; with `fresh`, a new profiler per call.
//   nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/range_count_probe.cu -o /tmp/rcp -lcupti && /tmp/rcp
#include <cstdio>
#include <cstring>
#include <vector>
#include "napkin/profiler.hpp"

__global__ void k1(float* p, size_t n) { for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] += 1; }
__global__ void k2(float* p, size_t n) { for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] *= 2; }
__global__ void k3(float* p, size_t n) { for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] -= 1; }

int main(int argc, char** argv) {
  const bool fresh = argc > 1 && std::strcmp(argv[1], "fresh") == 0;
  const size_t n = size_t(1) << 24;
  float* p = nullptr;
  cudaMalloc(&p, n * 4);
  const std::vector<std::vector<int>> sequences{{3}, {1, 3}, {0, 3}, {0, 0, 3}, {1, 2, 3}, {2, 3}, {3, 0, 3}, {1, 3, 1, 3}};
  for (const auto& seq : sequences) {
    std::optional<napkin::profiler> prof(std::in_place);
    std::printf("sequence");
    for (int c : seq) std::printf(" %d", c);
    std::printf(":");
    for (int c : seq) {
      if (fresh) prof.emplace();
      auto fn = [&] {
        if (c == 0) cudaMemsetAsync(p, 0, n * 4);
        if (c >= 1) k1<<<512, 256>>>(p, n);
        if (c >= 2) k2<<<512, 256>>>(p, n);
        if (c >= 3) k3<<<512, 256>>>(p, n);
      };
      const napkin::kernel_reports r = prof->per_kernel(fn, napkin::replay::application);
      std::printf("  [%d launched: %zu kernels, %zu dropped]", c, r.kernels.size(), r.dropped);
    }
    std::printf("\n");
  }
  return 0;
}
