// SPDX-License-Identifier: Apache-2.0
// napkin/check/nccl.hpp — NAPKIN_CUDA_CHECK for NCCL (ncclResult_t). Texts from ncclGetErrorString,
// names from a table generated from nccl.h, and NCCL's own last-error message as detail.
//
// ncclInProgress is not a failure: it is how non-blocking communicators report work under way (poll
// ncclCommGetAsyncError until it changes).
#pragma once

#include "napkin/config.hpp"

#include <nccl.h>

#include <string>

#include "napkin/check.hpp"
#include "napkin/check/detail/nccl_names.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<ncclResult_t> {
  static constexpr const char* library = "NCCL";
  static constexpr bool failed(ncclResult_t r) noexcept { return r != ncclSuccess && r != ncclInProgress; }
  static const char* name(ncclResult_t r) noexcept {
    return detail::status_table_name(detail::nccl_status_table, r, "nccl(unknown result)");
  }
  static const char* description(ncclResult_t r) noexcept { return ncclGetErrorString(r); }
  // The last error message NCCL recorded in this process (any communicator): often the real cause. NCCL
  // never clears it, so a message already attached to an earlier failure on this thread is labelled so
  // (it may belong to that failure rather than this one).
  static std::string detail(ncclResult_t) {
    const char* s = ncclGetLastError(nullptr);
    if (s == nullptr || *s == '\0') return {};
    thread_local std::string last_attached;
    if (last_attached == s) return std::string("NCCL's last message, already reported with an earlier failure: ") + s;
    last_attached = s;
    return std::string("NCCL says: ") + s;
  }
  static constexpr const char* hint(ncclResult_t r) noexcept {
    return r == ncclSystemError || r == ncclInternalError || r == ncclUnhandledCudaError
               ? "set NCCL_DEBUG=WARN (or INFO) for NCCL's own account"
               : nullptr;
  }
};

NAPKIN_END_NAMESPACE
