// SPDX-License-Identifier: Apache-2.0
// napkin/check/core.hpp — the status-checking mechanism shared by every CUDA library.
//
// One extensible rule: a status type is checkable once `napkin::status_traits<Status>` is specialized
// for it. napkin/check.hpp does that for the runtime (cudaError_t); napkin/check/<library>.hpp does it
// for the driver and each library, and a user can do it for their own status types. Nothing here needs
// a CUDA header: the mechanism is plain C++17 (compiled as CUDA C++, it also checks in device code).
//
// The failure policy (napkin/error.hpp) is read once per *failure*, never on the success path.
//
// NAPKIN_DETAIL_CHECK, NAPKIN_DETAIL_CHECK_ALLOW, NAPKIN_DETAIL_CHECK_NOTHROW and NAPKIN_DETAIL_SITE_ARGS
// stay defined: the check macros at the end expand them in the user's code.
#pragma once

#include "napkin/error.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

NAPKIN_BEGIN_NAMESPACE

// `status_traits<Status>` — what napkin must know about a status type. A specialization provides:
//   static constexpr const char* library;          e.g. "cuBLAS"
//   static bool failed(Status) noexcept;           the success-path test: keep it trivial
//   static const char* name(Status) noexcept;      "CUBLAS_STATUS_ALLOC_FAILED"; never null
//   static const char* description(Status) noexcept;  never null, may be ""
// and optionally:
//   static bool sticky(Status) noexcept;           the error leaves the CUDA context unusable
//   static bool shutting_down(Status) noexcept;    the error only says the process is exiting
//   static const char* hint(Status) noexcept;      what to do about it (null when nothing to say)
//   static std::string detail(Status);             extra text the library keeps (a last-error log)
//   static void after_failure(Status) noexcept;    e.g. clear the runtime's last-error state
//   static constexpr bool checkable_on_device = true;  the macros may check it in device code too; then
//                                                  `failed` must be __host__ __device__ (see below)
template <class Status, class Enable = void>
struct status_traits;

namespace detail {
// Which optional members a status_traits specialization has (the detection idiom).
template <class T, template <class> class Member, class = void>
struct detect : std::false_type {};
template <class T, template <class> class Member>
struct detect<T, Member, std::void_t<Member<T>>> : std::true_type {};

template <class T> using library_member = decltype(status_traits<T>::library);
template <class T> using sticky_member = decltype(status_traits<T>::sticky(std::declval<T>()));
template <class T> using shutting_down_member = decltype(status_traits<T>::shutting_down(std::declval<T>()));
template <class T> using hint_member = decltype(status_traits<T>::hint(std::declval<T>()));
template <class T> using detail_member = decltype(status_traits<T>::detail(std::declval<T>()));
template <class T> using after_failure_member = decltype(status_traits<T>::after_failure(std::declval<T>()));
template <class T> using device_member = decltype(status_traits<T>::checkable_on_device);

template <class T> using has_traits = detect<T, library_member>;
template <class T> using has_sticky = detect<T, sticky_member>;
template <class T> using has_shutting_down = detect<T, shutting_down_member>;
template <class T> using has_hint = detect<T, hint_member>;
template <class T> using has_detail = detect<T, detail_member>;
template <class T> using has_after_failure = detect<T, after_failure_member>;
template <class T> using has_device_check = detect<T, device_member>;

template <class Status>
constexpr void require_traits() {
  static_assert(has_traits<Status>::value,
                "napkin: no napkin::status_traits for this status type. Include the header for its "
                "library (napkin/check/cublas.hpp, napkin/check/driver.hpp, ...) or specialize "
                "napkin::status_traits yourself.");
}
}  // namespace detail

namespace detail {

inline void append_note(std::string& note, const char* text) {
  if (!text || !*text) return;
  if (!note.empty()) note += "; ";
  note += text;
}

constexpr const char* sticky_note =
    "sticky: the CUDA context is unusable and stays so; such errors come from earlier asynchronous work "
    "(a faulting kernel), possibly not from this call; only a new process recovers";

template <class Status>
error_info make_info(Status s, const char* expression, source_site site) {
  using traits = status_traits<Status>;
  error_info info;
  info.library = traits::library;
  info.code = static_cast<std::int64_t>(s);
  info.name = traits::name(s);
  info.description = traits::description(s);
  info.expression = expression ? expression : "";
  info.site = site;
  if constexpr (has_sticky<Status>::value) info.sticky = traits::sticky(s);
  if (info.sticky) append_note(info.note, sticky_note);
  if constexpr (has_hint<Status>::value) append_note(info.note, traits::hint(s));
  if constexpr (has_detail<Status>::value) {
    const std::string d = traits::detail(s);
    append_note(info.note, d.c_str());
  }
  return info;
}

template <class Status>
NAPKIN_DETAIL_COLD void fail(Status s, const char* expression, source_site site, const char* note = nullptr,
                             bool pending = false) {
  if constexpr (has_after_failure<Status>::value) status_traits<Status>::after_failure(s);
  error_info info = make_info(s, expression, site);
  info.pending = pending;
  append_note(info.note, note);
  raise(std::move(info));
}

// The success path: one predicted-not-taken branch around the status test. The location travels as
// scalars (not a source_site) so that nothing is stored for it unless the check fails.
template <class Status>
inline Status check(Status s, const char* expression, const char* file, unsigned line, const char* function) {
  require_traits<Status>();
  if (NAPKIN_DETAIL_UNLIKELY(status_traits<Status>::failed(s))) fail(s, expression, {file, line, function});
  return s;
}

// As check(), but statuses equal to `allowed` pass (cudaErrorNotReady from a query, say).
template <class Status>
inline Status check_allow(Status s, Status allowed, const char* expression, const char* file, unsigned line,
                          const char* function) {
  require_traits<Status>();
  if (NAPKIN_DETAIL_UNLIKELY(s != allowed && status_traits<Status>::failed(s)))
    fail(s, expression, {file, line, function});
  return s;
}

// As fail(), for a caller that cannot go on after a failure (a profiler step, say): the exception is
// Exception(status, message), raised through raise_as, so a failure handler that returns ends the process.
template <class Exception, class Status>
[[noreturn]] NAPKIN_DETAIL_COLD void fail_as(Status s, const char* expression, source_site site,
                                             const char* note = nullptr) {
  if constexpr (has_after_failure<Status>::value) status_traits<Status>::after_failure(s);
  error_info info = make_info(s, expression, site);
  append_note(info.note, note);
  raise_as<Exception>(std::move(info), s);
}

// As check(), raising through fail_as<Exception>; `note` is appended to the message.
template <class Exception, class Status>
inline Status check_as(Status s, const char* expression, const char* file, unsigned line, const char* function,
                       const char* note = nullptr) {
  require_traits<Status>();
  if (NAPKIN_DETAIL_UNLIKELY(status_traits<Status>::failed(s)))
    fail_as<Exception>(s, expression, {file, line, function}, note);
  return s;
}

template <class Status>
NAPKIN_DETAIL_COLD bool report_nothrow(Status s, const char* expression, source_site site) noexcept {
  if constexpr (has_after_failure<Status>::value) status_traits<Status>::after_failure(s);
#if NAPKIN_HAS_EXCEPTIONS
  try {
#endif
    const error_info info = make_info(s, expression, site);
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      // Handled, or (inside a handler) printed already; otherwise print: a no-throw check never throws.
      if (apply_policy(info) == policy_outcome::throw_or_abort)
        print_failure("napkin: error (not thrown: no-throw check): ", info);
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      print_failure("napkin: (exception from the failure handler swallowed in a no-throw check) ", info);
    }
  } catch (...) {
    std::fprintf(stderr, "napkin: error %lld in `%s` at %s:%u (message unavailable)\n", static_cast<long long>(s),
                 expression, site.file, site.line);
  }
#endif
  return false;
}

// For destructors and shutdown: never throws. Returns true on success and when the status only says
// that the process is exiting (cudaErrorCudartUnloading): nothing is left to clean up then.
template <class Status>
inline bool check_nothrow(Status s, const char* expression, const char* file, unsigned line,
                          const char* function) noexcept {
  require_traits<Status>();
  using traits = status_traits<Status>;
  if (!NAPKIN_DETAIL_UNLIKELY(traits::failed(s))) return true;
  if constexpr (has_shutting_down<Status>::value) {
    if (traits::shutting_down(s)) return true;
  }
  return report_nothrow(s, expression, {file, line, function});
}

}  // namespace detail

// Name ("cudaErrorMemoryAllocation") and description ("out of memory") of any checkable status, for
// logging without a failure. Not constexpr: most libraries' names come from a run-time getter. The text
// is the library's (static storage); a code unknown to the library gets the library's own placeholder.
template <class Status, std::enable_if_t<detail::has_traits<Status>::value, int> = 0>
std::string_view to_string(Status s) noexcept {
  return status_traits<Status>::name(s);
}
template <class Status, std::enable_if_t<detail::has_traits<Status>::value, int> = 0>
std::string_view describe(Status s) noexcept {
  return status_traits<Status>::description(s);
}
template <class Status>
bool is_sticky(Status s) noexcept {
  detail::require_traits<Status>();
  if constexpr (detail::has_sticky<Status>::value) {
    return status_traits<Status>::sticky(s);
  } else {
    return false;
  }
}

// ---- device code -------------------------------------------------------------------------------
// In CUDA C++ the checks also run in __device__ and __host__ __device__ code, where nothing can throw
// and cudaGetErrorName does not exist (without relocatable device code): a failure prints one line with
// the location, the expression, the status and the thread, then
//   NAPKIN_CUDA_CHECK, NAPKIN_CUDA_CHECK_ALLOW:  __trap(): the kernel is aborted, and the host's next
//                                                 check reports a sticky error (a launch failure);
//   NAPKIN_CUDA_CHECK_NOTHROW:                   yields false, and the thread goes on.
// Only status types whose traits say `checkable_on_device` (cudaError_t, from napkin/check.hpp: the
// device runtime's calls return it) can be checked there. Another status in device code, or a launch
// macro (host-only), is a build error naming the problem: ptxas says "Unresolved extern function
// 'napkin_error_...'" (nvlink: "Undefined reference", with -rdc). It never compiles to nothing, which
// is what calling a host function from __host__ __device__ code does (nvcc only warns, #20011/#20014).
#if defined(__CUDACC__)
extern "C" __device__ void napkin_error_device_code_checks_only_statuses_whose_traits_say_checkable_on_device();
extern "C" __device__ void napkin_error_NAPKIN_CUDA_LAUNCH_and_NAPKIN_CUDA_CHECK_LAUNCH_are_host_only();

namespace detail {

#if defined(__CUDA_ARCH__)
constexpr const char* device_trap_note =
    "napkin: this thread traps; the host's next check reports a sticky launch failure; cudaGetErrorName "
    "names the status on the host";

// The device side of the three checks: whether `s` failed (neither a success nor `*allowed`); a failure
// prints one line saying `consequence`. A status whose traits do not say checkable_on_device is a build
// error here, never a check that compiles to nothing.
template <class Status>
__device__ bool failed_on_device(Status s, const Status* allowed, const char* expression, const char* file,
                                 unsigned line, const char* function, const char* consequence) {
  if constexpr (has_device_check<Status>::value) {
    if (NAPKIN_DETAIL_LIKELY((allowed && s == *allowed) || !status_traits<Status>::failed(s))) return false;
    ::printf("%s:%u: in %s(): device-side check of `%s` failed: status %lld (block [%u,%u,%u], thread "
             "[%u,%u,%u]) [%s]\n",
             file, line, function, expression, static_cast<long long>(s), blockIdx.x, blockIdx.y, blockIdx.z,
             threadIdx.x, threadIdx.y, threadIdx.z, consequence);
    return true;
  } else {
    (void)s, (void)allowed, (void)expression, (void)file, (void)line, (void)function, (void)consequence;
    napkin_error_device_code_checks_only_statuses_whose_traits_say_checkable_on_device();
    return false;
  }
}
#endif

// What the macros call in CUDA C++: the host functions above in host code, the device check in device
// code (the two compilation passes of one __host__ __device__ function each see their own branch).
template <class Status>
NAPKIN_DETAIL_HD inline Status check_hd(Status s, const char* expression, const char* file, unsigned line,
                                        const char* function) {
#if defined(__CUDA_ARCH__)
  if (failed_on_device(s, static_cast<const Status*>(nullptr), expression, file, line, function, device_trap_note))
    __trap();
  return s;
#else
  return check(s, expression, file, line, function);
#endif
}

template <class Status>
NAPKIN_DETAIL_HD inline Status check_allow_hd(Status s, Status allowed, const char* expression, const char* file,
                                              unsigned line, const char* function) {
#if defined(__CUDA_ARCH__)
  if (failed_on_device(s, &allowed, expression, file, line, function, device_trap_note)) __trap();
  return s;
#else
  return check_allow(s, allowed, expression, file, line, function);
#endif
}

template <class Status>
NAPKIN_DETAIL_HD inline bool check_nothrow_hd(Status s, const char* expression, const char* file, unsigned line,
                                              const char* function) noexcept {
#if defined(__CUDA_ARCH__)
  return !failed_on_device(s, static_cast<const Status*>(nullptr), expression, file, line, function,
                           "napkin: no-throw check: yields false, the thread goes on");
#else
  return check_nothrow(s, expression, file, line, function);
#endif
}

}  // namespace detail
#define NAPKIN_DETAIL_CHECK ::napkin::detail::check_hd
#define NAPKIN_DETAIL_CHECK_ALLOW ::napkin::detail::check_allow_hd
#define NAPKIN_DETAIL_CHECK_NOTHROW ::napkin::detail::check_nothrow_hd
#else
#define NAPKIN_DETAIL_CHECK ::napkin::detail::check
#define NAPKIN_DETAIL_CHECK_ALLOW ::napkin::detail::check_allow
#define NAPKIN_DETAIL_CHECK_NOTHROW ::napkin::detail::check_nothrow
#endif

NAPKIN_END_NAMESPACE

// The location of a check, as the three scalar arguments check functions take.
#define NAPKIN_DETAIL_SITE_ARGS __FILE__, static_cast<unsigned>(__LINE__), static_cast<const char*>(__func__)

// NAPKIN_CUDA_CHECK(expr): evaluates `expr` once; if its status is a failure, applies the failure policy
// (throws napkin::cuda_error by default). Works for every status type with napkin::status_traits.
// Yields the status, so `NAPKIN_CUDA_CHECK(f()) == x` is valid.
// In device code: see "device code" above.
#define NAPKIN_CUDA_CHECK(...) NAPKIN_DETAIL_CHECK((__VA_ARGS__), #__VA_ARGS__, NAPKIN_DETAIL_SITE_ARGS)

// NAPKIN_CUDA_CHECK_ALLOW(expr, status): as NAPKIN_CUDA_CHECK, but `status` also passes
// (e.g. NAPKIN_CUDA_CHECK_ALLOW(cudaStreamQuery(s), cudaErrorNotReady)).
#define NAPKIN_CUDA_CHECK_ALLOW(expr, allowed) \
  NAPKIN_DETAIL_CHECK_ALLOW((expr), (allowed), #expr, NAPKIN_DETAIL_SITE_ARGS)

// NAPKIN_CUDA_CHECK_NOTHROW(expr): for destructors and shutdown paths. Never throws; reports a failure
// (stderr, or the installed handler; failure_policy::abort_process still aborts) and yields false.
// A status that only says the process is exiting (cudaErrorCudartUnloading) yields true silently.
#define NAPKIN_CUDA_CHECK_NOTHROW(...) \
  NAPKIN_DETAIL_CHECK_NOTHROW((__VA_ARGS__), #__VA_ARGS__, NAPKIN_DETAIL_SITE_ARGS)
