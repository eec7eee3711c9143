// napkin/config.hpp — napkin's version, the compiler facts it depends on, and its namespaces.
//
// Every napkin header includes this one first. Nothing here needs CUDA.
//
// Namespaces. Everything napkin declares lives in
//   napkin::v0_1::with_exceptions      (translation units compiled with exceptions), or
//   napkin::v0_1::without_exceptions   (-fno-exceptions),
// both inline, so user code writes napkin::estimate, napkin::range, ... as always. A function whose
// failure path throws in one unit and aborts in the other therefore has two distinct symbols: linking
// both kinds of unit into one program cannot make the linker pick one body for both (an ODR violation
// whose effect would depend on link order). The version namespace keeps two napkin versions in one
// program apart the same way.
//
// Two things are shared by every unit of this version, whatever its exception setting:
//   - the vocabulary types both kinds of unit hand each other (error_info, the failure policy and the
//     handler's type, cuda_error) live in napkin::v0_1 itself (NAPKIN_BEGIN_COMMON_NAMESPACE): a handler
//     installed by one kind of unit is then called by the other with the very type it was declared
//     with. Only types whose definitions do not depend on exceptions go there, and no `detail`
//     namespace (napkin::detail would become ambiguous).
//   - process-wide state (the failure policy, the NVTX switch, ...) lives in napkin::v0_1::process_state.
//     It is documented where it is declared; every piece of it is an atomic, guarded by a mutex, or
//     thread_local.
#pragma once

#define NAPKIN_VERSION_MAJOR 0
#define NAPKIN_VERSION_MINOR 1
#define NAPKIN_VERSION_PATCH 0
// major * 10000 + minor * 100 + patch, for `#if NAPKIN_VERSION >= 100`.
#define NAPKIN_VERSION (NAPKIN_VERSION_MAJOR * 10000 + NAPKIN_VERSION_MINOR * 100 + NAPKIN_VERSION_PATCH)

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define NAPKIN_HAS_EXCEPTIONS 1
#define NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE with_exceptions
#else
#define NAPKIN_HAS_EXCEPTIONS 0
#define NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE without_exceptions
#endif

// Opens and closes napkin's namespace in a header; every napkin header uses these, never
// `namespace napkin {` directly (a second, non-inline napkin::detail would make names ambiguous).
#define NAPKIN_BEGIN_NAMESPACE \
  namespace napkin {           \
  inline namespace v0_1 {      \
  inline namespace NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE {
#define NAPKIN_END_NAMESPACE \
  }                          \
  }                          \
  }
// Types shared by both kinds of unit (see above).
#define NAPKIN_BEGIN_COMMON_NAMESPACE \
  namespace napkin {                  \
  inline namespace v0_1 {
#define NAPKIN_END_COMMON_NAMESPACE \
  }                                 \
  }
// Process-wide state shared by every unit of this napkin version (see above).
#define NAPKIN_BEGIN_PROCESS_STATE \
  namespace napkin {               \
  inline namespace v0_1 {          \
  namespace process_state {
#define NAPKIN_END_PROCESS_STATE \
  }                              \
  }                              \
  }

#if defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_LIKELY(x) __builtin_expect(!!(x), 1)
#define NAPKIN_DETAIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
// Failure paths: kept out of line and out of the hot code.
#define NAPKIN_DETAIL_COLD __attribute__((cold, noinline))
#define NAPKIN_DETAIL_PRETTY_FUNCTION __PRETTY_FUNCTION__
#else
#define NAPKIN_DETAIL_LIKELY(x) (x)
#define NAPKIN_DETAIL_UNLIKELY(x) (x)
#define NAPKIN_DETAIL_COLD
#define NAPKIN_DETAIL_PRETTY_FUNCTION __FUNCTION__
#endif
