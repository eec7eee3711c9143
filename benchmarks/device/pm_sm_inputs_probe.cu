// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md (issue 27, items 1 and 4): the monitor's SM % reading,
// TriageCompute.sm__throughput, is a maximum over sub-unit throughputs, and a maximum of window averages is not
// the time-weighted sum of each kernel's maximum (pm_alignment_probe.cu: DRAM % fits that model to 0.03
// points, SM % misses by 11). This probe samples, in the same one pass, the TriageCompute counters that such a
// maximum can be built from (each a counter over elapsed cycles, so additive over time), on the monitor
// workload's 13 kernels, and dumps every sample and every kernel record for an offline solve
// (benchmarks/device/pm_sm_inputs_solve.py).
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -Iexamples/kernels -Iexamples/monitor \
//     benchmarks/device/pm_sm_inputs_probe.cu -o /tmp/pmsm -lcupti -lcublas -L/usr/local/cuda/extras/CUPTI/lib64
//   /tmp/pmsm alone|mix|ncu INTERVAL_NS OUT.txt [EXTRA]
// EXTRA: sample the monitor's own set (napkin::detail::monitor_metrics) and these base metrics, comma-separated,
// instead of the probe's set (benchmarks/device/pm_inputs_check.py compares each with ncu's).
// alone: each kernel back to back for ~60 ms, then 20 ms idle (windows that hold one kernel: its own inputs).
// mix: 10 shuffled rounds of the 13 kernels back to back (the monitor's accuracy sequence (a)).
// ncu: each kernel once, no sampler (run under ncu --metrics breakdown:sm__throughput...).
#include <cublas_v2.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cupti_activity.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "accuracy_kernels.cuh"
#include "gemm_cublas.cuh"
#include "kernels.cuh"
#include "napkin/cupti/session.hpp"
#include "probe_support.cuh"
#include "napkin/monitor/pm_sampler.hpp"

namespace k = napkin_kernels;
namespace mw = napkin_monitor_workload;

#define CK PROBE_CHECK

namespace {
const char* const sm_inputs[] = {
    "TPC.TriageCompute.sm__inst_executed_realtime",
    "TPC.TriageCompute.sm__inst_executed_pipe_alu_realtime",
    "TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime",
    "TPC.TriageCompute.sm__inst_executed_pipe_fmaheavy_realtime",
    "TPC.TriageCompute.sm__inst_executed_pipe_fmalite_realtime",
    "TPC.TriageCompute.sm__pipe_fp64_cycles_active_realtime",
    "TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime",
    "SM_A.TriageCompute.sm__inst_executed_pipe_uniform_realtime",
    "SM_A.TriageCompute.sm__inst_executed_pipe_xu_realtime",
    "SM_A.TriageCompute.l1tex__data_pipe_lsu_wavefronts",
    "SM_A.TriageCompute.l1tex__data_pipe_lsu_wavefronts_mem_shared",
    "SM_A.TriageCompute.l1tex__lsu_writeback_active",
    "SM_A.TriageCompute.l1tex__data_pipe_tex_wavefronts",
    "SM_A.TriageCompute.l1tex__tex_writeback_active",
    "TPC.TriageCompute.sm__cycles_active",
    "TPC.TriageCompute.sm__pipe_tensor_op_hmma_cycles_active_realtime",
};

constexpr std::size_t big_n = std::size_t(1) << 27;
constexpr std::size_t buffer_n = 3 * big_n;
constexpr std::size_t chain_n = std::size_t(1) << 26;
constexpr float fma_a = 1.0f - 9.5367431640625e-07f, fma_b = 9.5367431640625e-07f;
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s alone|mix|ncu INTERVAL_NS OUT.txt [EXTRA,...]\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const std::uint64_t interval = std::strtoull(argv[2], nullptr, 10);
  FILE* out = std::fopen(argv[3], "w");
  float *a = nullptr, *b = nullptr;
  unsigned *chain = nullptr, *bins = nullptr;
  CK(cudaMalloc(&a, buffer_n * sizeof(float)));
  CK(cudaMalloc(&b, buffer_n * sizeof(float)));
  CK(cudaMalloc(&chain, chain_n * sizeof(unsigned)));
  CK(cudaMalloc(&bins, 8 * sizeof(unsigned)));
  CK(k::fill_pattern(a, buffer_n));
  CK(k::fill_pattern(b, buffer_n));
  CK(cudaMemset(bins, 0, 8 * sizeof(unsigned)));
  mw::mw_setup_chain<<<k::blocks_for(chain_n, 256), 256>>>(chain, chain_n);
  cublasHandle_t blas = nullptr;
  CK(cublasCreate(&blas));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned grid = static_cast<unsigned>(sms) * 8;
  const std::vector<std::pair<const char*, std::function<void()>>> kernels = {
      {"copy", [&] { CK(k::copy(a, b, buffer_n)); }},
      {"softmax", [&] { CK(k::softmax_smem_naive(a, b, 8192, 16384)); }},
      {"fma", [&] { CK(k::fma_loop(b, static_cast<unsigned>(sms) * 16, 256, 8192)); }},
      {"sgemm", [&] { CK(k::sgemm(blas, 4096, 4096, 4096, a, a + 4096 * 4096, b)); }},
      {"smem_reduce", [&] { CK(k::smem_tree_reduce(a, std::size_t(1) << 24, 16, b)); }},
      {"strided", [&] { mw::mw_strided_passes<<<grid, 256>>>(a, big_n * 2, 32, 6, b); }},
      {"transpose", [&] { mw::mw_transpose_naive<<<dim3(8192 / 32, 8192 / 32), dim3(32, 8)>>>(a, b, 8192); }},
      {"l1_reread",
       [&] { mw::mw_l1_reread<<<static_cast<unsigned>(sms) * 4, 256>>>(reinterpret_cast<const float4*>(a), 4096, -1.0f, b); }},
      {"atomics", [&] { mw::mw_atomic_histogram<<<grid, 256>>>(chain, std::size_t(1) << 24, bins); }},
      {"fp64_fma", [&] { mw::mw_fp64_fma<<<grid, 256>>>(8192, fma_a, fma_b, -1.0, reinterpret_cast<double*>(b)); }},
      {"sfu", [&] { mw::mw_sfu<<<grid, 256>>>(1024, -100.0f, b); }},
      {"pointer_chase", [&] { mw::mw_pointer_chase<<<1, 32>>>(chain, chain_n, 1536, reinterpret_cast<unsigned*>(b)); }},
      {"long_fma", [&] { mw::mw_long_fma<<<grid, 256>>>(700000, fma_a, fma_b, -1.0f, b); }},
  };
  // Warm-up (modules, cuBLAS) and each kernel's duration.
  std::vector<float> ms(kernels.size());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    kernels[i].second();
    CK(cudaEventRecord(e0));
    kernels[i].second();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms[i], e0, e1));
  }
  CK(cudaDeviceSynchronize());
  if (mode == "ncu") {
    CK(cudaProfilerStart());
    for (const auto& kk : kernels) kk.second();
    CK(cudaDeviceSynchronize());
    CK(cudaProfilerStop());
    return 0;
  }

  probe::kernel_spans::instance().enable();
  napkin::detail::cupti_initialization cupti;
  auto chip = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  CK(cuptiDeviceGetChipName(&chip));
  // EXTRA (a comma-separated list of base metrics): the monitor's own set and those, instead of the probe's.
  std::vector<std::string> metrics;
  if (argc > 4) {
    metrics = napkin::detail::monitor_metrics(chip.pChipName);
    for (std::string rest = argv[4]; !rest.empty();) {
      const std::size_t comma = std::min(rest.find(','), rest.size());
      metrics.push_back(rest.substr(0, comma) + ".avg.pct_of_peak_sustained_elapsed");
      rest.erase(0, std::min(comma + 1, rest.size()));
    }
  } else {
    metrics = probe::base_metrics(chip.pChipName);
    for (const char* m : sm_inputs) metrics.push_back(std::string(m) + ".avg.pct_of_peak_sustained_elapsed");
  }
  const napkin::detail::pm_sampling_config config(chip.pChipName, metrics);
  std::fprintf(out, "M");
  for (const auto& m : metrics) std::fprintf(out, " %s", m.c_str());
  std::fprintf(out, "\n");
  napkin::detail::pm_sampler sampler(0, config, interval, std::size_t(512) << 20, 64);
  std::vector<std::vector<double>> rows;
  probe::background_decoder decoder(sampler, [&](std::uint64_t t0, std::uint64_t t1, const double* v) {
    std::vector<double> r{static_cast<double>(t0), static_cast<double>(t1)};
    r.insert(r.end(), v, v + metrics.size());
    rows.push_back(std::move(r));
  });
  decoder.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  const auto wall0 = std::chrono::steady_clock::now();
  if (mode == "alone") {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const int n = std::max(1, static_cast<int>(60.0f / ms[i]));
      for (int j = 0; j < n; ++j) kernels[i].second();
      CK(cudaDeviceSynchronize());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  } else {
    std::mt19937 rng(27);
    std::vector<std::size_t> order(kernels.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (int round = 0; round < 10; ++round) {
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t i : order) kernels[i].second();
    }
    CK(cudaDeviceSynchronize());
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  decoder.stop();
  const double decode_cpu = decoder.decode_cpu_s();
  const std::vector<probe::kernel_span> records = probe::kernel_spans::instance().flush();
  for (std::size_t i = 0; i < kernels.size(); ++i) std::fprintf(out, "D %s %.4f\n", kernels[i].first, ms[i]);
  for (const auto& r : rows) {
    std::fprintf(out, "S %.0f %.0f", r[0], r[1]);
    for (std::size_t j = 2; j < r.size(); ++j) std::fprintf(out, " %.6g", r[j]);
    std::fprintf(out, "\n");
  }
  for (const auto& kr : records)
    std::fprintf(out, "K %llu %llu %s\n", static_cast<unsigned long long>(kr.start),
                 static_cast<unsigned long long>(kr.end), kr.name.c_str());
  std::fprintf(out, "C decode_cpu_s=%.4f wall_s=%.4f samples=%zu\n", decode_cpu, wall, rows.size());
  std::fclose(out);
  std::printf("%s: %zu samples, %zu kernels, decode %.3f s over %.3f s\n", mode.c_str(), rows.size(), records.size(),
              decode_cpu, wall);
  return 0;
}
