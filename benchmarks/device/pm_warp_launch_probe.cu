// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md ("The instruction rate and warp launches"): do PM sampling's instruction counters
// count more than ncu's sm__inst_executed for each warp a kernel launches? The monitor workload's copy and naive
// transpose (8-warp blocks of ~30-40 instructions a warp) read 17-27 % above ncu's instruction rate while every
// kernel of few, long warps reads ncu's (pm_inputs_check.py); that excess is 7-8 instructions a warp on both.
// Here kernels whose instruction count per warp is known by construction run back to back for ~50 ms each with
// 1 ms samples of the monitor's own set, at several block sizes, so that an excess per warp and one per block
// can be told apart, and that it does not grow with the work a warp does.
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -I/usr/local/cuda/extras/CUPTI/include \
//     benchmarks/device/pm_warp_launch_probe.cu -o /tmp/pmwl -lcupti -L/usr/local/cuda/extras/CUPTI/lib64
//   /tmp/pmwl sample            # per case: the sampled instructions per launch (the instruction rate over the
//                               # case's windows, in instructions, over its launches)
//   ncu --profile-from-start off --csv --print-units base --metrics sm__inst_executed.sum,\
//     sm__inst_executed_pipe_alu.sum,sm__warps_launched.sum,sm__ctas_launched.sum /tmp/pmwl ncu
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "napkin/cupti/session.hpp"
#include "probe_support.cuh"

#define CK PROBE_CHECK

namespace {
// No work: what a warp costs to launch and retire.
__global__ void wl_empty() {}

// `n` dependent integer steps a thread, one store no thread makes (the compiler keeps the loop).
__global__ void wl_alu(int n, unsigned* out) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < n; ++i) x = x * 1664525u + 1013904223u;
  if (x == 0xdeadbeefu && n < 0) *out = x;
}

struct case_t {
  const char* name;
  unsigned grid, block;
  int steps;  // < 0: the empty kernel
};
const case_t cases[] = {
    {"empty_b32", 65536, 32, -1},   {"empty_b256", 65536, 256, -1}, {"empty_b1024", 16384, 1024, -1},
    {"alu64_b256", 65536, 256, 64}, {"alu512_b256", 16384, 256, 512},
};

void launch(const case_t& c, unsigned* out) {
  if (c.steps < 0)
    wl_empty<<<c.grid, c.block>>>();
  else
    wl_alu<<<c.grid, c.block>>>(c.steps, out);
}
}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "sample" && mode != "ncu") {
    std::fprintf(stderr, "usage: %s sample|ncu\n", argv[0]);
    return 2;
  }
  unsigned* out = nullptr;
  CK(cudaMalloc(&out, sizeof(unsigned)));
  std::vector<float> ms(std::size(cases));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    launch(cases[i], out);
    CK(cudaEventRecord(e0));
    launch(cases[i], out);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms[i], e0, e1));
  }
  if (mode == "ncu") {
    CK(cudaProfilerStart());
    for (const auto& c : cases) launch(c, out);
    CK(cudaDeviceSynchronize());
    CK(cudaProfilerStop());
    return 0;
  }
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  probe::kernel_spans::instance().enable();
  napkin::detail::cupti_initialization cupti;
  auto chip = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  CK(cuptiDeviceGetChipName(&chip));
  const std::vector<std::string> metrics = napkin::detail::monitor_metrics(chip.pChipName);
  const auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::find(metrics.begin(), metrics.end(), name) - metrics.begin());
  };
  const std::size_t inst = column("TPC.TriageCompute.sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed");
  const std::size_t alu =
      column("TPC.TriageCompute.sm__inst_executed_pipe_alu_realtime.avg.pct_of_peak_sustained_elapsed");
  const std::size_t cycles = column("gpc__cycles_elapsed.max");
  if (inst == metrics.size() || cycles == metrics.size()) {
    std::fprintf(stderr, "chip %s: the monitor's set has no instruction rate\n", chip.pChipName);
    return 1;
  }
  const napkin::detail::pm_sampling_config config(chip.pChipName, metrics);
  napkin::detail::pm_sampler sampler(0, config, 1000000, std::size_t(512) << 20, 64);
  struct row {
    std::uint64_t t0, t1;
    double inst_pct, alu_pct, cycles;
  };
  std::vector<row> rows;
  probe::background_decoder decoder(sampler, [&](std::uint64_t t0, std::uint64_t t1, const double* v) {
    rows.push_back({t0, t1, v[inst], alu < metrics.size() ? v[alu] : 0.0, v[cycles]});
  });
  decoder.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  std::vector<int> launches(std::size(cases));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    launches[i] = std::max(1, static_cast<int>(50.0f / std::max(ms[i], 0.001f)));
    for (int j = 0; j < launches[i]; ++j) launch(cases[i], out);
    CK(cudaDeviceSynchronize());
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  decoder.stop();
  const std::vector<probe::kernel_span> spans = probe::kernel_spans::instance().flush();
  // Each case's span: from its first launch's start to its last's end (the cases run in order, 30 ms apart).
  std::size_t k = 0;
  std::printf("case grid block warps_per_launch launches sampled_inst_per_launch sampled_alu_peak_cycles_per_launch "
              "mean_launch_us\n");
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    while (k < spans.size() && spans[k].name.find(cases[i].steps < 0 ? "wl_empty" : "wl_alu") == std::string::npos) ++k;
    if (k + launches[i] > spans.size()) {
      std::fprintf(stderr, "%s: %zu kernel records, fewer than its launches\n", cases[i].name, spans.size() - k);
      return 1;
    }
    const std::uint64_t begin = spans[k].start, end = spans[k + launches[i] - 1].end;
    double busy_ns = 0;
    for (int j = 0; j < launches[i]; ++j) busy_ns += double(spans[k + j].end - spans[k + j].start);
    k += launches[i];
    // Every window that overlaps the span, whole: outside the span the GPU is idle (the cases are 30 ms apart).
    double count = 0, alu_count = 0;
    for (const row& r : rows)
      if (r.t1 > begin && r.t0 < end) {
        count += r.inst_pct / 100.0 * 4.0 * sms * r.cycles;  // 4 warp instructions a cycle per SM (4 SMSPs)
        alu_count += r.alu_pct / 100.0 * sms * r.cycles;  // in SM cycles at the ALU pipe's peak
      }
    const unsigned warps_per_block = (cases[i].block + 31) / 32;
    std::printf("%s %u %u %llu %d %.1f %.4f %.2f\n", cases[i].name, cases[i].grid, cases[i].block,
                static_cast<unsigned long long>(cases[i].grid) * warps_per_block, launches[i], count / launches[i],
                alu_count / launches[i], busy_ns / launches[i] / 1e3);
  }
  std::printf("samples %zu kernels %zu sms %d chip %s\n", rows.size(), spans.size(), sms, chip.pChipName);
  return 0;
}
