// SPDX-License-Identifier: Apache-2.0
// The device a profiler measures: the current one or the one named (profiler_options::device), its context,
// the guard that makes that context current for the profiler's own CUDA and CUPTI calls (and the measured
// work) and restores the caller's afterwards, and whether CUPTI can profile the device: its chip name and
// which counters are available on it.
//
// Never links libcuda: the driver entry points needed (the current context, setting it, its device) are
// reached through the runtime's cudaGetDriverEntryPointByVersion. Never changes clocks or device settings.
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext/CUdevice types and CUresult (checked through napkin/check/driver.hpp)
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "napkin/check/driver.hpp"
#include "napkin/cupti/busy.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/detail/device_index.hpp"

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

// The device a profiler measures and the context it measures there.
struct profiled_device {
  int index = -1;
  CUcontext context = nullptr;
  CUdevice device = 0;
};

// The three driver calls the profiler's context handling needs, resolved once (find_device resolves them
// before any guard can need them, so the noexcept paths below find them ready).
struct context_calls {
  CUresult (*get_current)(CUcontext*);
  CUresult (*set_current)(CUcontext);
  CUresult (*get_device)(CUdevice*);
};
inline const context_calls& driver_context_calls() {
  static const context_calls calls{driver_entry_point<CUresult (*)(CUcontext*)>("cuCtxGetCurrent"),
                                   driver_entry_point<CUresult (*)(CUcontext)>("cuCtxSetCurrent"),
                                   driver_entry_point<CUresult (*)(CUdevice*)>("cuCtxGetDevice")};
  return calls;
}

// The calling thread's current CUDA context, through the driver (null when none is current).
inline CUcontext current_context() {
  CUcontext ctx = nullptr;
  NAPKIN_DETAIL_PROFILER_CHECK(driver_context_calls().get_current(&ctx));
  return ctx;
}

// Makes `target` the calling thread's current context for the guard's life, then restores what was current
// (the context, or, on a thread that had none, the runtime's device selection and no context). Does nothing
// when `target` is already current, the usual case of one device per thread. The runtime follows the
// driver's current context, so runtime calls made under the guard (launches too) go to `target`'s device.
// The std::nothrow form is for destructors and other noexcept paths: it stays where it is when a call fails.
class context_guard {
 public:
  explicit context_guard(CUcontext target) {
    saved_ = current_context();
    if (saved_ == target) return;
    if (saved_ == nullptr) NAPKIN_DETAIL_PROFILER_CHECK(cudaGetDevice(&saved_device_));
    NAPKIN_DETAIL_PROFILER_CHECK(driver_context_calls().set_current(target));
    switched_ = true;
  }
  context_guard(CUcontext target, std::nothrow_t) noexcept {
    if (target == nullptr) return;  // nothing to measure on: never switched
    const context_calls& calls = driver_context_calls();  // resolved by find_device before any guard
    if (calls.get_current(&saved_) != CUDA_SUCCESS || saved_ == target) return;
    if (saved_ == nullptr && cudaGetDevice(&saved_device_) != cudaSuccess) return;
    switched_ = calls.set_current(target) == CUDA_SUCCESS;
  }
  context_guard(const context_guard&) = delete;
  context_guard& operator=(const context_guard&) = delete;
  ~context_guard() {
    if (!switched_) return;
    // Statuses are not checked: a destructor has nothing useful to do with them, and making current a
    // context that was current a moment ago does not fail.
    if (saved_ == nullptr) (void)cudaSetDevice(saved_device_);  // the runtime's selection, as before
    (void)driver_context_calls().set_current(saved_);
  }

 private:
  CUcontext saved_ = nullptr;
  int saved_device_ = 0;
  bool switched_ = false;
};

// The device a profiler is asked for (profiler_options::device): -1, the calling thread's current device and
// context (made current by the runtime if there was none); N, device N's primary context (the one the
// runtime uses, created if needed), leaving the calling thread's current device as it was.
inline profiled_device find_device(int requested) {
  int count = 0;
  NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaGetDeviceCount(&count), "no usable CUDA device or driver");
  if (const std::string problem = device_index_problem(requested, count, "profiler_options::device");
      !problem.empty())
    raise_profiler_error(problem);
  profiled_device d;
  if (requested == current_device_index) {
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaGetDevice(&d.index), "no usable CUDA device or driver");
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaFree(nullptr), "cannot create the CUDA context");
    d.context = current_context();
  } else {
    // cudaSetDevice + cudaFree(nullptr) make device N's primary context current (creating it if needed);
    // then the calling thread gets back what it had, as context_guard restores it.
    d.index = requested;
    const CUcontext before = current_context();
    int device_before = 0;
    if (before == nullptr) NAPKIN_DETAIL_PROFILER_CHECK(cudaGetDevice(&device_before));
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaSetDevice(requested), "cannot select the profiled device");
    const cudaError_t made = cudaFree(nullptr);
    d.context = current_context();
    if (before == nullptr) (void)cudaSetDevice(device_before);
    (void)driver_context_calls().set_current(before);
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(made, "cannot create the profiled device's CUDA context");
  }
  if (d.context == nullptr) raise_profiler_error("napkin: no CUDA context on device " + std::to_string(d.index));
  const context_guard current(d.context);
  NAPKIN_DETAIL_PROFILER_CHECK(driver_context_calls().get_device(&d.device));
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
  // CUPTI profiles a MIG compute instance only when it fills its GPU instance (an "isolated" one), not one
  // that shares its GPU instance with others (CUPTI's "Special Configurations: MIG").
  return why.empty() ? "reason not reported by CUPTI (a shared MIG compute instance, or MPS?)" : why;
}

// After cuptiProfilerInitialize: refuses a device CUPTI cannot range-profile, saying why.
inline void require_range_profiling(const profiled_device& d, const busy_policy& busy = {}) {
  auto supported = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
  supported.cuDevice = d.device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  const busy_outcome o = retry_while_busy([&supported] { return cuptiProfilerDeviceSupported(&supported); }, busy.wait);
  check_as<profiler_error>(o.status, "cuptiProfilerDeviceSupported(&supported)", NAPKIN_DETAIL_SITE_ARGS,
                           busy_note(o, busy.device, busy.wait).c_str());
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    raise_profiler_error(CUPTI_ERROR_NOT_SUPPORTED, "napkin: range profiling is not supported on device " +
                                                        std::to_string(d.index) + ": " + why_unsupported(supported));
}

// CUPTI's name of the device's chip ("GH100").
inline std::string chip_name(const profiled_device& d) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = static_cast<std::size_t>(d.index);
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiDeviceGetChipName(&p));
  return p.pChipName;
}

// Which counters the context can collect now (another client may hold some).
inline std::vector<std::uint8_t> counter_availability(const profiled_device& d, const busy_policy& busy = {}) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  p.ctx = d.context;
  // Two calls (the size, then the image), each refused with HARDWARE_BUSY while another client holds the
  // counters (seen on an H200: the size was answered, the image refused), so each waits as asked.
  const auto ask = [&p, &busy] {
    const busy_outcome o = retry_while_busy([&p] { return cuptiProfilerGetCounterAvailability(&p); }, busy.wait);
    check_as<profiler_error>(o.status, "cuptiProfilerGetCounterAvailability(&p)", NAPKIN_DETAIL_SITE_ARGS,
                             busy_note(o, busy.device, busy.wait).c_str());
  };
  ask();  // the size
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  ask();  // the image
  return image;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
