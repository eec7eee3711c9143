// SPDX-License-Identifier: Apache-2.0
// napkin/check/curand.hpp — NAPKIN_CUDA_CHECK for cuRAND (curandStatus_t). cuRAND has no name getter: names and texts come from a
// table generated from this toolkit's curand.h (detail/curand_names.hpp; CTest checks it against the installed header).
#pragma once

#include "napkin/config.hpp"

#include <curand.h>

#include "napkin/check.hpp"
#include "napkin/check/detail/curand_names.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<curandStatus_t> : detail::table_status_names<curandStatus_t, detail::curand_status_table> {
  static constexpr const char* library = "cuRAND";
  static constexpr bool failed(curandStatus_t s) noexcept { return s != CURAND_STATUS_SUCCESS; }
  static constexpr const char* hint(curandStatus_t s) noexcept {
    return s == CURAND_STATUS_PREEXISTING_FAILURE
               ? "an earlier CUDA error was pending when cuRAND was entered: it is not cuRAND's"
               : nullptr;
  }
};

NAPKIN_END_NAMESPACE
