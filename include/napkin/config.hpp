// SPDX-License-Identifier: Apache-2.0
// napkin/config.hpp — napkin's version, its switches, the compiler facts it depends on, and its namespaces.
//
// Every napkin header includes this one first. Nothing here needs CUDA.
//
// ---- Switches -----------------------------------------------------------------------------------------
// Every macro a user may define to change napkin is listed here. Define it on the command line
// (-DNAPKIN_SYNC_LAUNCHES=0) or before the first napkin include; a value you provide is used as is, and
// only a switch you leave undefined gets napkin's default ({fmt}'s `#ifndef FMT_X / #define FMT_X default`).
//
//   NAPKIN_SYNC_LAUNCHES=0|1  Whether NAPKIN_CUDA_CHECK_LAUNCH and NAPKIN_CUDA_LAUNCH synchronize the device
//                             after the launch, so that an asynchronous fault is reported at the launch that
//                             caused it. Default: 1 in debug builds (NDEBUG undefined), 0 otherwise. It is
//                             the default of the translation unit whose check decides first; the environment
//                             variable of the same name and napkin::set_launch_sync() override it
//                             (napkin/check.hpp).
//   NAPKIN_NO_SHORT_MACROS    Defined (to anything): napkin/check.hpp defines no CUDA_CHECK, only the
//                             NAPKIN_ names. Default (undefined): CUDA_CHECK is an alias of NAPKIN_CUDA_CHECK,
//                             unless the program defined its own CUDA_CHECK first (then that one is kept).
//   NAPKIN_NVTX_DISABLE       Defined (to anything), or NVTX3's own NVTX_DISABLE: every napkin NVTX range,
//                             mark and naming call compiles to nothing (empty objects, same API). Default:
//                             undefined. Read in napkin/nvtx/config.hpp, which then sets NAPKIN_NVTX_ENABLED.
//   NAPKIN_SEPARATE_COMPILATION=0|1
//                             1: napkin's headers declare what a unit calls (a header x.hpp whose bodies are
//                             in x_impl.hpp: the profiler, the monitor, the reports and documents, the text
//                             toolkit) and leave the bodies to the one source file of the program that
//                             includes napkin/compiled.hpp, so that including them costs a unit less (Boost.Asio's
//                             BOOST_ASIO_SEPARATE_COMPILATION; docs/compile-time.md). Define it for every unit
//                             of the program, that file included, with the same exception setting; never mix
//                             units with and without it (the same members would be inline in some units and
//                             not in others, which nothing diagnoses). Default: 0 (header-only).
//
// Run-time switches (environment variables, each read once per process, on first use):
//   NAPKIN_SYNC_LAUNCHES=0|1  as above, over the compiled default (napkin/check.hpp)
//   NAPKIN_NVTX=0|1           napkin's NVTX ranges off / on (default on; napkin/nvtx/switch.hpp)
//
// Facts napkin defines for you to test (never define these yourself):
//   NAPKIN_VERSION, NAPKIN_VERSION_MAJOR, _MINOR, _PATCH   this header
//   NAPKIN_HAS_EXCEPTIONS       1 in a translation unit compiled with exceptions, else 0 (this header)
//   NAPKIN_NVTX_ENABLED         0 when NVTX is compiled out (napkin/nvtx/config.hpp)
//   NAPKIN_NVTX_CHECKED_FORMAT  1 when literal NVTX formats are checked at compile time (napkin/nvtx/format.hpp)
//
// ---- Namespaces ---------------------------------------------------------------------------------------
// Everything napkin declares lives in
//   napkin::v0_1::with_exceptions      (translation units compiled with exceptions), or
//   napkin::v0_1::without_exceptions   (-fno-exceptions),
// both inline, so user code writes napkin::estimate, napkin::range, ... as always. A function whose
// failure path throws in one unit and aborts in the other therefore has two distinct symbols: linking
// both kinds of unit into one program cannot make the linker pick one body for both (an ODR violation
// whose effect would depend on link order). The version namespace (v<major>_<minor>, from the version
// below) keeps two napkin versions in one program apart the same way: each has its own failure policy,
// launch-sync switch and NVTX switch. Patch releases of one minor version share it, as they share the
// CMake package (SameMinorVersion).
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
// tests/check/mixed_configurations_test.cpp links units of both kinds and of another version into one
// program and shows what they share and what they keep apart.
//
// ---- Internal macros ----------------------------------------------------------------------------------
// NAPKIN_DETAIL_* macros are not an interface. Those every header may use are defined here:
//   NAPKIN_DETAIL_VERSION_NAMESPACE    the version namespace's name (see below), made by
//   NAPKIN_DETAIL_VERSION_NAME(2)      from the version's major and minor numbers
//   NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE with_exceptions or without_exceptions
//   NAPKIN_DETAIL_LIKELY(x), NAPKIN_DETAIL_UNLIKELY(x)   branch hints
//   NAPKIN_DETAIL_COLD                 a failure path: out of line, out of the hot code
//   NAPKIN_DETAIL_PRETTY_FUNCTION      the compiler's decorated function name
//   NAPKIN_DETAIL_HD                   __host__ __device__ in CUDA C++, nothing in plain C++
//   NAPKIN_DETAIL_FUNC                 a function NAPKIN_SEPARATE_COMPILATION compiles once: `inline`
//                                      header-only, nothing when separately compiled
// A header's own helper macros are defined in it: those that its public macros expand stay defined (and
// say so); those it needs only while it is read are #undef'd at its end.
#pragma once

#define NAPKIN_VERSION_MAJOR 0
#define NAPKIN_VERSION_MINOR 1
#define NAPKIN_VERSION_PATCH 0
// major * 10000 + minor * 100 + patch, for `#if NAPKIN_VERSION >= 100`. The CMake project reads its
// version from the three lines above (CMakeLists.txt); tests/build/version_test.cpp compares them.
#define NAPKIN_VERSION (NAPKIN_VERSION_MAJOR * 10000 + NAPKIN_VERSION_MINOR * 100 + NAPKIN_VERSION_PATCH)

// ---- Switches with a default (see the list above) ----
#ifndef NAPKIN_SYNC_LAUNCHES
#ifdef NDEBUG
#define NAPKIN_SYNC_LAUNCHES 0
#else
#define NAPKIN_SYNC_LAUNCHES 1
#endif
#endif

#ifndef NAPKIN_SEPARATE_COMPILATION
#define NAPKIN_SEPARATE_COMPILATION 0
#endif

// ---- Compiler facts ----
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define NAPKIN_HAS_EXCEPTIONS 1
#define NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE with_exceptions
#else
#define NAPKIN_HAS_EXCEPTIONS 0
#define NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE without_exceptions
#endif

#if defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_LIKELY(x) __builtin_expect(!!(x), 1)
#define NAPKIN_DETAIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NAPKIN_DETAIL_COLD __attribute__((cold, noinline))
#define NAPKIN_DETAIL_PRETTY_FUNCTION __PRETTY_FUNCTION__
#else
#define NAPKIN_DETAIL_LIKELY(x) (x)
#define NAPKIN_DETAIL_UNLIKELY(x) (x)
#define NAPKIN_DETAIL_COLD
#define NAPKIN_DETAIL_PRETTY_FUNCTION __FUNCTION__
#endif

// Functions that CUDA C++ compiles for the host and the device (the checks' device side, napkin/check/core.hpp).
#if defined(__CUDACC__)
#define NAPKIN_DETAIL_HD __host__ __device__
#else
#define NAPKIN_DETAIL_HD
#endif

// A function defined in an *_impl.hpp header that NAPKIN_SEPARATE_COMPILATION compiles once (napkin/compiled.hpp).
#if NAPKIN_SEPARATE_COMPILATION
#define NAPKIN_DETAIL_FUNC
#else
#define NAPKIN_DETAIL_FUNC inline
#endif

// ---- Namespaces ----
// v<major>_<minor> of the version above. Only napkin's own tests define it, to build a translation unit as
// another napkin version would be (tests/check/mixed_configurations); a program that defines it gives up
// the separation between versions that it exists for.
#ifndef NAPKIN_DETAIL_VERSION_NAMESPACE
#define NAPKIN_DETAIL_VERSION_NAMESPACE NAPKIN_DETAIL_VERSION_NAME(NAPKIN_VERSION_MAJOR, NAPKIN_VERSION_MINOR)
#endif
#define NAPKIN_DETAIL_VERSION_NAME(major, minor) NAPKIN_DETAIL_VERSION_NAME2(major, minor)
#define NAPKIN_DETAIL_VERSION_NAME2(major, minor) v##major##_##minor

// Opens and closes napkin's namespace in a header; every napkin header uses these, never
// `namespace napkin {` directly (a second, non-inline napkin::detail would make names ambiguous).
#define NAPKIN_BEGIN_NAMESPACE                       \
  namespace napkin {                                 \
  inline namespace NAPKIN_DETAIL_VERSION_NAMESPACE { \
  inline namespace NAPKIN_DETAIL_EXCEPTIONS_NAMESPACE {
#define NAPKIN_END_NAMESPACE \
  }                          \
  }                          \
  }
// Types shared by both kinds of unit (see above).
#define NAPKIN_BEGIN_COMMON_NAMESPACE \
  namespace napkin {                  \
  inline namespace NAPKIN_DETAIL_VERSION_NAMESPACE {
#define NAPKIN_END_COMMON_NAMESPACE \
  }                                 \
  }
// Process-wide state shared by every unit of this napkin version (see above).
#define NAPKIN_BEGIN_PROCESS_STATE                   \
  namespace napkin {                                 \
  inline namespace NAPKIN_DETAIL_VERSION_NAMESPACE { \
  namespace process_state {
#define NAPKIN_END_PROCESS_STATE \
  }                              \
  }                              \
  }
