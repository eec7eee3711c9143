// Probe behind docs/profiler.md "Cache state": DRAM bytes written by a read-only kernel (a sum over 256 MiB)
// under each way napkin measures, and CUPTI's auto-range state for several image sizes. A read-only kernel
// writes ~nothing itself, so what it writes back is what L2 held dirty when it started.
//   nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/dirty_l2_probe.cu -o /tmp/dirty -lcupti && /tmp/dirty
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include "napkin/profiler.hpp"

__global__ void sum_kernel(const float* in, std::size_t n, float* out) {
  float acc = 0.0f;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    acc += in[i];
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

int main() {
  const std::size_t n = std::size_t(1) << 26;
  float *a, *b;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, 1 << 20);
  cudaMemset(a, 0, n * 4);
  const auto set = napkin::metric_sets::custom("traffic", {napkin::metric::dram_bytes_read, napkin::metric::dram_bytes_write,
                                                           napkin::metric::duration_ns});
  auto show = [](const char* what, const napkin::sol_report& r) {
    std::printf("%-52s read %8.2f MB  written %6.2f MB  duration %8.2f us\n", what,
                *r.get(napkin::metric::dram_bytes_read) / 1e6, *r.get(napkin::metric::dram_bytes_write) / 1e6,
                *r.get(napkin::metric::duration_ns) / 1e3);
  };
  auto launch = [&] { sum_kernel<<<1024, 256>>>(a, n, b); };
  for (std::size_t max_kernels : {1, 16, 256}) {
    napkin::profiler_options o;
    o.max_kernels = max_kernels;
    napkin::profiler prof(set, o);
    char what[96];
    for (int rep = 0; rep < 2; ++rep) {
      std::snprintf(what, sizeof what, "measure() [max_kernels %zu]", max_kernels);
      show(what, prof.measure("sum", launch));
      std::snprintf(what, sizeof what, "per_kernel() kernel replay [max_kernels %zu]", max_kernels);
      show(what, prof.per_kernel(launch).kernels.at(0));
      std::snprintf(what, sizeof what, "per_kernel() application [max_kernels %zu]", max_kernels);
      show(what, prof.per_kernel(launch, napkin::replay::application).kernels.at(0));
    }
  }
  // Auto range + user replay driven by hand: can L2 be cleaned *after* cuptiRangeProfilerStart without a
  // kernel (which would be a range of its own)? A device-to-host copy of 2 x L2 reads through L2.
  {
    napkin::profiler owner(set);  // holds cuptiProfilerInitialize
    CUcontext ctx;
    napkin::detail::driver_entry_point<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&ctx);
    napkin::metric_config config(owner.chip(), set);
    napkin::detail::l2_flusher flusher(0);
    void* host = nullptr;
    cudaMallocHost(&host, flusher.bytes());
    float* clean = nullptr;
    cudaMalloc(&clean, flusher.bytes());
    cudaMemset(clean, 0, flusher.bytes());
    for (const char* variant : {"flush before start", "flush before start + DtoH copy after start",
                                "DtoD copy after start (kernel or copy engine?)"}) {
      for (std::size_t max_ranges : {std::size_t(1), std::size_t(256)}) {
        napkin::detail::cupti_session rp(ctx, napkin::detail::auto_range_user_replay);
        rp.set_config(config, max_ranges);
        const std::vector<std::uint8_t>& data = rp.data();
        bool done = false;
        double copy_ms = 0;
        while (!done) {
          flusher.flush();
          cudaDeviceSynchronize();
          rp.start();
          auto t0 = std::chrono::steady_clock::now();
          if (std::string(variant).find("DtoH") != std::string::npos)
            cudaMemcpy(host, clean, flusher.bytes(), cudaMemcpyDeviceToHost);
          if (std::string(variant).find("DtoD") != std::string::npos)
            cudaMemcpy(clean + flusher.bytes() / 8, clean, flusher.bytes() / 2, cudaMemcpyDeviceToDevice);
          copy_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
          launch();
          cudaDeviceSynchronize();
          done = rp.stop();
          cudaDeviceSynchronize();
        }
        rp.decode();
        const std::size_t ranges = napkin::metric_config::range_count(data);
        if (ranges == 0) {
          std::printf("%-48s max %3zu: no range recorded\n", variant, max_ranges);
          continue;
        }
        const auto v = config.evaluate(data, ranges - 1);
        std::printf("%-48s max %3zu: ranges %zu, last: read %8.2f MB written %6.2f MB duration %8.2f us; copy %.2f ms/pass\n",
                    variant, max_ranges, ranges, v[0] / 1e6, v[1] / 1e6, v[2] / 1e3, copy_ms / owner.passes());
      }
    }
    cudaFreeHost(host);
    cudaFree(clean);
  }
  {
    napkin::profiler_options o;
    o.flush_l2 = false;
    napkin::profiler prof(set, o);
    show("measure(), no flush", prof.measure("sum", launch));
    show("per_kernel() application, no flush", prof.per_kernel(launch, napkin::replay::application).kernels.at(0));
  }
  return 0;
}
