// SPDX-License-Identifier: Apache-2.0
// napkin/check/cufft.hpp — NAPKIN_CUDA_CHECK for cuFFT (cufftResult). cuFFT has no name getter: names and texts come from a
// table generated from this toolkit's cufft.h (detail/cufft_names.hpp; CTest checks it against the installed header).
#pragma once

#include "napkin/config.hpp"

#include <cufft.h>

#include "napkin/check.hpp"
#include "napkin/check/detail/cufft_names.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cufftResult> : detail::table_status_names<cufftResult, detail::cufft_status_table> {
  static constexpr const char* library = "cuFFT";
  static constexpr bool failed(cufftResult s) noexcept { return s != CUFFT_SUCCESS; }
};

NAPKIN_END_NAMESPACE
