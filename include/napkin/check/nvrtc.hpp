// SPDX-License-Identifier: Apache-2.0
// napkin/check/nvrtc.hpp — NAPKIN_CUDA_CHECK for NVRTC (nvrtcResult), named by nvrtcGetErrorString.
#pragma once

#include "napkin/config.hpp"

#include <nvrtc.h>

#include "napkin/check.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<nvrtcResult> {
  static constexpr const char* library = "NVRTC";
  static constexpr bool failed(nvrtcResult r) noexcept { return r != NVRTC_SUCCESS; }
  // NVRTC's only getter returns the enumerator's name ("NVRTC_ERROR_COMPILATION").
  static const char* name(nvrtcResult r) noexcept { return nvrtcGetErrorString(r); }
  static const char* description(nvrtcResult) noexcept { return ""; }
  static constexpr const char* hint(nvrtcResult r) noexcept {
    return r == NVRTC_ERROR_COMPILATION ? "nvrtcGetProgramLog(program) holds the compiler's messages" : nullptr;
  }
};

NAPKIN_END_NAMESPACE
