// napkin::monitor on a multi-phase workload: what docs/monitor.md measures on the GPU machine.
//
//   monitor_workload run [--seconds S | --iterations N] [--monitor on|off] [--interval-us I] [--buffer-mib B]
//                        [--drain-ms D] [--system on|off]
//                        [--sample-ms FOR EVERY]   (NAPKIN_MONITOR's sample=FORms/EVERYms; 0 0: sample=all)
//       (--iterations N: exactly N iterations instead of S seconds, for the wall-time overhead)
//       "prefill" (two SGEMMs), "decode" (16 copies and 4 softmaxes), "sample" (4 small kernels and host
//       waits that leave the GPU idle): 26 kernels per iteration, for S seconds (default 3). Prints
//       WORKLOAD_WALL_S and, with the monitor on, its report and MONITOR_CPU_S.
//   monitor_workload accuracy [--interval-us I] [--drain-ms D] [--monitor off] [--back-to-back R] [--settle-ms M]
//                             [--sample-ms FOR EVERY]
//       13 kernels of distinct character, 0.5-60 ms each on an H100 or H200 (accuracy_launches() lists them
//       with their expected durations), 3 launches each in a phase of its name with idle gaps of 8 intervals,
//       the monitor on (200 us samples): its report, NAPKIN_MONITOR_ROW lines and MONITOR_CPU_S for the
//       comparison with ncu (benchmarks/device/monitor_accuracy.sh runs the same sequence with --monitor off
//       under ncu). --back-to-back R: instead, R rounds of the same kernels with no gaps and no syncs, each
//       round in another order, so that windows hold several kernels (the rate solve's case, docs/monitor.md),
//       at the monitor's default interval and buffers unless --interval-us says otherwise. The monitor starts
//       M ms (default 500) before the sequence, past its setup sample. With --monitor off the sequence runs
//       between cudaProfilerStart() and cudaProfilerStop() (ncu --profile-from-start off sees it alone).
//   monitor_workload plain
//       the accuracy kernels once each, no monitor: the target of ncu.
//   monitor_workload soak [--seconds S] [--interval-us I]
//       the run workload for S seconds at a short interval, printing SOAK lines (resident memory, samples
//       kept, dropped, restarts) every 10 s.
//   monitor_workload coexist
//       monitor on; workload; napkin::profiler measures a copy; workload again: both work, in that order.
//   monitor_workload concurrent
//       two kernels at once on two streams, under the monitor: the report marks them as overlapping.
#include <cublas_v2.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "accuracy_kernels.cuh"
#include "gemm_cublas.cuh"
#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/check/cublas.hpp"
#include "napkin/monitor.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler.hpp"

namespace {

namespace k = napkin_kernels;
namespace mw = napkin_monitor_workload;
constexpr std::size_t big_n = std::size_t(1) << 27;  // 512 MiB of floats
constexpr std::size_t buffer_n = 3 * big_n;            // a and b: 1.5 GiB each
constexpr std::size_t chain_n = std::size_t(1) << 26;  // the pointer chase's chain and the histogram's input
constexpr std::size_t small_n = std::size_t(1) << 24;  // 64 MiB
constexpr int gemm_n = 2048;
constexpr float fma_a = 1.0f - 9.5367431640625e-07f, fma_b = 9.5367431640625e-07f;  // x stays bounded

struct buffers {
  float* a = nullptr;
  float* b = nullptr;
  unsigned* chain = nullptr;
  unsigned* bins = nullptr;
  cublasHandle_t blas = nullptr;
  int sms = 0;
  buffers() {
    NAPKIN_CUDA_CHECK(cudaMalloc(&a, buffer_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&b, buffer_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&chain, chain_n * sizeof(unsigned)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&bins, 8 * sizeof(unsigned)));
    NAPKIN_CUDA_CHECK(k::fill_pattern(a, buffer_n));
    NAPKIN_CUDA_CHECK(k::fill_pattern(b, buffer_n));
    NAPKIN_CUDA_CHECK(cudaMemset(bins, 0, 8 * sizeof(unsigned)));
    mw::mw_setup_chain<<<k::blocks_for(chain_n, 256), 256>>>(chain, chain_n);
    NAPKIN_CUDA_CHECK(cudaGetLastError());
    NAPKIN_CUDA_CHECK(cublasCreate(&blas));
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~buffers() {
    cublasDestroy(blas);
    cudaFree(a);
    cudaFree(b);
    cudaFree(chain);
    cudaFree(bins);
  }
};

void iteration(buffers& s) {
  {
    napkin::range r{"prefill"};
    for (int i = 0; i < 2; ++i) NAPKIN_CUDA_CHECK(k::sgemm(s.blas, gemm_n, gemm_n, gemm_n, s.a, s.a + gemm_n * gemm_n, s.b));
  }
  {
    napkin::range r{"decode"};
    for (int i = 0; i < 16; ++i) NAPKIN_CUDA_CHECK(k::copy(s.a, s.b, small_n));
    for (int i = 0; i < 4; ++i) NAPKIN_CUDA_CHECK(k::softmax_smem_naive(s.a, s.b, 512, 16384));
  }
  {
    napkin::range r{"sample"};
    for (int i = 0; i < 4; ++i) {
      NAPKIN_CUDA_CHECK(k::copy(s.a, s.b, 1 << 16));
      NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
      std::this_thread::sleep_for(std::chrono::microseconds(100));  // the host decides; the GPU waits
    }
  }
}

// S seconds of iterations, or exactly `iterations` of them (a fixed amount of work, for the wall-time overhead).
double run_for(buffers& s, double seconds, long iterations = 0) {
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  int n = 0;
  while (iterations > 0 ? n < iterations : (elapsed < seconds || n < 5)) {
    iteration(s);
    ++n;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void launched() { NAPKIN_CUDA_CHECK(cudaGetLastError()); }

// The accuracy run's kernels, each with the phase it is launched in (its name), and their expected durations
// on an H100 (SXM, 132 SMs at ~1.98 GHz: HBM3 3.35 TB/s, of which a streaming kernel reaches ~2.9; FP32
// 67 TFLOP/s, FP64 33.5) from that arithmetic and from the zoo's sizes measured under ncu on the same chip
// (docs/accuracy.md); an H200 (4.8 TB/s, the same SMs) runs the DRAM-bound ones ~1.4x faster. 0.5-60 ms each.
std::vector<std::pair<const char*, std::function<void()>>> accuracy_launches(buffers& s) {
  const unsigned grid = static_cast<unsigned>(s.sms) * 8;
  return {
      // 1.5 GiB read + 1.5 GiB written = 3.2 GB at ~2.9 TB/s: ~1.1 ms (H200, ~4.2 TB/s: ~0.77 ms).
      {"copy", [&s] { NAPKIN_CUDA_CHECK(k::copy(s.a, s.b, buffer_n)); }},
      // 8192 rows of 16384 floats, three passes: ~2.7 GB at ~2.5 TB/s (75 % of peak): ~1.1 ms (H200 ~0.75).
      {"softmax", [&s] { NAPKIN_CUDA_CHECK(k::softmax_smem_naive(s.a, s.b, 8192, 16384)); }},
      // 132 x 16 x 256 threads x 8192 iterations x 8 chains x 2 = 7.1e10 FLOP at 67 TFLOP/s: ~1.1 ms.
      {"fma", [&s] { NAPKIN_CUDA_CHECK(k::fma_loop(s.b, static_cast<unsigned>(s.sms) * 16, 256, 8192)); }},
      // cuBLAS SGEMM 4096^3: 1.37e11 FLOP at ~58 TFLOP/s (87 % SM): ~2.4-2.7 ms.
      {"sgemm", [&s] { NAPKIN_CUDA_CHECK(k::sgemm(s.blas, 4096, 4096, 4096, s.a, s.a + 4096 * 4096, s.b)); }},
      // 32768 blocks of 512, 16 rounds of a bank-conflicted tree with 9 barriers each: ~1.4 ms.
      {"smem_reduce", [&s] { NAPKIN_CUDA_CHECK(k::smem_tree_reduce(s.a, std::size_t(1) << 24, 16, s.b)); }},
      // 6 sweeps of a sector per lane over 1 GiB (2^23 loads each): 12x the 70 us strided read of 2^22 loads
      // measured on the H200 (docs/monitor.md): ~0.85 ms there, ~1.1 ms on an H100.
      {"strided",
       [&s, grid] {
         mw::mw_strided_passes<<<grid, 256>>>(s.a, big_n * 2, 32, 6, s.b);
         launched();
       }},
      // 8192^2 floats, stores a sector per lane: 1.13 ms on an H100 under ncu (the zoo's transpose_naive).
      {"transpose",
       [&s] {
         mw::mw_transpose_naive<<<dim3(8192 / 32, 8192 / 32), dim3(32, 8)>>>(s.a, s.b, 8192);
         launched();
       }},
      // 4096 re-reads of a 16 KB tile per block: 8x the zoo's 512 (143 us on an H100): ~1.1 ms.
      {"l1_reread",
       [&s] {
         mw::mw_l1_reread<<<static_cast<unsigned>(s.sms) * 4, 256>>>(reinterpret_cast<const float4*>(s.a), 4096,
                                                                     -1.0f, s.b);
         launched();
       }},
      // 2^24 atomicAdds on 8 bins: 4x the zoo's 2^22 (314 us on an H100): ~1.25 ms.
      {"atomics",
       [&s, grid] {
         mw::mw_atomic_histogram<<<grid, 256>>>(s.chain, std::size_t(1) << 24, s.bins);
         launched();
       }},
      // 132 x 8 x 256 threads x 8192 x 8 chains x 2 = 3.5e10 FLOP at 33.5 TFLOP/s (FP64): ~1.07 ms.
      {"fp64_fma",
       [&s, grid] {
         mw::mw_fp64_fma<<<grid, 256>>>(8192, fma_a, fma_b, -1.0, reinterpret_cast<double*>(s.b));
         launched();
       }},
      // __sinf, __expf, rsqrtf chains, 1024 iterations: 0.82 ms on an H100 (the zoo's sfu).
      {"sfu",
       [&s, grid] {
         mw::mw_sfu<<<grid, 256>>>(1024, -100.0f, s.b);
         launched();
       }},
      // One warp, 1536 dependent loads through 256 MiB at ~550 ns each (the zoo's 2048 took 1.12 ms): ~0.84 ms.
      {"pointer_chase",
       [&s] {
         mw::mw_pointer_chase<<<1, 32>>>(s.chain, chain_n, 1536, reinterpret_cast<unsigned*>(s.b));
         launched();
       }},
      // 700,000 iterations: 2/3 of the zoo's long_fma (2^20, 74.2 ms on an H100): ~49.5 ms.
      {"long_fma",
       [&s, grid] {
         mw::mw_long_fma<<<grid, 256>>>(700000, fma_a, fma_b, -1.0f, s.b);
         launched();
       }},
  };
}

// The accuracy kernels once each, one phase each (plain mode; and the warm-up: modules, cuBLAS's heuristics).
void accuracy_kernels(buffers& s) {
  for (const auto& [phase, launch] : accuracy_launches(s)) {
    napkin::range r{phase};
    launch();
  }
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
}

// The accuracy run's launches: each kernel 3 times in a phase of its name, each launch followed by an idle
// gap of 8 intervals, so that no sample window holds two kernels.
void run_accuracy_sequence(buffers& s, long interval) {
  const auto gap = std::chrono::microseconds(8 * interval);
  for (const auto& [phase, launch] : accuracy_launches(s))
    for (int i = 0; i < 3; ++i) {
      {
        napkin::range r{phase};
        launch();
      }
      NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
      std::this_thread::sleep_for(gap);
    }
}

// The same kernels back to back: `rounds` rounds, each in a shuffled order (the same every run), no syncs, no gaps.
void run_back_to_back(buffers& s, int rounds) {
  auto launches = accuracy_launches(s);
  std::mt19937 order(27);
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(launches.begin(), launches.end(), order);
    for (const auto& [phase, launch] : launches) {
      napkin::range range{phase};
      launch();
    }
  }
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
}

long resident_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

napkin::monitor_settings settings_with(long interval_us) {
  napkin::monitor_settings s;
  s.enabled = true;
  if (interval_us > 0) s.interval_ns = static_cast<std::uint64_t>(interval_us) * 1000;
  return s;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "run";
  double seconds = 3;
  bool monitor_on = true, system_on = true;
  long interval_us = 0, iterations = 0, buffer_mib = 0, drain_ms = 0, back_to_back = 0, settle_ms = 500, sample_ms = -1, every_ms = 0;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--monitor") == 0 && i + 1 < argc) monitor_on = std::strcmp(argv[++i], "on") == 0;
    else if (std::strcmp(argv[i], "--system") == 0 && i + 1 < argc) system_on = std::strcmp(argv[++i], "on") == 0;
    else if (std::strcmp(argv[i], "--interval-us") == 0 && i + 1 < argc) interval_us = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) iterations = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--buffer-mib") == 0 && i + 1 < argc) buffer_mib = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--drain-ms") == 0 && i + 1 < argc) drain_ms = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--back-to-back") == 0 && i + 1 < argc) back_to_back = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--settle-ms") == 0 && i + 1 < argc) settle_ms = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--sample-ms") == 0 && i + 2 < argc) {  // sample= FOR/EVERY, in ms
      sample_ms = std::atol(argv[++i]);
      every_ms = std::atol(argv[++i]);
    }
  }
  buffers s;
  iteration(s);  // warm-up: cuBLAS's first call, module loading
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());

  if (mode == "run") {
    if (!monitor_on) {
      std::printf("WORKLOAD_WALL_S monitor=off wall_s=%.4f\n", run_for(s, seconds, iterations));
      return 0;
    }
    napkin::monitor_settings with = settings_with(interval_us);
    with.system = system_on;
    if (buffer_mib > 0) with.hardware_buffer_bytes = static_cast<std::uint64_t>(buffer_mib) << 20;
    if (drain_ms > 0) with.drain_period_ns = static_cast<std::uint64_t>(drain_ms) * 1000000;
    if (sample_ms >= 0) {  // --sample-ms 0 0: all the time; without it, the monitor's default schedule
      with.sample_for_ns = static_cast<std::uint64_t>(sample_ms) * 1000000;
      with.sample_every_ns = static_cast<std::uint64_t>(every_ms) * 1000000;
    }
    napkin::monitor mon(with);
    std::fprintf(stderr, "monitor: %s\n", mon.status().c_str());
    const double wall = run_for(s, seconds, iterations);
    const napkin::monitor_report r = mon.report();
    std::printf("WORKLOAD_WALL_S monitor=on wall_s=%.4f system=%s\n", wall, system_on ? "on" : "off");
    const napkin::monitor::cpu_use cpu = mon.cpu();
    std::printf("MONITOR_CPU_S cpu_s=%.4f wall_s=%.4f decode_s=%.4f activity_s=%.4f attribute_s=%.4f samples=%zu "
                "kernels=%zu\n",
                cpu.total_s(), wall, cpu.decode_s, cpu.activity_s, cpu.attribute_s, cpu.decoded_samples, cpu.kernels);
    const napkin::monitor::decode_wall w = mon.decode_time();
    std::printf("MONITOR_DECODE_WALL decode_s=%.4f evaluate_s=%.4f initialize_s=%.4f\n", w.decode_s, w.evaluate_s,
                w.initialize_s);
    std::printf("MONITOR_DIAGNOSTICS %s\n", mon.diagnostics().c_str());
    std::cout << napkin::to_text(r);
    return mon.running() ? 0 : 1;
  }
  if (mode == "plain") {
    accuracy_kernels(s);
    return 0;
  }
  if (mode == "accuracy") {
    accuracy_kernels(s);  // warm-up: every kernel's module, cuBLAS's heuristics for 4096^3
    // With idle gaps, per-kernel readings need windows no longer than the kernels (>= 500 us here): 200 us by
    // default. CUPTI decodes a 25-50 us sample in ~140-200 us of CPU, slower than they arrive, and the hardware
    // buffer holds ~4,200 samples, 840 ms at 200 us (docs/monitor.md): so the sampled stretch is kept short (3
    // launches of each kernel), stop() ends it, and the buffer is decoded afterwards. Each launch is followed
    // by an idle gap of several windows, so that no window holds two kernels. Back to back, the monitor runs
    // as it is left running: the default interval and buffers, the rate solve separating the kernels.
    const long interval =
        interval_us > 0 ? interval_us : (back_to_back > 0 ? 0 : 200);  // 0: the monitor's default
    napkin::monitor_settings with = settings_with(interval);
    if (back_to_back <= 0) {  // a test of short windows: sampled all the time
      with.hardware_buffer_bytes = std::uint64_t(512) << 20;
      with.max_samples = std::size_t(1) << 20;
      with.sample_for_ns = with.sample_every_ns = 0;
    }
    if (sample_ms >= 0) {
      with.sample_for_ns = static_cast<std::uint64_t>(sample_ms) * 1000000;
      with.sample_every_ns = static_cast<std::uint64_t>(every_ms) * 1000000;
    }
    if (drain_ms > 0) with.drain_period_ns = static_cast<std::uint64_t>(drain_ms) * 1000000;
    const auto sequence = [&] {
      if (back_to_back > 0) run_back_to_back(s, static_cast<int>(back_to_back));
      else run_accuracy_sequence(s, interval);
    };
    if (!monitor_on) {
      NAPKIN_CUDA_CHECK(cudaProfilerStart());  // ncu --profile-from-start off: the sequence alone
      sequence();
      NAPKIN_CUDA_CHECK(cudaProfilerStop());
      return 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    napkin::monitor mon(with);
    std::fprintf(stderr, "monitor: %s\n", mon.status().c_str());
    // The first sample of a session (0.35-0.46 s after the start) is dropped as the setup sample: start after it.
    std::this_thread::sleep_for(std::chrono::milliseconds(settle_ms));
    const auto t1 = std::chrono::steady_clock::now();
    sequence();
    const double sequence_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    mon.stop();  // a defined end: the sampler stops, the buffer is decoded
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const napkin::monitor_report r = mon.report();
    const napkin::monitor::cpu_use cpu = mon.cpu();
    std::printf("WORKLOAD_WALL_S monitor=on wall_s=%.4f sequence_s=%.4f interval_ns=%llu\n", wall, sequence_s,
                static_cast<unsigned long long>(with.interval_ns));
    // CPU over the monitor's whole life (start, settle, sequence, stop's last decode): its share of one core.
    std::printf("MONITOR_CPU_S cpu_s=%.4f wall_s=%.4f decode_s=%.4f activity_s=%.4f attribute_s=%.4f samples=%zu "
                "kernels=%zu\n",
                cpu.total_s(), wall, cpu.decode_s, cpu.activity_s, cpu.attribute_s, cpu.decoded_samples, cpu.kernels);
    const napkin::monitor::decode_wall w = mon.decode_time();
    std::printf("MONITOR_DECODE_WALL decode_s=%.4f evaluate_s=%.4f initialize_s=%.4f\n", w.decode_s, w.evaluate_s,
                w.initialize_s);
    std::cout << napkin::to_text(r) << napkin::to_key_values(r) << "\n";
    std::printf("MONITOR_DIAGNOSTICS %s\n", mon.diagnostics().c_str());
    return mon.status().rfind("sampling", 0) == 0 ? 0 : 1;
  }
  if (mode == "soak") {
    napkin::monitor_settings with = settings_with(interval_us > 0 ? interval_us : 100);
    with.sample_for_ns = with.sample_every_ns = 0;  // a soak samples all the time
    napkin::monitor mon(with);
    std::fprintf(stderr, "monitor: %s\n", mon.status().c_str());
    const auto t0 = std::chrono::steady_clock::now();
    double elapsed = 0, next = 0;
    while (elapsed < seconds) {
      iteration(s);
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (elapsed >= next) {
        const napkin::monitor_report r = mon.report();
        std::printf("SOAK t_s=%.0f rss_kib=%ld running=%d samples_kept=%llu samples_dropped=%llu kernels=%llu "
                    "cpu_s=%.3f\n",
                    elapsed, resident_kib(), mon.running() ? 1 : 0,
                    static_cast<unsigned long long>(r.totals.samples_kept),
                    static_cast<unsigned long long>(r.totals.samples_dropped),
                    static_cast<unsigned long long>(r.kernels.empty() ? 0 : r.kernels.front().totals.count),
                    mon.cpu_seconds());
        std::fflush(stdout);
        next += 10;
      }
    }
    std::printf("MONITOR_DIAGNOSTICS %s\n", mon.diagnostics().c_str());
    return mon.running() ? 0 : 1;
  }
  if (mode == "coexist") {
    napkin::monitor mon(settings_with(interval_us));
    run_for(s, 1);
    napkin::profiler prof;
    const napkin::sol_report m = prof.measure("copy", [&] { NAPKIN_CUDA_CHECK(k::copy(s.a, s.b, big_n)); });
    std::cout << napkin::to_text(m);
    run_for(s, 1);
    const napkin::monitor_report r = mon.report();
    std::cout << napkin::to_text(r);
    std::printf("COEXIST monitor_running=%d profiler_duration_ns=%.0f status=%s\n", mon.running() ? 1 : 0,
                m.duration_ns().value_or(-1), mon.status().c_str());
    return mon.running() && m.duration_ns() ? 0 : 1;
  }
  if (mode == "concurrent") {
    napkin::monitor mon(settings_with(interval_us));
    cudaStream_t s1, s2;
    NAPKIN_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    NAPKIN_CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    for (int i = 0; i < 10; ++i) {
      napkin::range r{"two_streams"};
      // Few blocks each, so that both fit on the GPU at once.
      k::fma_loop_kernel<<<8, 256, 0, s1>>>(s.b, 200000, 0.999f, 0.001f, -1.0f);
      k::strided_read_kernel<<<8, 256, 0, s2>>>(s.a, big_n / 8, 32, s.b + 4096);
      NAPKIN_CUDA_CHECK(cudaGetLastError());
      NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const napkin::monitor_report r = mon.report();
    std::cout << napkin::to_text(r) << napkin::to_key_values(r) << "\n";
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    return mon.running() ? 0 : 1;
  }
  std::fprintf(stderr, "usage: %s run|accuracy|plain|soak|coexist|concurrent [options]\n", argv[0]);
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "monitor_workload: %s\n", e.what());
  return 1;
}
