// SPDX-License-Identifier: Apache-2.0
// napkin/check/cusolver.hpp — NAPKIN_CUDA_CHECK for cuSOLVER (cusolverStatus_t). cuSOLVER has no name getter: names and texts come from a
// table generated from this toolkit's cusolver_common.h (detail/cusolver_names.hpp; CTest checks it against the installed header).
#pragma once

#include "napkin/config.hpp"

#include <cusolver_common.h>

#include "napkin/check.hpp"
#include "napkin/check/detail/cusolver_names.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cusolverStatus_t> : detail::table_status_names<cusolverStatus_t, detail::cusolver_status_table> {
  static constexpr const char* library = "cuSOLVER";
  static constexpr bool failed(cusolverStatus_t s) noexcept { return s != CUSOLVER_STATUS_SUCCESS; }
};

NAPKIN_END_NAMESPACE
