// SPDX-License-Identifier: Apache-2.0
// napkin/check/cupti.hpp — NAPKIN_CUDA_CHECK for CUPTI (CUptiResult), with CUPTI's own
// cuptiGetResultString (the name) and cuptiGetErrorMessage (the text).
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

#include "napkin/check.hpp"
#include "napkin/detail/cupti_advice.hpp"

NAPKIN_BEGIN_NAMESPACE

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
  static constexpr const char* hint(CUptiResult r) noexcept { return detail::cupti_advice(r); }
};

NAPKIN_END_NAMESPACE
