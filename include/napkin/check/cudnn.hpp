// SPDX-License-Identifier: Apache-2.0
// napkin/check/cudnn.hpp — NAPKIN_CUDA_CHECK for cuDNN (cudnnStatus_t): the name from
// cudnnGetErrorString, and cuDNN's own last-error message (cudnnGetLastErrorString, cuDNN 9) as detail.
#pragma once

#include "napkin/config.hpp"

#include <cudnn.h>

#include <string>

#include "napkin/check.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cudnnStatus_t> {
  static constexpr const char* library = "cuDNN";
  static constexpr bool failed(cudnnStatus_t s) noexcept { return s != CUDNN_STATUS_SUCCESS; }
  // cuDNN's getter returns the enumerator's name ("CUDNN_STATUS_BAD_PARAM").
  static const char* name(cudnnStatus_t s) noexcept { return cudnnGetErrorString(s); }
  static const char* description(cudnnStatus_t) noexcept { return ""; }
#if CUDNN_MAJOR >= 9
  static std::string detail(cudnnStatus_t) {
    char buffer[512] = {};
    cudnnGetLastErrorString(buffer, sizeof buffer);
    return buffer[0] ? std::string("cuDNN says: ") + buffer : std::string();
  }
#endif
};

NAPKIN_END_NAMESPACE
