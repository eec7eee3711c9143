// SPDX-License-Identifier: Apache-2.0
// napkin/check/driver.hpp — NAPKIN_CUDA_CHECK for the driver API (CUresult).
//
// Names and texts come from the driver's own cuGetErrorName / cuGetErrorString, reached through the
// runtime (cudaGetDriverEntryPointByVersion) so that nothing links libcuda. Without a usable driver they
// come from a table generated from this toolkit's cuda.h (detail/driver_names.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>

#include "napkin/check.hpp"
#include "napkin/check/detail/driver_names.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

struct driver_error_getters {
  using getter = CUresult (*)(CUresult, const char**);
  getter name = nullptr;
  getter text = nullptr;
};

// Looked up once (thread-safe static initialization); null members when no driver is present.
inline const driver_error_getters& driver_getters() noexcept {
  static const driver_error_getters g = [] {
    driver_error_getters r;
    auto lookup = [](const char* symbol) -> driver_error_getters::getter {
      void* fn = nullptr;
      cudaDriverEntryPointQueryResult q{};
      const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &q);
      // A failed lookup must not leave an error pending; a user's own pending error is not ours to clear.
      if (e != cudaSuccess) (void)cudaGetLastError();
      return e == cudaSuccess && q == cudaDriverEntryPointSuccess ? reinterpret_cast<driver_error_getters::getter>(fn)
                                                                   : nullptr;
    };
    r.name = lookup("cuGetErrorName");
    r.text = lookup("cuGetErrorString");
    return r;
  }();
  return g;
}

}  // namespace detail

template <>
struct status_traits<CUresult> {
  static constexpr const char* library = "CUDA driver";
  static constexpr bool failed(CUresult r) noexcept { return r != CUDA_SUCCESS; }
  static const char* name(CUresult r) noexcept {
    const char* s = nullptr;
    if (auto f = detail::driver_getters().name; f && f(r, &s) == CUDA_SUCCESS && s) return s;
    return detail::status_table_name(detail::driver_status_table, r, "CUDA_ERROR_(unknown to this toolkit)");
  }
  static const char* description(CUresult r) noexcept {
    const char* s = nullptr;
    if (auto f = detail::driver_getters().text; f && f(r, &s) == CUDA_SUCCESS && s) return s;
    return detail::status_table_text(detail::driver_status_table, r);
  }
  static constexpr bool sticky(CUresult r) noexcept {
    switch (r) {
      case CUDA_ERROR_CONTAINED:
      case CUDA_ERROR_ILLEGAL_ADDRESS:
      case CUDA_ERROR_LAUNCH_TIMEOUT:
      case CUDA_ERROR_ASSERT:
      case CUDA_ERROR_HARDWARE_STACK_ERROR:
      case CUDA_ERROR_ILLEGAL_INSTRUCTION:
      case CUDA_ERROR_MISALIGNED_ADDRESS:
      case CUDA_ERROR_INVALID_ADDRESS_SPACE:
      case CUDA_ERROR_INVALID_PC:
      case CUDA_ERROR_LAUNCH_FAILED:
      case CUDA_ERROR_TENSOR_MEMORY_LEAK:
      case CUDA_ERROR_MPS_CLIENT_TERMINATED:
      case CUDA_ERROR_EXTERNAL_DEVICE:
        return true;
      default:
        return false;
    }
  }
  static constexpr bool shutting_down(CUresult r) noexcept { return r == CUDA_ERROR_DEINITIALIZED; }
  static constexpr const char* hint(CUresult r) noexcept {
    return r == CUDA_ERROR_NOT_INITIALIZED ? "call cuInit(0), or any CUDA runtime function, first" : nullptr;
  }
};

NAPKIN_END_NAMESPACE
