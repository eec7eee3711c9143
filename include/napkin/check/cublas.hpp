// SPDX-License-Identifier: Apache-2.0
// napkin/check/cublas.hpp — NAPKIN_CUDA_CHECK for cuBLAS and cuBLASLt (both return cublasStatus_t).
// Names and texts from cuBLASLt's getters: cuBLASLt is a dependency of cuBLAS (CUDA::cublas links it),
// so one specialization serves both libraries.
#pragma once

#include "napkin/config.hpp"

#include <cublasLt.h>

#include "napkin/check.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cublasStatus_t> {
  static constexpr const char* library = "cuBLAS";
  static constexpr bool failed(cublasStatus_t s) noexcept { return s != CUBLAS_STATUS_SUCCESS; }
  static const char* name(cublasStatus_t s) noexcept { return cublasLtGetStatusName(s); }
  static const char* description(cublasStatus_t s) noexcept { return cublasLtGetStatusString(s); }
  static constexpr const char* hint(cublasStatus_t s) noexcept {
    switch (s) {
      case CUBLAS_STATUS_NOT_INITIALIZED:
        return "create the handle with cublasCreate / cublasLtCreate first (it needs a working device)";
      case CUBLAS_STATUS_NOT_SUPPORTED:
        return "this combination of types, layouts or algorithm is not supported; for cuBLASLt, ask "
               "cublasLtMatmulAlgoGetHeuristic for an algorithm";
      default:
        return nullptr;
    }
  }
};

NAPKIN_END_NAMESPACE
