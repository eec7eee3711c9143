// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/config.hpp — how napkin's NVTX part is built: the compile-time switch and the one
// include of NVTX3.
//
// NAPKIN_NVTX_ENABLED is 0 when NVTX_DISABLE (all NVTX) or NAPKIN_NVTX_DISABLE (napkin only) is defined,
// 1 otherwise; every part of napkin/nvtx/ includes this header first, so a part included alone sees
// the same switch and the same NVTX3 as the umbrella napkin/nvtx.hpp.
#pragma once

#include "napkin/config.hpp"

#if defined(NVTX_DISABLE) || defined(NAPKIN_NVTX_DISABLE)
#define NAPKIN_NVTX_ENABLED 0
#else
#define NAPKIN_NVTX_ENABLED 1
#endif

// nvtx3.hpp's advice for header-only libraries: only explicit-version symbols (nvtx3::v1::...), so that
// any other version of the wrappers can coexist in the same translation unit. Both macros are put back
// as the user had them once NVTX3 is in.
#if !defined(NVTX3_CPP_REQUIRE_EXPLICIT_VERSION)
#define NVTX3_CPP_REQUIRE_EXPLICIT_VERSION
#define NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT
#endif
#if !defined(NVTX_AS_SYSTEM_HEADER)
#define NVTX_AS_SYSTEM_HEADER  // NVTX's own code is not ours to warn about
#define NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif
#include <nvtx3/nvtx3.hpp>
#if defined(NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT)
#undef NVTX3_CPP_REQUIRE_EXPLICIT_VERSION
#undef NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT
#endif
#if defined(NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM)
#undef NVTX_AS_SYSTEM_HEADER
#undef NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif
