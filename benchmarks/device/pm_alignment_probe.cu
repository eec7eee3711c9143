// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md (issue 27): do PM-sampling windows and kernel activity records line up, and what
// does decoding cost per sample at each interval and trigger?
//
// A seeded random sequence of two kernels of steady character (an FMA loop: SM busy, no DRAM; a float4 copy:
// DRAM busy) with durations of 0.1-3 ms, some back to back and some followed by an idle gap of 0-3 ms, runs
// under a bare pm_sampler (the monitor's metrics) with CUPTI's CONCURRENT_KERNEL activity records. For each
// window the share of its time each kind ran is exact from the records; if windows and records share one
// clock, SM % and DRAM % are a time-weighted sum of the two kinds' own rates: r_w = a f_fma,w + b f_copy,w
// (idle reads 0). The probe fits (a, b) by least squares with the windows shifted by delta (-2 to +2
// intervals) and prints the residual for each delta: the smallest residual should sit at delta = 0.
// It also times each decode on the decoding thread's CPU clock: CPU seconds per sample and per GPU second.
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -Iexamples/kernels benchmarks/device/pm_alignment_probe.cu \
//     -o /tmp/pmal -lcupti -L/usr/local/cuda/extras/CUPTI/lib64
//   /tmp/pmal time|sysclk INTERVAL DRAIN_MS [ITEMS] [detail.txt]
#include <cuda_runtime.h>
#include <cupti_activity.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kernels.cuh"
#include "napkin/cupti/session.hpp"
#include "napkin/monitor/pm_sampler.hpp"
#include "probe_support.cuh"

namespace k = napkin_kernels;

#define CK PROBE_CHECK

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s time|sysclk INTERVAL DRAIN_MS [ITEMS] [detail.txt]\n", argv[0]);
    return 2;
  }
  const bool sysclk = std::string(argv[1]) == "sysclk";
  const std::uint64_t interval = std::strtoull(argv[2], nullptr, 10);
  const long drain_ms = std::atol(argv[3]);
  const int items = argc > 4 ? std::atoi(argv[4]) : 400;
  FILE* detail = argc > 5 ? std::fopen(argv[5], "w") : nullptr;

  CK(cudaFree(nullptr));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t big_n = std::size_t(1) << 28;  // 1 GiB of floats in each buffer
  float *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, big_n * sizeof(float)));
  CK(cudaMalloc(&b, big_n * sizeof(float)));
  CK(k::fill_pattern(a, big_n));
  CK(cudaDeviceSynchronize());

  // Calibrate: one FMA launch of 2048 iterations and one copy of 2^26 floats, timed with events.
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const unsigned fma_blocks = static_cast<unsigned>(sms) * 8;
  float fma_ms = 0, copy_ms = 0;
  CK(k::fma_loop(b, fma_blocks, 256, 2048));
  CK(cudaEventRecord(e0));
  CK(k::fma_loop(b, fma_blocks, 256, 2048));
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  CK(cudaEventElapsedTime(&fma_ms, e0, e1));
  CK(cudaEventRecord(e0));
  CK(k::copy(a, b, std::size_t(1) << 26));
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  CK(cudaEventElapsedTime(&copy_ms, e0, e1));

  probe::kernel_spans::instance().enable();

  napkin::detail::cupti_initialization cupti;
  auto chip = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  CK(cuptiDeviceGetChipName(&chip));
  const napkin::detail::pm_sampling_config config(chip.pChipName, probe::base_metrics(chip.pChipName));
  napkin::detail::pm_sampler sampler(0, config, interval, std::size_t(512) << 20, 64,
                                     sysclk ? CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL
                                            : CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL);
  std::vector<napkin::pm_sample> samples;
  std::mutex m;
  double decode_cpu = 0;
  std::size_t decodes = 0;
  const auto drain = [&] {
    const std::lock_guard<std::mutex> lock(m);
    const double c0 = napkin::detail::thread_cpu_seconds();
    sampler.decode([&](std::uint64_t t0, std::uint64_t t1,
                       const double* v) { samples.push_back(napkin::detail::monitor_sample(t0, t1, v)); });
    decode_cpu += napkin::detail::thread_cpu_seconds() - c0;
    ++decodes;
  };
  sampler.start();
  std::atomic<bool> done{false};
  std::thread decoder([&] {
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(drain_ms));
      drain();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // past the setup sample
  const std::size_t samples_before_work = [&] {
    const std::lock_guard<std::mutex> lock(m);
    return samples.size();
  }();

  std::mt19937 rng(27);
  std::uniform_real_distribution<double> dur(0.1, 3.0), gap(0.0, 3.0), u(0.0, 1.0);
  const auto wall0 = std::chrono::steady_clock::now();
  for (int i = 0; i < items; ++i) {
    const double target_ms = dur(rng);
    if (u(rng) < 0.5) {
      const int iters = std::max(16, static_cast<int>(2048 * target_ms / fma_ms));
      CK(k::fma_loop(b, fma_blocks, 256, iters));
    } else {
      const std::size_t n = std::min(big_n, static_cast<std::size_t>((std::size_t(1) << 26) * target_ms / copy_ms));
      CK(k::copy(a, b, n & ~std::size_t(3)));
    }
    if (u(rng) < 0.3) {
      CK(cudaDeviceSynchronize());
      std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(gap(rng) * 1000)));
    }
  }
  CK(cudaDeviceSynchronize());
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  done = true;
  decoder.join();
  sampler.stop();
  drain();
  struct kernel_span {
    int kind;  // 0 fma, 1 copy
    std::uint64_t start, end;
  };
  std::vector<kernel_span> spans;
  for (const probe::kernel_span& k : probe::kernel_spans::instance().flush()) {
    const int kind = k.name.find("fma_loop") != std::string::npos ? 0 : k.name.find("copy") != std::string::npos ? 1 : -1;
    if (kind >= 0) spans.push_back({kind, k.start, k.end});
  }
  std::sort(spans.begin(), spans.end(), [](const kernel_span& x, const kernel_span& y) { return x.start < y.start; });
  // Keep the windows inside the sequence (from the first kernel's start to the last one's end), well timed.
  std::vector<napkin::pm_sample> w;
  std::size_t stale = 0;
  std::uint64_t prev_end = 0;
  const std::uint64_t first = spans.empty() ? 0 : spans.front().start, last = spans.empty() ? 0 : spans.back().end;
  for (const auto& s : samples) {
    if (s.end_ns <= s.start_ns || s.start_ns < prev_end) {
      ++stale;
      continue;
    }
    prev_end = s.end_ns;
    if (s.start_ns >= first && s.end_ns <= last) w.push_back(s);
  }
  double width = 0;
  for (const auto& s : w) width += static_cast<double>(s.end_ns - s.start_ns);
  width = w.empty() ? 0 : width / static_cast<double>(w.size());
  std::printf("PROBE trigger=%s interval=%llu drain_ms=%ld items=%d kernels=%zu samples=%zu in_sequence=%zu "
              "stale=%zu mean_window_us=%.1f fma_ms=%.3f copy_ms=%.3f wall_s=%.3f\n",
              sysclk ? "sysclk" : "time", static_cast<unsigned long long>(interval), drain_ms, items, spans.size(),
              samples.size(), w.size(), stale, width * 1e-3, fma_ms, copy_ms, wall_s);
  const std::size_t work_samples = samples.size() - samples_before_work;
  std::printf("COST decodes=%zu decode_cpu_s=%.4f per_sample_us=%.1f cpu_per_wall=%.4f\n", decodes, decode_cpu,
              samples.empty() ? 0.0 : decode_cpu / static_cast<double>(samples.size()) * 1e6,
              decode_cpu / (wall_s + 0.65));
  (void)work_samples;

  // Least squares r = a f0 + b f1 for SM % and DRAM % at each shift.
  for (int step = -40; step <= 40; ++step) {
    const double delta = width * step / 20.0;
    double g00 = 0, g01 = 0, g11 = 0, bs0 = 0, bs1 = 0, bd0 = 0, bd1 = 0, ss = 0, dd = 0;
    std::size_t j = 0;
    for (const auto& s : w) {
      const double t0 = static_cast<double>(s.start_ns) + delta, t1 = static_cast<double>(s.end_ns) + delta;
      double f[2] = {0, 0};
      while (j < spans.size() && static_cast<double>(spans[j].end) < t0 - 5e7) ++j;
      for (std::size_t q = j; q < spans.size() && static_cast<double>(spans[q].start) < t1; ++q) {
        const double lo = std::max(t0, static_cast<double>(spans[q].start));
        const double hi = std::min(t1, static_cast<double>(spans[q].end));
        if (hi > lo) f[spans[q].kind] += (hi - lo) / (t1 - t0);
      }
      const double sm = s.sm_pct.value_or(0), dr = s.dram_pct.value_or(0);
      g00 += f[0] * f[0];
      g01 += f[0] * f[1];
      g11 += f[1] * f[1];
      bs0 += f[0] * sm;
      bs1 += f[1] * sm;
      bd0 += f[0] * dr;
      bd1 += f[1] * dr;
      ss += sm * sm;
      dd += dr * dr;
    }
    const double det = g00 * g11 - g01 * g01;
    if (det <= 0) continue;
    const double sa = (g11 * bs0 - g01 * bs1) / det, sb = (g00 * bs1 - g01 * bs0) / det;
    const double da = (g11 * bd0 - g01 * bd1) / det, db = (g00 * bd1 - g01 * bd0) / det;
    const double rss_sm = ss - 2 * (sa * bs0 + sb * bs1) + sa * sa * g00 + 2 * sa * sb * g01 + sb * sb * g11;
    const double rss_dr = dd - 2 * (da * bd0 + db * bd1) + da * da * g00 + 2 * da * db * g01 + db * db * g11;
    const double n = static_cast<double>(w.size());
    std::printf("SHIFT delta_us=%.1f (%.2f windows) sm: fma=%.2f copy=%.2f rms=%.3f  dram: fma=%.2f copy=%.2f "
                "rms=%.3f\n",
                delta * 1e-3, step / 20.0, sa, sb, std::sqrt(std::max(0.0, rss_sm) / n), da, db,
                std::sqrt(std::max(0.0, rss_dr) / n));
  }
  if (detail) {
    for (const auto& s : samples)
      std::fprintf(detail, "S %llu %llu %.3f %.3f %.0f\n", static_cast<unsigned long long>(s.start_ns),
                   static_cast<unsigned long long>(s.end_ns), s.sm_pct.value_or(-1), s.dram_pct.value_or(-1),
                   s.elapsed_cycles.value_or(-1));
    for (const auto& k : spans)
      std::fprintf(detail, "K %d %llu %llu\n", k.kind, static_cast<unsigned long long>(k.start),
                   static_cast<unsigned long long>(k.end));
    std::fclose(detail);
  }
  cudaFree(a);
  cudaFree(b);
  return 0;
}
