// Probe behind docs/why.md's one achieved-occupancy miss (the zoo's FP32 FMA kernel, 4.7 points under ncu's on
// the H100 and the H200; the same loop run 256x longer, long_fma, agrees): the FMA loop of
// examples/kernels/kernels.cuh at six lengths, on the zoo's grid (8 blocks of 256 threads per SM), measured by
// napkin in both replay modes and, with `plain`, launched once each for ncu.
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -Iexamples benchmarks/device/achieved_occupancy_probe.cu \
//        -o /tmp/occ -lcupti
//   /tmp/occ napkin            # napkin: per_kernel() in application and kernel replay, the six back to back
//   /tmp/occ alone|sync|gap    # application replay: each length in its own per_kernel(); the six with a
//                              # cudaDeviceSynchronize() after each; the same and 1 ms of host sleep after each
//   /tmp/occ noflush|measure   # application replay without the L2 flush; measure() of each length alone
//   /tmp/occ spread            # as `napkin`, with spread_metrics: blocks and active cycles per SM, min and max
//   /tmp/occ timed             # no profiler: each warp's first and last clock64() on its SM give the
//                              # achieved occupancy of an unprofiled run; then the same kernel under napkin
//   ncu --clock-control none --metrics <the same> /tmp/occ plain      # ncu, kernel replay
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <thread>
#include <string>
#include <vector>

#include "kernels/kernels.cuh"
#include "napkin/profiler.hpp"

namespace {
struct warp_span {
  unsigned long long start, end;
  unsigned sm;
};

// The FMA loop with each warp's span on its SM's clock (lane 0 after the warp's last lane is done).
__global__ void timed_fma(int iterations, float a, float b, float never, float* out, warp_span* spans) {
  const unsigned long long t0 = clock64();
  const float r = napkin_kernels::fma_chains_sum<float>(iterations, a, b);
  if (r == never) out[blockIdx.x * blockDim.x + threadIdx.x] = r;
  __syncwarp();
  const unsigned long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) {
    unsigned sm = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    spans[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = {t0, t1, sm};
  }
}

const std::vector<int> lengths = {256, 1024, 4096, 16384, 65536, 262144};
std::vector<std::string> metrics = {
    "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__warps_active.avg.per_cycle_active",
    "sm__cycles_active.avg", "sm__cycles_elapsed.avg", "gpu__time_duration.sum"};
// `spread`: how the blocks and the active time are spread over the SMs (one pass on GH100).
const std::vector<std::string> spread_metrics = {
    "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__cycles_active.avg", "sm__cycles_active.max",
    "sm__cycles_active.min", "sm__ctas_launched.sum", "sm__ctas_launched.max", "sm__ctas_launched.min",
    "sm__warps_active.max", "sm__warps_active.min", "sm__warps_active.sum", "gpu__time_duration.sum"};

// between: 0 back to back, 1 a device sync after each launch, 2 the sync and 1 ms of host sleep.
void launch_all(float* out, unsigned blocks, int between = 0) {
  for (int n : lengths) {
    NAPKIN_CUDA_CHECK(napkin_kernels::fma_loop(out, blocks, 256, n));
    if (between > 0) NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    if (between > 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
}

void print(const char* how, int round, int iterations, const napkin::sol_report& k) {
  std::printf("%s round %d iterations %d:", how, round, iterations);
  for (const std::string& m : metrics) std::printf(" %s=%.4g", m.c_str(), k.get(m).value_or(-1));
  std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
  const bool plain = argc > 1 && std::strcmp(argv[1], "plain") == 0;
  int sms = 0;
  NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaFuncAttributes attr{};
  NAPKIN_CUDA_CHECK(cudaFuncGetAttributes(&attr, napkin_kernels::fma_loop_kernel));
  std::printf("SMs %d, blocks %d of 256 threads, %d registers a thread\n", sms, sms * 8, attr.numRegs);
  float* out = nullptr;
  NAPKIN_CUDA_CHECK(cudaMalloc(&out, sizeof(float) * 256 * sms * 8));
  launch_all(out, static_cast<unsigned>(sms) * 8);  // warm-up
  if (plain) {
    launch_all(out, static_cast<unsigned>(sms) * 8);
    return 0;
  }
  std::string mode = argc > 1 ? argv[1] : "napkin";
  if (mode == "spread") {
    metrics = spread_metrics;
    mode = "napkin";
  }
  napkin::profiler_options options;
  options.flush_l2 = mode != "noflush";
  napkin::profiler prof(napkin::metric_sets::custom("occupancy-probe", metrics), options);
  const unsigned blocks = static_cast<unsigned>(sms) * 8;
  if (mode == "timed") {
    NAPKIN_CUDA_CHECK(cudaFuncGetAttributes(&attr, timed_fma));
    std::printf("timed kernel: %d registers a thread\n", attr.numRegs);
    const std::size_t warps = blocks * 256 / 32;
    warp_span* spans = nullptr;
    NAPKIN_CUDA_CHECK(cudaMalloc(&spans, sizeof(warp_span) * warps));
    std::vector<warp_span> host(warps);
    const float a = 1.0f - 9.5367431640625e-07f, b = 9.5367431640625e-07f;
    auto run = [&](int n) { timed_fma<<<blocks, 256>>>(n, a, b, -1.0f, out, spans); };
    for (int round = 0; round < 3; ++round)
      for (int n : lengths) {
        run(n);
        NAPKIN_CUDA_CHECK(cudaGetLastError());
        NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
        NAPKIN_CUDA_CHECK(cudaMemcpy(host.data(), spans, sizeof(warp_span) * warps, cudaMemcpyDeviceToHost));
        std::vector<unsigned long long> first(sms, ~0ull), last(sms, 0);
        double lives = 0;
        for (const warp_span& w : host) {
          first[w.sm] = std::min(first[w.sm], w.start);
          last[w.sm] = std::max(last[w.sm], w.end);
          lives += static_cast<double>(w.end - w.start);
        }
        double windows = 0;
        for (int sm = 0; sm < sms; ++sm)
          if (last[sm] > first[sm]) windows += static_cast<double>(last[sm] - first[sm]);
        std::printf("timed round %d iterations %d: unprofiled achieved occupancy %.2f %% (%.2f warps a cycle)\n", round,
                    n, 100.0 * lives / (windows * 64), lives / windows);
      }
    for (napkin::replay how : {napkin::replay::application, napkin::replay::kernel}) {
      const napkin::kernel_reports r = prof.per_kernel(
          [&] {
            for (int n : lengths) run(n);
            NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
          },
          how);
      for (std::size_t i = 0; i < r.kernels.size(); ++i)
        print(how == napkin::replay::application ? "timed application" : "timed kernel", 0,
              i < lengths.size() ? lengths[i] : -1, r.kernels[i]);
    }
    return 0;
  }
  if (mode == "measure") {
    for (int round = 0; round < 2; ++round)
      for (int n : lengths)
        print("measure", round, n, prof.measure("fma", [&] {
          NAPKIN_CUDA_CHECK(napkin_kernels::fma_loop(out, blocks, 256, n));
        }));
    return 0;
  }
  if (mode == "alone") {
    for (int round = 0; round < 2; ++round)
      for (int n : lengths) {
        const napkin::kernel_reports r = prof.per_kernel(
            [&] { NAPKIN_CUDA_CHECK(napkin_kernels::fma_loop(out, blocks, 256, n)); }, napkin::replay::application);
        for (const napkin::sol_report& k : r.kernels) print("alone", round, n, k);
      }
    return 0;
  }
  const int between = mode == "sync" ? 1 : mode == "gap" ? 2 : 0;  // noflush: back to back
  for (napkin::replay how : {napkin::replay::application, napkin::replay::kernel}) {
    if (mode != "napkin" && how == napkin::replay::kernel) continue;
    for (int round = 0; round < 2; ++round) {
      const napkin::kernel_reports r = prof.per_kernel([&] { launch_all(out, blocks, between); }, how);
      for (std::size_t i = 0; i < r.kernels.size(); ++i)
        print(how == napkin::replay::application ? (mode != "napkin" ? mode.c_str() : "application") : "kernel", round,
              i < lengths.size() ? lengths[i] : -1, r.kernels[i]);
    }
  }
  return 0;
}
