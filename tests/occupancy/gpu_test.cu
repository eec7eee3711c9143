// Real compiled kernels on a real GPU: napkin's run-time overload (cudaFuncGetAttributes + device limits +
// napkin/occupancy.hpp) against the driver's cudaOccupancyMaxActiveBlocksPerMultiprocessor and
// cudaOccupancyMaxPotentialBlockSize(VariableSMem), for several block sizes and dynamic shared memory sizes.
// Zero mismatches expected; the table printed here goes in docs/occupancy.md (benchmarks/device/occupancy.sh).
#include <doctest/doctest.h>
#include <napkin/check.hpp>
#include <napkin/occupancy/cuda.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

// Register pressure grows with N: N live accumulators, mixed so the compiler cannot fold them.
template <int N>
__device__ float churn(const float* in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i) acc[i] = in[(threadIdx.x * 7 + i * 37) % n];
#pragma unroll
  for (int r = 0; r < 3; ++r) {
#pragma unroll
    for (int i = 0; i < N; ++i) acc[i] = fmaf(acc[i], acc[(i + 1) % N], acc[(i + 3) % N]);
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < N; ++i) s += acc[i] * static_cast<float>(i + 1);
  return s;
}

template <int N>
__global__ void regs_plain(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<N>(in, n);
}

// __launch_bounds__ caps the registers (and the block size) the compiler may use.
template <int N>
__global__ void __launch_bounds__(256, 4) regs_bounded_256x4(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<N>(in, n);
}

template <int N>
__global__ void __launch_bounds__(128, 8) regs_bounded_128x8(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<N>(in, n);
}

template <int N>
__global__ void __launch_bounds__(1024, 1) regs_bounded_1024x1(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<N>(in, n);
}

#if CUDART_VERSION >= 12040
// Per-kernel -maxrregcount.
template <int N>
__global__ void __maxnreg__(40) regs_maxnreg40(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<N>(in, n);
}
#endif

// Static shared memory of Floats floats, plus dynamic shared memory.
template <int Floats, int N>
__global__ void static_smem(const float* in, float* out, int n) {
  __shared__ float tile[Floats];
  extern __shared__ float dyn[];
  for (int i = threadIdx.x; i < Floats; i += blockDim.x) tile[i] = in[i % n];
  dyn[threadIdx.x] = in[threadIdx.x % n];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      churn<N>(in, n) + tile[(threadIdx.x * 5) % Floats] + dyn[(threadIdx.x + 1) % blockDim.x];
}

__global__ void dynamic_only(const float* in, float* out, int n) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x % n];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

// The same kernel opted in to large dynamic shared memory (cudaFuncSetAttribute, below).
__global__ void dynamic_opted_in(const float* in, float* out, int n) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x % n];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

// A carveout preference of 25% (set below).
__global__ void with_carveout(const float* in, float* out, int n) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x % n];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x] + churn<8>(in, n);
}

using kernel_fn = void (*)(const float*, float*, int);

struct named_kernel {
  const char* name;
  kernel_fn fn;
};

std::vector<named_kernel> kernels() {
  return {
      {"regs_plain<4>", regs_plain<4>},
      {"regs_plain<16>", regs_plain<16>},
      {"regs_plain<32>", regs_plain<32>},
      {"regs_plain<48>", regs_plain<48>},
      {"regs_plain<64>", regs_plain<64>},
      {"regs_plain<96>", regs_plain<96>},
      {"regs_plain<160>", regs_plain<160>},
      {"regs_plain<240>", regs_plain<240>},
      {"regs_bounded_256x4<96>", regs_bounded_256x4<96>},
      {"regs_bounded_128x8<96>", regs_bounded_128x8<96>},
      {"regs_bounded_1024x1<96>", regs_bounded_1024x1<96>},
#if CUDART_VERSION >= 12040
      {"regs_maxnreg40<64>", regs_maxnreg40<64>},
#endif
      {"static_smem<256,8>", static_smem<256, 8>},
      {"static_smem<2048,16>", static_smem<2048, 16>},
      {"static_smem<8192,32>", static_smem<8192, 32>},
      {"static_smem<12000,8>", static_smem<12000, 8>},
      {"dynamic_only", dynamic_only},
      {"dynamic_opted_in", dynamic_opted_in},
  };
}

int runtime_blocks(kernel_fn k, int threads, int dynamic_smem) {
  int blocks = -1;
  NAPKIN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, static_cast<size_t>(dynamic_smem)));
  return blocks;
}

std::string limiter_names(const napkin::occupancy_result& r) {
  std::string s;
  for (napkin::limiter l : napkin::all_limiters)
    if (r.limiters.contains(l)) s += (s.empty() ? "" : "+") + std::string(napkin::to_string(l));
  return s;
}

}  // namespace

TEST_CASE("napkin's run-time occupancy equals cudaOccupancyMaxActiveBlocksPerMultiprocessor for real kernels") {
  NAPKIN_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(dynamic_opted_in),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  const napkin::sm_limits device = napkin::current_device_limits();
  cudaDeviceProp prop{};
  int dev = 0;
  NAPKIN_CUDA_CHECK(cudaGetDevice(&dev));
  NAPKIN_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  std::printf("device: %s, CC %d.%d, %d SMs, %d B shared memory per SM, opt-in %d B, reserve %d B\n", prop.name,
              prop.major, prop.minor, prop.multiProcessorCount, device.smem_per_sm, device.smem_per_block_optin,
              device.smem_reserved_per_block);
  // The device's values and napkin's table for its CC agree (the table is what CC-only callers get).
  const napkin::sm_limits table = napkin::limits_of(napkin::compute_capability{prop.major, prop.minor});
  CHECK(table.max_threads_per_sm == device.max_threads_per_sm);
  CHECK(table.max_blocks_per_sm == device.max_blocks_per_sm);
  CHECK(table.registers_per_block == device.registers_per_block);
  CHECK(table.registers_per_sm == device.registers_per_sm);
  CHECK(table.smem_per_sm == device.smem_per_sm);
  CHECK(table.smem_per_block_optin == device.smem_per_block_optin);
  CHECK(table.smem_reserved_per_block == device.smem_reserved_per_block);
  // ...and so do the two ways of reading the device.
  const napkin::sm_limits from_prop = napkin::limits_of(prop);
  CHECK(from_prop.smem_per_sm == device.smem_per_sm);
  CHECK(from_prop.sm_count == device.sm_count);

  std::printf("%-26s %5s %7s %8s %7s %8s | %6s %7s %6s  %s\n", "kernel", "regs", "static", "max dyn", "threads",
              "dynamic", "napkin", "runtime", "occ", "limiter");
  int compared = 0;
  int mismatches = 0;
  for (const named_kernel& k : kernels()) {
    cudaFuncAttributes attr{};
    NAPKIN_CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(k.fn)));
    const napkin::kernel_resources res = napkin::resources_of(k.fn);
    CHECK(res.registers_per_thread == attr.numRegs);
    for (int threads : {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024}) {
      if (threads > attr.maxThreadsPerBlock) continue;
      for (int dynamic_smem : {0, 1024, 8 * 1024, 20 * 1024, 48 * 1024 - static_cast<int>(attr.sharedSizeBytes),
                               64 * 1024, 100 * 1024}) {
        if (dynamic_smem > attr.maxDynamicSharedSizeBytes) continue;
        const napkin::occupancy_result n = napkin::occupancy(device, k.fn, threads, dynamic_smem);
        const int r = runtime_blocks(k.fn, threads, dynamic_smem);
        ++compared;
        const bool same = n.blocks_per_sm == r;
        if (!same) ++mismatches;
        std::printf("%-26s %5d %7zu %8d %7d %8d | %6d %7d %5.1f%%  %s%s\n", k.name, attr.numRegs, attr.sharedSizeBytes,
                    attr.maxDynamicSharedSizeBytes, threads, dynamic_smem, n.blocks_per_sm, r, 100.0 * n.occupancy(),
                    limiter_names(n).c_str(), same ? "" : "   <-- MISMATCH");
      }
    }
  }
  std::printf("%d launch configurations compared, %d mismatches\n", compared, mismatches);
  CHECK(compared > 300);
  CHECK(mismatches == 0);
}

TEST_CASE("napkin's best block size equals cudaOccupancyMaxPotentialBlockSize(VariableSMem)") {
  int compared = 0;
  int mismatches = 0;
  const napkin::sm_limits device = napkin::current_device_limits();
  for (const named_kernel& k : kernels()) {
    for (int dynamic_smem : {0, 8 * 1024, 40 * 1024}) {
      int min_grid = 0;
      int block = 0;
      NAPKIN_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, k.fn, static_cast<size_t>(dynamic_smem)));
      const napkin::block_size_choice n = napkin::best_block_size(k.fn, dynamic_smem);
      ++compared;
      const bool same = n.block_size == block && n.min_grid_size(device.sm_count) == min_grid;
      if (!same) ++mismatches;
      std::printf("best block size %-26s dyn %6d: napkin %4d (grid %5d)  runtime %4d (grid %5d)%s\n", k.name,
                  dynamic_smem, n.block_size, n.min_grid_size(device.sm_count), block, min_grid,
                  same ? "" : "   <-- MISMATCH");
    }
    const auto per_thread = [](int threads) { return 64 * threads; };
    int min_grid = 0;
    int block = 0;
    NAPKIN_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, k.fn, per_thread));
    const napkin::block_size_choice n = napkin::best_block_size(k.fn, per_thread);
    ++compared;
    const bool same = n.block_size == block && n.min_grid_size(device.sm_count) == min_grid;
    if (!same) ++mismatches;
    std::printf("best block size %-26s dyn 64 B/thread: napkin %4d (grid %5d)  runtime %4d (grid %5d)%s\n", k.name,
                n.block_size, n.min_grid_size(device.sm_count), block, min_grid, same ? "" : "   <-- MISMATCH");
  }
  std::printf("%d block-size searches compared, %d mismatches\n", compared, mismatches);
  CHECK(mismatches == 0);
}

// cudaFuncAttributes carries preferredShmemCarveout; napkin applies it as cuda_occupancy.h applies a
// carveout. Kept apart so that its result, either way, is easy to read in the output.
TEST_CASE("a kernel's preferred shared-memory carveout (cudaFuncAttributePreferredSharedMemoryCarveout)") {
  const napkin::sm_limits device = napkin::current_device_limits();
  int compared = 0;
  int mismatches = 0;
  for (int percent : {0, 25, 50, 100}) {
    NAPKIN_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(with_carveout),
                                           cudaFuncAttributePreferredSharedMemoryCarveout, percent));
    CHECK(napkin::resources_of(with_carveout).carveout_percent == percent);
    for (int threads : {128, 256})
      for (int dynamic_smem : {0, 8 * 1024, 20 * 1024, 40 * 1024}) {
        const napkin::occupancy_result n = napkin::occupancy(device, with_carveout, threads, dynamic_smem);
        const int r = runtime_blocks(with_carveout, threads, dynamic_smem);
        ++compared;
        if (n.blocks_per_sm != r) ++mismatches;
        std::printf("carveout %3d%% threads %4d dyn %6d: napkin %2d blocks (carveout %6d B)  runtime %2d%s\n", percent,
                    threads, dynamic_smem, n.blocks_per_sm, n.smem_per_sm, r,
                    n.blocks_per_sm == r ? "" : "   <-- MISMATCH");
      }
  }
  std::printf("%d carveout configurations compared, %d mismatches\n", compared, mismatches);
  CHECK(mismatches == 0);
}

TEST_CASE("to_text() for a real kernel") {
  const std::string s = napkin::to_text(regs_plain<160>, 256);
  std::printf("%s\n", s.c_str());
  CHECK(s.find("occupancy") != std::string::npos);
}
