// SPDX-License-Identifier: Apache-2.0
// The device a profiler measures: the current one, found through the runtime and asked whether it can be
// profiled, with its chip name and which counters are available on it.
//
// Never links libcuda: the two driver entry points needed (the current context and its device) are reached
// through the runtime's cudaGetDriverEntryPointByVersion. Never changes clocks or device settings.
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext/CUdevice types and CUresult (checked through napkin/check/driver.hpp)
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/check/driver.hpp"
#include "napkin/profiler/errors.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// A driver entry point, reached through the runtime (napkin never links libcuda).
template <class Fn>
Fn driver_entry_point(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  NAPKIN_DETAIL_PROFILER_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || fn == nullptr)
    raise_profiler_error(std::string("napkin: driver entry point ") + symbol + " not found through the runtime");
  return reinterpret_cast<Fn>(fn);
}

// The current device and its context (made current by the runtime if there was none).
struct current_device {
  int index = -1;
  CUcontext context = nullptr;
  CUdevice device = 0;
};

inline current_device find_current_device() {
  current_device d;
  NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaGetDevice(&d.index), "no usable CUDA device or driver");
  NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaFree(nullptr), "cannot create the CUDA context");
  NAPKIN_DETAIL_PROFILER_CHECK(driver_entry_point<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&d.context));
  if (d.context == nullptr) raise_profiler_error("napkin: no current CUDA context");
  NAPKIN_DETAIL_PROFILER_CHECK(driver_entry_point<CUresult (*)(CUdevice*)>("cuCtxGetDevice")(&d.device));
  return d;
}

// Why cuptiProfilerDeviceSupported said no, in words.
inline std::string why_unsupported(const CUpti_Profiler_DeviceSupported_Params& p) {
  std::string why;
  auto add = [&why](CUpti_Profiler_Support_Level level, const char* text) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why += (why.empty() ? "" : "; ") + std::string(text);
  };
  add(p.architecture, "architecture too old (compute capability 7.5 or newer needed)");
  add(p.sli, "SLI is enabled");
  add(p.vGpu, p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "vGPU profiling is disabled by the hypervisor"
                                                              : "vGPU not supported");
  add(p.confidentialCompute, "confidential computing is enabled");
  add(p.cmp, "CMP (crypto-mining) device");
  add(p.wsl, "WSL without profiling support (driver >= 525 on Windows 11 needed)");
  return why.empty() ? "reason not reported by CUPTI (MIG or MPS?)" : why;
}

// After cuptiProfilerInitialize: refuses a device CUPTI cannot range-profile, saying why.
inline void require_range_profiling(const current_device& d) {
  auto supported = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
  supported.cuDevice = d.device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerDeviceSupported(&supported));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    raise_profiler_error(CUPTI_ERROR_NOT_SUPPORTED, "napkin: range profiling is not supported on device " +
                                                        std::to_string(d.index) + ": " + why_unsupported(supported));
}

// CUPTI's name of the device's chip ("GH100").
inline std::string chip_name(const current_device& d) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = static_cast<std::size_t>(d.index);
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiDeviceGetChipName(&p));
  return p.pChipName;
}

// Which counters the context can collect now (another client may hold some).
inline std::vector<std::uint8_t> counter_availability(const current_device& d) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  p.ctx = d.context;
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerGetCounterAvailability(&p));  // the size
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
