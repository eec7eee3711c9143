// SPDX-License-Identifier: Apache-2.0
// napkin/check/nvjitlink.hpp — NAPKIN_CUDA_CHECK for nvJitLink (nvJitLinkResult). nvJitLink has no name getter: names and texts come from a
// table generated from this toolkit's nvJitLink.h (detail/nvjitlink_names.hpp; CTest checks it against the installed header).
#pragma once

#include "napkin/config.hpp"

#include <nvJitLink.h>

#include "napkin/check.hpp"
#include "napkin/check/detail/nvjitlink_names.hpp"

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<nvJitLinkResult> : detail::table_status_names<nvJitLinkResult, detail::nvjitlink_status_table> {
  static constexpr const char* library = "nvJitLink";
  static constexpr bool failed(nvJitLinkResult s) noexcept { return s != NVJITLINK_SUCCESS; }
  static constexpr const char* hint(nvJitLinkResult s) noexcept {
    return s != NVJITLINK_SUCCESS ? "nvJitLinkGetErrorLog(handle) holds the linker's log" : nullptr;
  }
};

NAPKIN_END_NAMESPACE
