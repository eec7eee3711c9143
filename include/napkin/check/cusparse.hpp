// SPDX-License-Identifier: Apache-2.0
// napkin/check/cusparse.hpp — NAPKIN_CUDA_CHECK for cuSPARSE (cusparseStatus_t), with cuSPARSE's own
// cusparseGetErrorName / cusparseGetErrorString.
#pragma once

#include "napkin/config.hpp"

#include <cusparse.h>

#include "napkin/check.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cusparseStatus_t> {
  static constexpr const char* library = "cuSPARSE";
  static constexpr bool failed(cusparseStatus_t s) noexcept { return s != CUSPARSE_STATUS_SUCCESS; }
  static const char* name(cusparseStatus_t s) noexcept { return cusparseGetErrorName(s); }
  static const char* description(cusparseStatus_t s) noexcept { return cusparseGetErrorString(s); }
};

NAPKIN_END_NAMESPACE
