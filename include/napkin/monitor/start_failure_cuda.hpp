// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/start_failure_cuda.hpp — the CUDA side of start_failure.hpp: a CUPTI status to a reason,
// and the device checks made before CUPTI is touched. The words are start_failure.hpp's (host-tested).
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <optional>
#include <string>

#include "napkin/monitor/start_failure.hpp"

NAPKIN_BEGIN_NAMESPACE

constexpr monitor_start_failure monitor_start_failure_of(CUptiResult status) noexcept {
  switch (status) {
    case CUPTI_ERROR_HARDWARE_BUSY: return monitor_start_failure::busy;
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: return monitor_start_failure::privileges;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED: return monitor_start_failure::mig;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES: return monitor_start_failure::virtualized;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: return monitor_start_failure::another_cupti_client;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_METRIC_NAME:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED: return monitor_start_failure::unsupported;
    case CUPTI_ERROR_NOT_INITIALIZED: return monitor_start_failure::no_device;
    default: return monitor_start_failure::other;
  }
}

// The status() message when `device` cannot be monitored before CUPTI is asked anything; nullopt when the
// device count and the CUDA versions allow it.
inline std::optional<std::string> monitor_device_precheck(int device) {
  int count = 0, runtime = 0, driver = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    count = 0;
    (void)cudaGetLastError();  // the failure must not stick to the application's next check
  }
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  const std::optional<monitor_start_failure> why = monitor_precheck(device, count, runtime, driver);
  if (!why) return std::nullopt;
  std::string detail;
  if (*why == monitor_start_failure::old_cuda)
    detail = "runtime " + cuda_version_text(runtime) + ", driver " + cuda_version_text(driver);
  return monitor_start_message(*why, device, count, detail);
}

NAPKIN_END_NAMESPACE
