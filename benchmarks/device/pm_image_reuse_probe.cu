// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md: (1) what initializing a PM-sampling counter-data image costs by its size, and
// (2) whether cuptiPmSamplingDecodeData appends to an image that already holds samples (no re-initialization
// between decodes), which would let a large image's initialization be paid once per many decodes. The
// monitor's metrics on device 0, 1 ms samples, a 64 MiB buffer; a spin kernel keeps the GPU busy.
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude -I/usr/local/cuda/extras/CUPTI/include \
//     benchmarks/device/pm_image_reuse_probe.cu -o /tmp/pmreuse -L/usr/local/cuda/extras/CUPTI/lib64 -lcupti
//   /tmp/pmreuse
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "napkin/cupti/session.hpp"
#include "napkin/monitor/pm_sampler.hpp"

#define CK(x)                                                             \
  do {                                                                    \
    if ((x) != 0) {                                                       \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

__global__ void spin(float* out, int n) {
  float x = static_cast<float>(threadIdx.x);
  for (int i = 0; i < n; ++i) x = x * 0.999f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main() {
  float* buf = nullptr;
  CK(cudaMalloc(&buf, 1024 * 256 * sizeof(float)));
  const auto busy = [&](double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      for (int i = 0; i < 20; ++i) spin<<<1024, 256>>>(buf, 20000);
      cudaDeviceSynchronize();
    }
  };
  napkin::detail::cupti_initialization cupti;
  const std::string chip = napkin::detail::pm_sampling_chip(0);
  const napkin::detail::pm_sampling_config config(chip, napkin::detail::monitor_metrics(chip));
  auto names = napkin::detail::c_names(config.metrics());

  auto enable = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
  enable.deviceIndex = 0;
  CK(cuptiPmSamplingEnable(&enable));
  CUpti_PmSampling_Object* object = enable.pPmSamplingObject;
  auto set = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
  set.pPmSamplingObject = object;
  set.configSize = config.image().size();
  set.pConfig = config.image().data();
  set.hardwareBufferSize = std::size_t{64} << 20;
  set.samplingInterval = 1'000'000;
  set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  CK(cuptiPmSamplingSetConfig(&set));

  std::vector<std::uint8_t> image;
  const auto size_for = [&](std::size_t samples) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    p.pPmSamplingObject = object;
    p.pMetricNames = names.data();
    p.numMetrics = names.size();
    p.maxSamples = samples;
    return cuptiPmSamplingGetCounterDataSize(&p) == CUPTI_SUCCESS ? p.counterDataSize : 0;
  };
  const auto initialize = [&](std::size_t bytes) {
    if (image.size() < bytes) image.resize(bytes);
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    p.pPmSamplingObject = object;
    p.counterDataSize = bytes;
    p.pCounterData = image.data();
    return cuptiPmSamplingCounterDataImageInitialize(&p);
  };
  // (1) Initialization and size queries by image size.
  for (std::size_t n : {16, 64, 256, 1024, 4096}) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t bytes = size_for(n);
    const auto t1 = std::chrono::steady_clock::now();
    double init_ms = 0;
    for (int rep = 0; rep < 3; ++rep) {
      const auto a = std::chrono::steady_clock::now();
      if (initialize(bytes) != CUPTI_SUCCESS) std::printf("INIT %zu failed\n", n);
      init_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count() / 3;
    }
    std::printf("SIZE samples=%zu bytes=%zu per_sample=%.0f size_query_us=%.1f initialize_ms=%.3f\n", n, bytes,
                static_cast<double>(bytes) / static_cast<double>(n),
                std::chrono::duration<double, std::micro>(t1 - t0).count(), init_ms);
  }
  // (2) Two decodes into one image of 512 samples, initialized once.
  const std::size_t bytes = size_for(512);
  CK(initialize(bytes));
  auto start = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
  start.pPmSamplingObject = object;
  CK(cuptiPmSamplingStart(&start));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> first_times;
  for (int round = 0; round < 3; ++round) {
    busy(0.1);
    auto d = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
    d.pPmSamplingObject = object;
    d.pCounterDataImage = image.data();
    d.counterDataImageSize = bytes;
    const CUptiResult decoded = cuptiPmSamplingDecodeData(&d);
    auto info = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = image.data();
    info.counterDataImageSize = bytes;
    CK(cuptiPmSamplingGetCounterDataInfo(&info));
    std::size_t same_as_before = 0, abut = 0;
    std::uint64_t prev_end = 0;
    for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
      auto si = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
      si.pPmSamplingObject = object;
      si.pCounterDataImage = image.data();
      si.counterDataImageSize = bytes;
      si.sampleIndex = i;
      CK(cuptiPmSamplingCounterDataGetSampleInfo(&si));
      if (round == 0) first_times.emplace_back(si.startTimestamp, si.endTimestamp);
      else if (i < first_times.size() && first_times[i].first == si.startTimestamp) ++same_as_before;
      if (i > 1 && si.startTimestamp == prev_end) ++abut;
      prev_end = si.endTimestamp;
    }
    std::printf("DECODE round=%d result=%d stop_reason=%d total=%zu populated=%zu completed=%zu "
                "same_as_first_decode=%zu abutting=%zu\n",
                round, static_cast<int>(decoded), static_cast<int>(d.decodeStopReason), info.numTotalSamples,
                info.numPopulatedSamples, info.numCompletedSamples, same_as_before, abut);
  }
  auto stop = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
  stop.pPmSamplingObject = object;
  cuptiPmSamplingStop(&stop);
  auto disable = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
  disable.pPmSamplingObject = object;
  cuptiPmSamplingDisable(&disable);
  cudaFree(buf);
  return 0;
}
