// Why profiling failed, in words a user can act on.
//
// Every CUPTI failure becomes a napkin::profiler_error carrying the CUPTI status (or CUPTI_SUCCESS when the
// failure is napkin's own check), the call that failed, CUPTI's own text, and what to do about it.
//
// Failures go through napkin's one failure policy (napkin/error.hpp): with exceptions they throw
// profiler_error; built without exceptions (-fno-exceptions) they print the same message and abort, or call
// the handler installed with napkin::set_failure_handler (and abort if it returns: a failed measurement has
// no value to continue with).
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

#include "napkin/detail/cupti_advice.hpp"
#include "napkin/error.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

NAPKIN_BEGIN_NAMESPACE

class profiler_error : public std::runtime_error {
 public:
  profiler_error(CUptiResult status, const std::string& what) : std::runtime_error(what), status_(status) {}
  explicit profiler_error(const std::string& what) : profiler_error(CUPTI_SUCCESS, what) {}
  // The CUPTI status behind the failure; CUPTI_SUCCESS when napkin itself refused.
  CUptiResult status() const noexcept { return status_; }

 private:
  CUptiResult status_;
};

// What a user can do about a CUPTI status: empty when there is nothing better than CUPTI's own text.
inline std::string profiler_advice(CUptiResult status) {
  const char* advice = detail::cupti_advice(status);
  return advice != nullptr ? advice : "";
}

// "<call>: CUPTI_ERROR_X (cupti text). <advice>"
inline std::string describe_cupti_failure(const char* call, CUptiResult status) {
  const char* text = nullptr;
  std::string what = call;
  what += ": ";
  if (cuptiGetResultString(status, &text) == CUPTI_SUCCESS && text != nullptr)
    what += text;
  else
    what += "CUPTI status " + std::to_string(static_cast<int>(status));
  const char* message = nullptr;
  if (cuptiGetErrorMessage(status, &message) == CUPTI_SUCCESS && message != nullptr && *message != '\0')
    what += std::string(" (") + message + ")";
  const std::string advice = profiler_advice(status);
  if (!advice.empty()) what += ". " + advice;
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

}  // namespace detail

// NAPKIN_CUPTI_PARAMS(CUpti_X_Params): a zeroed CUpti_X_Params with structSize = CUpti_X_Params_STRUCT_SIZE.
// A macro because the size constant's name is pasted from the type's. (clang-tidy's bugprone-sizeof-expression
// fires at every use: CUPTI's _STRUCT_SIZE macros take sizeof of a member through a null pointer.)
#define NAPKIN_CUPTI_PARAMS(type) /* NOLINT(cppcoreguidelines-macro-usage) */ \
  ::napkin::detail::cupti_params<type>(type##_STRUCT_SIZE)

namespace detail {
// Raises profiler_error(status, what) through napkin's failure policy (throws, or prints and aborts without
// exceptions). `what` is the whole message; status is CUPTI_SUCCESS when napkin itself refused.
[[noreturn]] NAPKIN_DETAIL_COLD inline void raise_profiler_error(CUptiResult status, std::string what) {
  error_info info;
  info.library = "CUPTI";
  info.code = static_cast<std::int64_t>(status);
  const char* name = nullptr;
  info.name = status != CUPTI_SUCCESS && cuptiGetResultString(status, &name) == CUPTI_SUCCESS && name != nullptr
                  ? name
                  : "napkin profiler";
  info.description = std::move(what);  // expression and site stay empty: message() is the description
#if NAPKIN_HAS_EXCEPTIONS
  raise_as<profiler_error>(std::move(info), status);
#else
  raise_as<profiler_error>(std::move(info));  // nothing is thrown; the status is in info.code
#endif
}
[[noreturn]] inline void raise_profiler_error(std::string what) {
  raise_profiler_error(CUPTI_SUCCESS, std::move(what));
}

inline void cupti_check(CUptiResult status, const char* call) {
  if (status != CUPTI_SUCCESS) raise_profiler_error(status, describe_cupti_failure(call, status));
}
}  // namespace detail
NAPKIN_END_NAMESPACE
