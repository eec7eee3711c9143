// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/macros.hpp — the range macros, and every macro napkin's NVTX part leaves defined.
//
// Range macros (defined here); one per line, since their variable names are made from __LINE__:
//   NAPKIN_RANGE("literal", attributes...)          a range for the rest of the scope in napkin's domain;
//   NAPKIN_RANGE_IN(D, "literal", attributes...)    the name is registered with the tool once and its
//                                                   default color is a compile-time constant
//   NAPKIN_FUNC_RANGE()                             a range named after the enclosing function
//   NAPKIN_FUNC_RANGE_IN(D)                         ("ns::solver<T>::step", "main::lambda@42"), cleaned
//   NAPKIN_FUNC_RANGE_WITH(D, attributes...)        and registered once per call site
// Other macros for user code:
//   NAPKIN_DOMAIN(tag, "name")   a domain tag type (napkin/nvtx/domain.hpp)
//   NAPKIN_FMT("layer {}")       a format checked at compile time in any standard (napkin/nvtx/format.hpp)
// Switches the user sets: NAPKIN_NVTX_DISABLE (napkin's NVTX only) or NVTX_DISABLE (all NVTX).
// Read-only facts: NAPKIN_NVTX_ENABLED (0 or 1, napkin/nvtx/config.hpp); NAPKIN_NVTX_CHECKED_FORMAT
// (1 where the format-string type checks a plain literal through consteval, i.e. C++20; format.hpp).
//
// Helper macros that stay defined because user code expands them (through the macros above); not API:
//   NAPKIN_DETAIL_CAT, NAPKIN_DETAIL_CAT2      token pasting with __LINE__
//   NAPKIN_DETAIL_FIRST, NAPKIN_DETAIL_FIRST2  NAPKIN_RANGE's literal, out of its arguments
//   NAPKIN_DETAIL_FUNC_RANGE                   what NAPKIN_FUNC_RANGE_IN/_WITH declare
//   NAPKIN_DETAIL_PRETTY_FUNCTION              the enclosing function's signature (napkin/config.hpp)
// Every other helper macro is #undef'd at the end of the header that defines it (nvtx3.hpp's rule):
// NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT and NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM (config.hpp),
// NAPKIN_DETAIL_NVTX_TOOL (switch.hpp), NAPKIN_DETAIL_FORMAT_CHECK (format.hpp),
// NAPKIN_DETAIL_UNUSED_TYPE (range.hpp).
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/call_site.hpp"
#include "napkin/nvtx/color.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/domain.hpp"
#include "napkin/nvtx/range.hpp"

#define NAPKIN_DETAIL_CAT2(a, b) a##b
#define NAPKIN_DETAIL_CAT(a, b) NAPKIN_DETAIL_CAT2(a, b)
#define NAPKIN_DETAIL_FIRST(...) NAPKIN_DETAIL_FIRST2(__VA_ARGS__, unused)
#define NAPKIN_DETAIL_FIRST2(first, ...) first
// The function's call site, then its range; the arguments start with the site (napkin_func_site_<line>).
#define NAPKIN_DETAIL_FUNC_RANGE(D, ...)                                                                 \
  static ::napkin::detail::call_site<D> NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__){                   \
      NAPKIN_DETAIL_PRETTY_FUNCTION, ::napkin::color{0u}, __LINE__, true};                                \
  const ::napkin::range_in<D> NAPKIN_DETAIL_CAT(napkin_func_range_, __LINE__) {                          \
    __VA_ARGS__                                                                                           \
  }

#if NAPKIN_NVTX_ENABLED
#define NAPKIN_RANGE_IN(D, ...)                                                                           \
  static constexpr ::napkin::color NAPKIN_DETAIL_CAT(napkin_range_color_, __LINE__) =                    \
      ::napkin::color_of(NAPKIN_DETAIL_FIRST(__VA_ARGS__));                                               \
  static ::napkin::detail::call_site<D> NAPKIN_DETAIL_CAT(napkin_range_site_, __LINE__){                 \
      NAPKIN_DETAIL_FIRST(__VA_ARGS__), NAPKIN_DETAIL_CAT(napkin_range_color_, __LINE__), __LINE__, false}; \
  const ::napkin::range_in<D> NAPKIN_DETAIL_CAT(napkin_range_, __LINE__) {                               \
    NAPKIN_DETAIL_CAT(napkin_range_site_, __LINE__), __VA_ARGS__                                           \
  }
#define NAPKIN_FUNC_RANGE_WITH(D, ...) \
  NAPKIN_DETAIL_FUNC_RANGE(D, NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__), __VA_ARGS__)
#define NAPKIN_FUNC_RANGE_IN(D) NAPKIN_DETAIL_FUNC_RANGE(D, NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__))
#else
#define NAPKIN_RANGE_IN(D, ...) static_cast<void>(0)
#define NAPKIN_FUNC_RANGE_WITH(D, ...) static_cast<void>(0)
#define NAPKIN_FUNC_RANGE_IN(D) static_cast<void>(0)
#endif
#define NAPKIN_RANGE(...) NAPKIN_RANGE_IN(::napkin::default_domain, __VA_ARGS__)
#define NAPKIN_FUNC_RANGE() NAPKIN_FUNC_RANGE_IN(::napkin::default_domain)
