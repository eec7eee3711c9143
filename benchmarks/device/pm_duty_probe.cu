// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md (issue 27, item 5): what sampling part of the time costs. PM sampling's decode
// costs a fixed CPU share of the GPU time sampled (pm_alignment_probe.cu: 0.23-0.26 CPU-s per GPU-s at 5-100 ms),
// so only sampling part of the time can bring the monitor near 3 % of a core. This probe keeps one pm_sampler
// and cycles it: start, ON_MS of sampling while an FMA loop keeps the GPU busy, stop, decode, then OFF_MS with
// the sampler stopped; it reports per cycle the CPU of start, stop and decode (the calling thread's CPU clock), the
// samples, and how long the first sample after each start spans (the setup sample).
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -Iexamples/kernels benchmarks/device/pm_duty_probe.cu \
//     -o /tmp/pmduty -lcupti -L/usr/local/cuda/extras/CUPTI/lib64
//   /tmp/pmduty INTERVAL_NS ON_MS OFF_MS CYCLES
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "kernels.cuh"
#include "napkin/cupti/session.hpp"
#include "napkin/monitor/pm_sampler.hpp"

namespace k = napkin_kernels;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s INTERVAL_NS ON_MS OFF_MS CYCLES\n", argv[0]);
    return 2;
  }
  const std::uint64_t interval = std::strtoull(argv[1], nullptr, 10);
  const long on_ms = std::atol(argv[2]), off_ms = std::atol(argv[3]);
  const int cycles = std::atoi(argv[4]);
  if (cudaFree(nullptr) != cudaSuccess) return 1;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float* out = nullptr;
  cudaMalloc(&out, sizeof(float) * 1024 * 1024);
  // Keep the GPU busy the whole time, sampled or not: FMA loops of ~1 ms from a second thread.
  std::atomic<bool> done{false};
  std::thread busy([&] {
    while (!done) {
      for (int i = 0; i < 20; ++i) k::fma_loop(out, static_cast<unsigned>(sms) * 8, 256, 8192);
      cudaDeviceSynchronize();
    }
  });
  napkin::detail::cupti_initialization cupti;
  const std::string chip = napkin::detail::pm_sampling_chip(0);
  const napkin::detail::pm_sampling_config config(chip, napkin::detail::monitor_metrics(chip));
  const double wall0 = napkin::detail::thread_cpu_seconds();
  (void)wall0;
  const auto t_begin = std::chrono::steady_clock::now();
  double cpu_total = 0;
  {
    const double c0 = napkin::detail::thread_cpu_seconds();
    napkin::detail::pm_sampler sampler(0, config, interval, std::size_t(64) << 20, 256);
    const double c_enable = napkin::detail::thread_cpu_seconds() - c0;
    cpu_total += c_enable;
    std::printf("ENABLE cpu_ms=%.2f metrics=%zu\n", c_enable * 1e3, config.metrics().size());
    for (int c = 0; c < cycles; ++c) {
      double t = napkin::detail::thread_cpu_seconds();
      sampler.start();
      const double c_start = napkin::detail::thread_cpu_seconds() - t;
      std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
      double c_decode = 0;
      const auto on_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(on_ms);
      while (std::chrono::steady_clock::now() < on_end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        t = napkin::detail::thread_cpu_seconds();
        sampler.decode([&](std::uint64_t a, std::uint64_t b, const double*) { spans.emplace_back(a, b); });
        c_decode += napkin::detail::thread_cpu_seconds() - t;
      }
      t = napkin::detail::thread_cpu_seconds();
      sampler.stop();
      const double c_stop = napkin::detail::thread_cpu_seconds() - t;
      t = napkin::detail::thread_cpu_seconds();
      sampler.decode([&](std::uint64_t a, std::uint64_t b, const double*) { spans.emplace_back(a, b); });
      c_decode += napkin::detail::thread_cpu_seconds() - t;
      cpu_total += c_start + c_stop + c_decode;
      const double first_ms = spans.empty() ? 0 : (spans.front().second - spans.front().first) * 1e-6;
      std::printf("CYCLE %d start_cpu_ms=%.2f stop_cpu_ms=%.2f decode_cpu_ms=%.1f samples=%zu first_sample_ms=%.1f "
                  "second_sample_ms=%.2f\n",
                  c, c_start * 1e3, c_stop * 1e3, c_decode * 1e3, spans.size(), first_ms,
                  spans.size() > 1 ? (spans[1].second - spans[1].first) * 1e-6 : 0.0);
      std::this_thread::sleep_for(std::chrono::milliseconds(off_ms));
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_begin).count();
  std::printf("TOTAL cpu_s=%.3f wall_s=%.3f cpu_share=%.4f duty=%.3f\n", cpu_total, wall, cpu_total / wall,
              static_cast<double>(on_ms) / static_cast<double>(on_ms + off_ms));
  done = true;
  busy.join();
  return 0;
}
