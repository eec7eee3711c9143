// SPDX-License-Identifier: Apache-2.0
// Why profiling failed, in words a user can act on: napkin::profiler_error (its own header,
// cupti/profiler_error.hpp, for units that only catch it), and the profiler's one way to check a status.
//
// Every failure of the profiler is a profiler_error. A failed CUPTI, CUDA runtime or driver call goes through
// napkin's check family (napkin/check/core.hpp: status_traits, the failure policy), as NAPKIN_CUDA_CHECK does,
// so its message names the call and where it was made, the status and its text, and what to do about it (the
// advice table of napkin/detail/cupti_advice.hpp, shared with NAPKIN_CUDA_CHECK). napkin's own refusals (a
// busy profiler, a bad metric set) carry a sentence and, where one applies, the CUPTI status.
//
// Failures go through napkin's one failure policy (napkin/error.hpp): with exceptions they throw
// profiler_error; built without exceptions (-fno-exceptions) they print the same message and abort, or call
// the handler installed with napkin::set_failure_handler (and abort if it returns: a failed measurement has
// no value to continue with).
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

#include "napkin/check/core.hpp"
#include "napkin/check/cupti.hpp"
#include "napkin/cupti/profiler_error.hpp"
#include "napkin/error.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

NAPKIN_BEGIN_NAMESPACE

// What a user can do about a CUPTI status: empty when there is nothing better than CUPTI's own text.
inline std::string profiler_advice(CUptiResult status) {
  const char* advice = status_traits<CUptiResult>::hint(status);
  return advice != nullptr ? advice : "";
}

// "<call>: CUPTI_ERROR_X (CUPTI's text). <advice>", for a failure napkin reports without raising it (a
// metric's reason, why kernel names are unavailable). The words are status_traits<CUptiResult>'s.
inline std::string describe_cupti_failure(const char* call, CUptiResult status) {
  using traits = status_traits<CUptiResult>;
  std::string what = std::string(call) + ": " + traits::name(status);
  if (const char* text = traits::description(status); *text != '\0') what += std::string(" (") + text + ")";
  if (const char* advice = traits::hint(status)) what += std::string(". ") + advice;
  return what;
}

namespace detail {
// A zeroed CUPTI parameter struct with its size set (pPriv and every optional field null).
template <class Params>
Params cupti_params(std::size_t struct_size) noexcept {
  Params p{};
  p.structSize = struct_size;
  return p;
}

// napkin's own refusal, with the CUPTI status it stands for (CUPTI_SUCCESS when there is none): raised as
// profiler_error(status, what) through the failure policy. `what` is the whole message.
[[noreturn]] NAPKIN_DETAIL_COLD inline void raise_profiler_error(CUptiResult status, std::string what) {
  using traits = status_traits<CUptiResult>;
  error_info info;
  info.library = traits::library;
  info.code = static_cast<std::int64_t>(status);
  info.name = status != CUPTI_SUCCESS ? traits::name(status) : "napkin profiler";
  info.description = std::move(what);  // expression and site stay empty: message() is the description
  raise_as<profiler_error>(std::move(info), status);
}
[[noreturn]] inline void raise_profiler_error(std::string what) {
  raise_profiler_error(CUPTI_SUCCESS, std::move(what));
}
}  // namespace detail

NAPKIN_END_NAMESPACE

// NAPKIN_CUPTI_PARAMS(CUpti_X_Params): a zeroed CUpti_X_Params with structSize = CUpti_X_Params_STRUCT_SIZE.
// A macro because the size constant's name is pasted from the type's. (clang-tidy's bugprone-sizeof-expression
// fires at every use: CUPTI's _STRUCT_SIZE macros take sizeof of a member through a null pointer.)
#define NAPKIN_CUPTI_PARAMS(type) /* NOLINT(cppcoreguidelines-macro-usage) */ \
  ::napkin::detail::cupti_params<type>(type##_STRUCT_SIZE)

// The profiler's status check, for CUPTI and CUDA statuses alike: NAPKIN_CUDA_CHECK's path (status_traits,
// the failure policy), raising profiler_error, since a measurement cannot go on after a failed step.
// NAPKIN_DETAIL_PROFILER_CHECK_NOTE adds a note to the message. napkin's own: every profiler header uses them
// (they include one another), so they are not #undef'd; not for user code, which has NAPKIN_CUDA_CHECK.
#define NAPKIN_DETAIL_PROFILER_CHECK(expr) \
  ::napkin::detail::check_as<::napkin::profiler_error>((expr), #expr, NAPKIN_DETAIL_SITE_ARGS)
#define NAPKIN_DETAIL_PROFILER_CHECK_NOTE(expr, note) \
  ::napkin::detail::check_as<::napkin::profiler_error>((expr), #expr, NAPKIN_DETAIL_SITE_ARGS, (note))
