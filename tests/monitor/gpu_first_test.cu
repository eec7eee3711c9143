// The phase monitor as the first CUPTI user of a process: nothing else has initialized CUPTI's profiler API
// before it starts (the order monitor_workload and most applications use). A monitor once asked CUPTI for the
// chip name before initializing that API and crashed inside CUPTI (SIGSEGV, CUPTI 13.0, H200); monitor_gpu
// never saw it, because its first test starts a profiler first. Skips (exit 77) without a device.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <atomic>
#include <string>

#include "napkin/monitor.hpp"

namespace {
__global__ void spin_kernel(float* out, int iterations) {
  float x = static_cast<float>(threadIdx.x);
  for (int i = 0; i < iterations; ++i) x = x * 0.999f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
}  // namespace

TEST_CASE("a monitor started first in a process samples its kernels") {
  float* p = nullptr;
  REQUIRE(cudaMalloc(&p, 1024 * 256 * sizeof(float)) == cudaSuccess);
  napkin::monitor_settings s;
  s.enabled = true;
  napkin::monitor m(s);
  INFO(m.status());
  REQUIRE(m.running());
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 20; ++i) spin_kernel<<<1024, 256>>>(p, 20000);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  m.stop();
  const napkin::monitor_report r = m.report();
  CHECK(r.totals.samples_kept > 0);
  bool spin_row = false;
  for (const auto& k : r.kernels) spin_row = spin_row || k.name.find("spin_kernel") != std::string::npos;
  CHECK(spin_row);
  cudaFree(p);
}

// A periodic report's callback may call the monitor (it must not destroy it): also during the last drain that
// the destructor's stop runs, so the monitor is whole until then (its state behind one pointer, monitor.hpp).
TEST_CASE("a periodic callback that calls the monitor while the monitor is destroyed") {
  float* p = nullptr;
  REQUIRE(cudaMalloc(&p, 1024 * 256 * sizeof(float)) == cudaSuccess);
  napkin::monitor_settings s;
  s.enabled = true;
  s.report_at_exit = false;
  s.report_every_ns = 1'000'000;  // every drain is due
  auto* m = new napkin::monitor(s);  // not a unique_ptr: reset() may null it before the destructor runs
  INFO(m->status());
  REQUIRE(m->running());
  std::atomic<int> calls{0};
  std::atomic<bool> readable{true};
  m->on_report([&](const napkin::monitor_report&) {
    readable = readable && m->cpu_seconds() >= 0 && !m->status().empty();
    ++calls;
  });
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 20; ++i) spin_kernel<<<1024, 256>>>(p, 20000);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  delete m;  // the decode thread's last pass may call the callback from inside the destructor
  CHECK(calls.load() > 0);
  CHECK(readable.load());
  cudaFree(p);
}

