// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/start_failure.hpp — why napkin::monitor could not start sampling, as the one message its
// status() gives: what happened and what to do; the program runs on without the monitor. Plain C++17, no
// CUDA: the CUDA side (start_failure_cuda.hpp) maps a CUPTI status or a device check to a reason here, so
// that host tests cover every message.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

enum class monitor_start_failure {
  no_device,             // no CUDA device (or driver) at all
  bad_device,            // the device index is not one of this process's devices
  old_cuda,              // PM sampling needs CUDA 12.6 or newer (runtime and driver)
  busy,                  // another profiling client holds the performance monitors (CUPTI_ERROR_HARDWARE_BUSY)
  privileges,            // GPU counters are restricted to administrators (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
  mig,                   // a MIG instance (CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED)
  virtualized,           // a vGPU that does not allow profiling
  another_cupti_client,  // ncu, nsys, a sanitizer or a library using CUPTI in this process
  unsupported,           // a chip or configuration without PM sampling or without the one-pass set
  other,                 // anything else: the detail says what
};

// PM sampling (cupti_pmsampling.h) appeared in CUDA 12.6: cudaRuntimeGetVersion / cudaDriverGetVersion form.
inline constexpr int monitor_min_cuda_version = 12060;

// "12.6" from 12060.
inline std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// What can be told before touching CUPTI: the device index against the device count, the CUDA versions.
inline std::optional<monitor_start_failure> monitor_precheck(int device, int device_count, int runtime_version,
                                                             int driver_version) {
  if (device_count <= 0) return monitor_start_failure::no_device;
  if (device < 0 || device >= device_count) return monitor_start_failure::bad_device;
  if (runtime_version < monitor_min_cuda_version || driver_version < monitor_min_cuda_version)
    return monitor_start_failure::old_cuda;
  return std::nullopt;
}

// The status() text: "off: <what happened> <what to do> The program runs on without the monitor." and,
// when given, the failed call's own words after "Detail: ".
inline std::string monitor_start_message(monitor_start_failure why, int device, int device_count = -1,
                                         std::string_view detail = {}) {
  const std::string dev = "device " + std::to_string(device);
  std::string what;
  switch (why) {
    case monitor_start_failure::no_device:
      what = "no CUDA device is visible to this process. Check the driver (nvidia-smi) and CUDA_VISIBLE_DEVICES.";
      break;
    case monitor_start_failure::bad_device:
      what = dev + " does not exist" +
             (device_count >= 0 ? " (this process sees " + std::to_string(device_count) + " device" +
                                      (device_count == 1 ? "" : "s") + ", numbered from 0)"
                                : std::string()) +
             ". Set NAPKIN_MONITOR=device=<n> (or monitor_settings::device) to one of them; CUDA_VISIBLE_DEVICES "
             "renumbers devices.";
      break;
    case monitor_start_failure::old_cuda:
      what = "PM sampling needs CUDA " + cuda_version_text(monitor_min_cuda_version) +
             " or newer in both the runtime and the driver. Build with a newer toolkit and update the driver.";
      break;
    case monitor_start_failure::busy:
      what = "the GPU's performance monitors on " + dev +
             " are held by another profiling client: napkin::profiler in this process (measure(), per_kernel(), "
             "a scope), or ncu, nsys, DCGM profiling or another process. Start the monitor when it is done "
             "(napkin::profiler pauses running monitors itself), or stop the other tool (e.g. `dcgmi profile "
             "--pause`).";
      break;
    case monitor_start_failure::privileges:
      what = "GPU performance counters are restricted to administrators on this machine. Run as root, or "
             "load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0 "
             "(https://developer.nvidia.com/ERR_NVGPUCTRPERM); in a container add --cap-add SYS_ADMIN.";
      break;
    case monitor_start_failure::mig:
      what = dev + " is a MIG instance, where PM sampling is not available. Monitor on a full GPU (MIG off).";
      break;
    case monitor_start_failure::virtualized:
      what = dev + " is a virtual GPU that does not let this guest profile. The hypervisor's administrator "
             "must enable profiling for the vGPU.";
      break;
    case monitor_start_failure::another_cupti_client:
      what = "another CUPTI client is attached to this process (ncu, nsys, compute-sanitizer, cuda-gdb or a "
             "library using CUPTI). Run without it, or profile with that tool instead.";
      break;
    case monitor_start_failure::unsupported:
      what = "PM sampling of the monitor's one-pass metric set is not supported on " + dev +
             " (it is on GH100 and GB100: H100, H200, B200). Use napkin::profiler's measure() there.";
      break;
    case monitor_start_failure::other:
      what = "sampling could not start on " + dev + ".";
      break;
  }
  std::string out = "off: " + what + " The program runs on without the monitor.";
  if (!detail.empty()) out += " Detail: " + std::string(detail);
  return out;
}

NAPKIN_END_NAMESPACE
