// napkin/check/cupti.hpp — NAPKIN_CUDA_CHECK for CUPTI (CUptiResult), with CUPTI's own
// cuptiGetResultString (the name) and cuptiGetErrorMessage (the text).
#pragma once

#include <cupti_result.h>

#include "napkin/check.hpp"

namespace napkin {

template <>
struct status_traits<CUptiResult> {
  static constexpr const char* library = "CUPTI";
  static constexpr bool failed(CUptiResult r) noexcept { return r != CUPTI_SUCCESS; }
  static const char* name(CUptiResult r) noexcept {
    const char* s = nullptr;
    return cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s ? s : "CUPTI_ERROR_(unknown)";
  }
  static const char* description(CUptiResult r) noexcept {
    const char* s = nullptr;
    return cuptiGetErrorMessage(r, &s) == CUPTI_SUCCESS && s ? s : "";
  }
  static constexpr const char* hint(CUptiResult r) noexcept {
    switch (r) {
      case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "GPU performance counters are restricted to administrators: run as root, or load the "
               "driver with NVreg_RestrictProfilingToAdminUsers=0 (NVIDIA's ERR_NVGPUCTRPERM page)";
      case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "another profiler (ncu, nsys, DCGM, a CUPTI client) is already attached to this process";
      case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        return "performance counters cannot be read on this MIG instance";
      default:
        return nullptr;
    }
  }
};

}  // namespace napkin
