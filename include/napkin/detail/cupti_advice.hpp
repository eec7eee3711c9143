// SPDX-License-Identifier: Apache-2.0
// What a user can do about a CUPTI status, in words: the hint of status_traits<CUptiResult>
// (napkin/check/cupti.hpp), which NAPKIN_CUDA_CHECK on a CUptiResult and every profiler message use.
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// Null when there is nothing better to say than CUPTI's own text.
constexpr const char* cupti_advice(CUptiResult status) noexcept {
  switch (status) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "GPU performance counters are restricted to administrators on this machine "
             "(NVreg_RestrictProfilingToAdminUsers=1, the driver's default). Run as root (or with CAP_SYS_ADMIN; "
             "in a container add --cap-add SYS_ADMIN), or let every user profile: load the nvidia module with "
             "NVreg_RestrictProfilingToAdminUsers=0 (a line `options nvidia NVreg_RestrictProfilingToAdminUsers=0` "
             "in /etc/modprobe.d/, then reload the module or reboot); see "
             "https://developer.nvidia.com/ERR_NVGPUCTRPERM. In a parallel job every rank on that host needs it.";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "the GPU's performance counters are held by another client; one client at a time can use them. "
             "Likely holders: another process profiling this GPU (Nsight Compute ncu, Nsight Systems nsys with "
             "--gpu-metrics-devices, another napkin profiler or napkin::monitor: run one profiling napkin process "
             "per GPU), or DCGM's profiling module (dcgm-exporter's DCP metrics: `dcgmi profile --pause`, then "
             "`dcgmi profile --resume` after). Let ncu/nsys finish or stop them, then retry "
             "(napkin::profiler can wait for them: profiler_options::busy_wait)";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "another CUPTI client is attached to this process (Nsight Compute ncu, Nsight Systems nsys, cuda-gdb or "
             "a library using CUPTI). Run without the other tool, or profile with that tool instead.";
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      return "another part of this process uses an older CUPTI profiling API; CUPTI cannot mix the "
             "generations in one process.";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      return "range profiling is not available on this MIG instance: CUPTI profiles a MIG compute instance only "
             "when it fills its GPU instance (an isolated one), not one that shares its GPU instance with other "
             "compute instances. Profile on an isolated compute instance or on a full GPU (MIG disabled).";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "this virtual GPU does not let this guest profile; the hypervisor administrator must enable "
             "profiling for the vGPU.";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      return "profiling is not available with confidential computing enabled.";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      return "profiling is not available on NVIDIA CMP devices.";
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
      return "profiling is not available with SLI enabled.";
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
      return "profiling under WSL needs driver >= 525 on Windows 11.";
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      return "a metric name is not known for this chip (ncu-only forms such as breakdown:... and launch__... "
             "are not CUPTI metrics); napkin::check_metrics lists which.";
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      return "unknown chip name; napkin::supported_chips() lists the ones this CUPTI knows.";
    case CUPTI_ERROR_NOT_INITIALIZED:
      return "no usable CUDA device or driver.";
    case CUPTI_ERROR_NOT_SUPPORTED:
      return "this CUPTI feature is not supported for this device or configuration.";
    default:
      return nullptr;
  }
}

}  // namespace detail
NAPKIN_END_NAMESPACE
