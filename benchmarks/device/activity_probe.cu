// What CUPTI's activity records show inside napkin's measure(): every kernel, memcpy and memset of one
// measurement of a copy, by name and time (CUPTI's clock, relative to the call), to see which work falls in a
// pass's window. Build: nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/activity_probe.cu -lcupti
#include <cuda_runtime.h>
#include <cupti_activity.h>

#include <cstdio>

#include "napkin/profiler.hpp"
#include "napkin/cupti/activity.hpp"

__global__ void probe_copy(const float* in, float* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

int main() {
  const std::size_t n = std::size_t(1) << 26;
  float *a, *b;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  napkin::profiler prof;
  auto& c = napkin::detail::activity_collector::instance();
  c.hold();  // kernels with names
  std::uint64_t t0 = 0, t1 = 0;
  cuptiGetTimestamp(&t0);
  const napkin::sol_report r = prof.measure("copy", [&] { probe_copy<<<1024, 256>>>(a, b, n); });
  cuptiGetTimestamp(&t1);
  napkin::detail::activity_collector::flush_forced();
  for (const auto& k : c.take(0))
    std::printf("KERNEL start_us=%.1f end_us=%.1f dur_us=%.1f stream=%u corr=%u name=%s\n", (k.start_ns - t0) * 1e-3,
                (k.end_ns - t0) * 1e-3, (k.end_ns - k.start_ns) * 1e-3, k.stream, k.correlation, k.name.c_str());
  std::printf("CALL_END_us=%.1f\n%s\n", (t1 - t0) * 1e-3, napkin::to_key_values(r).c_str());
  for (const auto& p : r.pass_samples) std::printf("PASS host_ns=%.0f launches=%zu\n", p.duration_ns, p.launches.value_or(99));
  c.release();
}
