// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md: when does CUPTI's PM sampling return samples without a usable time
// (zero-length, stamped with a stale time)? Runs the monitor's accuracy sequence (copy, softmax, FMA loop,
// SGEMM, shared-memory reduction, strided read; 3 launches each with an idle gap of 8 intervals) under a bare
// pm_sampler with the monitor's metrics, and prints every sample and every launch (host cuptiGetTimestamp
// before the launch and after its synchronize) so that the stale runs can be placed against the work.
//
//   nvcc -std=c++17 -arch=sm_90 -Iinclude -Iexamples/kernels benchmarks/device/pm_timestamp_probe.cu \
//     -o /tmp/pmts -lcupti -lcublas && /tmp/pmts time|sysclk INTERVAL live|end [samples.txt] [PERIOD_MS] [IMAGE] [EXTRA]
//
// time: GPU-time trigger, INTERVAL in ns (the monitor's mode); sysclk: SYS clock trigger, INTERVAL in cycles.
// live: a thread decodes every PERIOD_MS (default 10) while the work runs, as the monitor does; end: decode
// after stop only. IMAGE: samples the counter-data image holds (default 256); decodes append to it, and a
// decode that fills it goes on in an emptied one, as often as the buffer needs (such decodes are counted,
// with the stale samples they returned: before 2026-11-28 every decode started on an emptied image, and
// the runs in docs/device.md up to the "Sample-loss session" were made so). EXTRA: metrics sampled beside the monitor's seven, comma-separated (e.g.
// gpu__time_duration.sum,sys__cycles_elapsed.max): each one's ratio to the sample's own time on the timed
// samples, and its sum over each run of samples without a usable time against the stretch the run leaves.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cupti_activity.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gemm_cublas.cuh"
#include "kernels.cuh"
#include "napkin/monitor/pm_sampler.hpp"
#include "napkin/cupti/session.hpp"
#include "probe_support.cuh"

namespace k = napkin_kernels;

#define CK PROBE_CHECK

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s time|sysclk INTERVAL live|end [samples.txt]\n", argv[0]);
    return 2;
  }
  const bool sysclk = std::string(argv[1]) == "sysclk";
  const std::uint64_t interval = std::strtoull(argv[2], nullptr, 10);
  const bool live = std::string(argv[3]) == "live";
  FILE* detail_out = argc > 4 ? std::fopen(argv[4], "w") : nullptr;
  const long period_ms = argc > 5 ? std::atol(argv[5]) : 10;
  const std::uint32_t image = argc > 6 ? static_cast<std::uint32_t>(std::atol(argv[6])) : 256;
  std::vector<std::string> extra;
  if (argc > 7)
    for (std::string list = argv[7]; !list.empty();) {
      const std::size_t comma = list.find(',');
      extra.push_back(list.substr(0, comma));
      list = comma == std::string::npos ? "" : list.substr(comma + 1);
    }

  CK(cudaFree(nullptr));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t big_n = std::size_t(1) << 27;  // 512 MiB of floats in each buffer
  float *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, big_n * sizeof(float)));
  CK(cudaMalloc(&b, big_n * sizeof(float)));
  CK(k::fill_pattern(a, big_n));
  cublasHandle_t blas = nullptr;
  CK(cublasCreate(&blas));
  CK(cudaDeviceSynchronize());

  napkin::detail::cupti_initialization cupti;
  auto chip = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  CK(cuptiDeviceGetChipName(&chip));
  std::vector<std::string> metrics = probe::base_metrics(chip.pChipName);
  const std::size_t base = metrics.size();
  metrics.insert(metrics.end(), extra.begin(), extra.end());
  const napkin::detail::pm_sampling_config config(chip.pChipName, metrics);
  std::vector<std::vector<double>> extra_values;  // per sample
  napkin::detail::pm_sampler sampler(0, config, interval, std::size_t(512) << 20, image,
                                     sysclk ? CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL
                                            : CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL);
  std::vector<napkin::pm_sample> samples;
  std::mutex m;
  std::size_t decodes = 0, steps_over_one = 0, most_in_a_decode = 0;
  std::vector<std::size_t> step_of;  // 1 for each sample of a decode that filled the image, else 0
  const auto drain = [&] {
    const std::lock_guard<std::mutex> lock(m);
    std::size_t before = samples.size();
    const napkin::detail::pm_decode_result r = sampler.decode(
        [&](std::uint64_t t0, std::uint64_t t1, const double* v) {
          samples.push_back(napkin::detail::monitor_sample(t0, t1, v));
          extra_values.emplace_back(v + base, v + base + extra.size());
        },
        64);
    ++decodes;
    const std::size_t got = samples.size() - before;
    if (r.images_filled > 0) ++steps_over_one;
    most_in_a_decode = std::max(most_in_a_decode, got);
    for (std::size_t i = 0; i < got; ++i) step_of.push_back(r.images_filled > 0 ? 1 : 0);
  };
  sampler.start();
  std::atomic<bool> done{false};
  std::thread decoder;
  if (live)
    decoder = std::thread([&] {
      while (!done) {
        std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
        drain();
      }
    });

  struct launch {
    const char* name;
    std::uint64_t t0, t1;
  };
  std::vector<launch> launches;
  const unsigned grid = static_cast<unsigned>(sms) * 8;
  const std::pair<const char*, std::function<void()>> kernels[] = {
      {"copy", [&] { CK(k::copy(a, b, big_n)); }},
      {"softmax", [&] { CK(k::softmax_smem_naive(a, b, 8192, 16384)); }},
      {"fma", [&] { CK(k::fma_loop(b, static_cast<unsigned>(sms) * 16, 256, 8192)); }},
      {"sgemm", [&] { CK(k::sgemm(blas, 4096, 4096, 4096, a, a + 4096 * 4096, b)); }},
      {"smem_reduce", [&] { CK(k::smem_tree_reduce(a, std::size_t(1) << 24, 16, b)); }},
      {"strided", [&] { CK(k::strided_read(a, big_n, 32, b, grid)); }},
  };
  const auto gap = std::chrono::nanoseconds(8 * (sysclk ? interval / 2 : interval));  // sysclk ~2 cycles/ns
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // past the setup sample
  for (const auto& [name, run] : kernels)
    for (int i = 0; i < 3; ++i) {
      launch l{name, 0, 0};
      CK(cuptiGetTimestamp(&l.t0));
      run();
      CK(cudaDeviceSynchronize());
      CK(cuptiGetTimestamp(&l.t1));
      launches.push_back(l);
      std::this_thread::sleep_for(gap);
    }
  done = true;
  if (decoder.joinable()) decoder.join();
  sampler.stop();
  drain();

  // Every sample, flagged when it starts before the previous one ended; then the runs of such samples.
  std::size_t stale = 0, runs = 0;
  std::uint64_t prev_end = 0;
  double run_cycles = 0, ns_per_cycle = 0;
  std::vector<double> run_extra(extra.size(), 0.0), ratio_sum(extra.size(), 0.0);
  std::size_t timed = 0;
  std::size_t run_len = 0, run_first = 0;
  const auto phase_at = [&](std::uint64_t t) -> std::string {
    for (const launch& l : launches)
      if (t >= l.t0 && t < l.t1) return l.name;
    return "-";
  };
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const napkin::pm_sample& s = samples[i];
    const bool bad = prev_end != 0 && s.start_ns < prev_end;
    if (detail_out)
      std::fprintf(detail_out, "%zu step=%zu %llu %llu %llu cycles=%.0f sm=%.2f dram=%.2f bytes=%.0f %s %s\n", i,
                   i < step_of.size() ? step_of[i] : 0,
                   static_cast<unsigned long long>(s.start_ns), static_cast<unsigned long long>(s.end_ns),
                   static_cast<unsigned long long>(s.end_ns - s.start_ns), s.elapsed_cycles.value_or(-1),
                   s.sm_pct.value_or(-1), s.dram_pct.value_or(-1),
                   s.dram_read_bytes.value_or(0) + s.dram_write_bytes.value_or(0), bad ? "STALE" : "ok",
                   bad ? "" : phase_at(s.start_ns).c_str());
    if (bad) {
      if (run_len++ == 0) run_first = i;
      run_cycles += s.elapsed_cycles.value_or(0);
      for (std::size_t k = 0; k < extra.size(); ++k) run_extra[k] += extra_values[i][k];
      ++stale;
      continue;
    }
    if (run_len > 0) {
      ++runs;
      std::printf("RUN samples %zu-%zu (%zu) stamped %llu, cycles %.0f (%.2f ms at the good samples' clock), "
                  "stretch %llu -> %llu (%.2f ms), sm of the run: first %.1f last %.1f\n",
                  run_first, i - 1, run_len, static_cast<unsigned long long>(samples[run_first].start_ns), run_cycles,
                  run_cycles * ns_per_cycle * 1e-6, static_cast<unsigned long long>(prev_end),
                  static_cast<unsigned long long>(s.start_ns), (s.start_ns - prev_end) * 1e-6,
                  samples[run_first].sm_pct.value_or(-1), samples[i - 1].sm_pct.value_or(-1));
      for (std::size_t k = 0; k < extra.size(); ++k)
        std::printf("RUN    %s summed %.0f (stretch %.0f ns)\n", extra[k].c_str(), run_extra[k],
                    static_cast<double>(s.start_ns - prev_end));
      run_len = 0;
      run_cycles = 0;
      std::fill(run_extra.begin(), run_extra.end(), 0.0);
    }
    if (s.end_ns > s.start_ns) {
      ++timed;
      for (std::size_t k = 0; k < extra.size(); ++k)
        ratio_sum[k] += extra_values[i][k] / static_cast<double>(s.end_ns - s.start_ns);
    }
    if (s.elapsed_cycles && *s.elapsed_cycles > 0)
      ns_per_cycle = static_cast<double>(s.end_ns - s.start_ns) / *s.elapsed_cycles;
    prev_end = s.end_ns;
  }
  if (run_len > 0) std::printf("RUN samples %zu-end (%zu) never followed by a timed sample\n", run_first, run_len);
  for (std::size_t k = 0; k < extra.size(); ++k)
    std::printf("EXTRA %s per ns of the timed samples' own time: %.4f (mean of %zu)\n", extra[k].c_str(),
                timed ? ratio_sum[k] / static_cast<double>(timed) : 0.0, timed);
  std::size_t stale_in_later_steps = 0;
  for (std::size_t i = 0, prev = 0; i < samples.size(); ++i) {
    if (prev != 0 && samples[i].start_ns < prev && i < step_of.size() && step_of[i] > 0) ++stale_in_later_steps;
    if (!(prev != 0 && samples[i].start_ns < prev)) prev = samples[i].end_ns;
  }
  std::printf("PROBE trigger=%s interval=%llu decode=%s period_ms=%ld image=%u decodes=%zu decodes_over_one_image=%zu "
              "most_in_a_decode=%zu image_bytes=%zu samples=%zu stale=%zu stale_in_filling_decodes=%zu runs=%zu first=%llu "
              "last=%llu\n",
              sysclk ? "sysclk" : "time", static_cast<unsigned long long>(interval), live ? "live" : "end", period_ms,
              image, decodes, steps_over_one, most_in_a_decode, sampler.image_bytes(), samples.size(), stale, stale_in_later_steps, runs,
              samples.empty() ? 0ull : static_cast<unsigned long long>(samples.front().start_ns),
              samples.empty() ? 0ull : static_cast<unsigned long long>(samples.back().end_ns));
  for (const launch& l : launches)
    std::printf("LAUNCH %s %llu %llu (%.2f ms)\n", l.name, static_cast<unsigned long long>(l.t0),
                static_cast<unsigned long long>(l.t1), (l.t1 - l.t0) * 1e-6);
  if (detail_out) std::fclose(detail_out);
  cublasDestroy(blas);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
