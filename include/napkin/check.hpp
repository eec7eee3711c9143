// SPDX-License-Identifier: Apache-2.0
// napkin/check.hpp — check every CUDA status: the runtime API here, the driver and each library through
// napkin/check/<library>.hpp, all with the same macros.
//
//   NAPKIN_CUDA_CHECK(cudaMalloc(&p, bytes));        // throws napkin::cuda_error on failure
//   kernel<<<grid, block>>>(p);
//   NAPKIN_CUDA_CHECK_LAUNCH();                      // the launch's own error (and, when asked, its fault)
//   NAPKIN_CUDA_LAUNCH(kernel<<<grid, block>>>(p));  // same, and an earlier pending error is named as such
//   ~buffer() { NAPKIN_CUDA_CHECK_NOTHROW(cudaFree(p)); }  // never throws; quiet at process exit
//
// `CUDA_CHECK` is defined as an alias of NAPKIN_CUDA_CHECK unless the program already defines one or
// defines NAPKIN_NO_SHORT_MACROS (napkin/config.hpp lists the switches).
//
// NAPKIN_DETAIL_CHECK_LAUNCH and NAPKIN_DETAIL_CHECK_NOTHING_PENDING stay defined: the launch macros at
// the end expand them in the user's code.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "napkin/check/core.hpp"
#include "napkin/detail/switch_word.hpp"

NAPKIN_BEGIN_PROCESS_STATE
// Whether launches are synchronized: -1 not decided yet (read the environment on first use); 0 or 1.
inline std::atomic<int> launch_sync{-1};
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE

template <>
struct status_traits<cudaError_t> {
  static constexpr const char* library = "CUDA runtime";
  // The device runtime's calls return cudaError_t too: the macros check it in device code (core.hpp).
  static constexpr bool checkable_on_device = true;
  NAPKIN_DETAIL_HD static constexpr bool failed(cudaError_t e) noexcept { return e != cudaSuccess; }
  static const char* name(cudaError_t e) noexcept { return cudaGetErrorName(e); }
  static const char* description(cudaError_t e) noexcept { return cudaGetErrorString(e); }
  // The errors the runtime documents as leaving the context in an inconsistent state ("the process
  // must be terminated and relaunched"), from driver_types.h.
  static constexpr bool sticky(cudaError_t e) noexcept {
    switch (e) {
      case cudaErrorContained:
      case cudaErrorIllegalAddress:
      case cudaErrorLaunchTimeout:
      case cudaErrorAssert:
      case cudaErrorHardwareStackError:
      case cudaErrorIllegalInstruction:
      case cudaErrorMisalignedAddress:
      case cudaErrorInvalidAddressSpace:
      case cudaErrorInvalidPc:
      case cudaErrorLaunchFailure:
      case cudaErrorTensorMemoryLeak:
      case cudaErrorMpsClientTerminated:
      case cudaErrorExternalDevice:
        return true;
      default:
        return false;
    }
  }
  static constexpr bool shutting_down(cudaError_t e) noexcept { return e == cudaErrorCudartUnloading; }
  static constexpr const char* hint(cudaError_t e) noexcept {
    switch (e) {
      case cudaErrorInsufficientDriver:
        return "no CUDA driver, or one older than this runtime: install or update the NVIDIA driver";
      case cudaErrorNoDevice:
        return "no CUDA-capable device is visible (check CUDA_VISIBLE_DEVICES and the driver)";
      case cudaErrorNoKernelImageForDevice:
        return "the binary holds no code for this GPU: add its architecture to -arch / "
               "CMAKE_CUDA_ARCHITECTURES";
      case cudaErrorLaunchOutOfResources:
        return "too many registers or too much shared memory for this block size: lower the block size "
               "or the registers (__launch_bounds__, -maxrregcount)";
      default:
        return nullptr;
    }
  }
  // Clear the thread's last-error state so this failure is not reported again by a later check;
  // sticky errors cannot be cleared and keep being returned.
  static void after_failure(cudaError_t) noexcept { (void)cudaGetLastError(); }
};

// ---- kernel-launch checks ------------------------------------------------------------------------

// Whether NAPKIN_CUDA_CHECK_LAUNCH synchronizes the device after the launch so that an asynchronous
// fault is attributed to the launch that caused it: the compiled default NAPKIN_SYNC_LAUNCHES
// (napkin/config.hpp: on in debug builds), over it the environment variable NAPKIN_SYNC_LAUNCHES=0/1 (or
// true/false, on/off, yes/no)
// (read once), over both set_launch_sync().

namespace detail {

// The compiled default comes in as an argument, from the macros' expansion in the caller's translation
// unit: a body that read NAPKIN_SYNC_LAUNCHES itself would differ between debug and release translation
// units of one program (an ODR violation). The first decision holds for the whole process.
// The value is read by detail::parse_switch_word (1/0, true/false, on/off, yes/no, any case); anything else
// is said on stderr (this runs inside a noexcept check) and the compiled default holds.
inline int launch_sync_from_environment(bool compiled_default) noexcept {
  const char* v = std::getenv("NAPKIN_SYNC_LAUNCHES");  // NOLINT(concurrency-mt-unsafe): read-only use
  if (v && *v) {
    const switch_word w = parse_switch_word(v);
    if (w != switch_word::other) return w == switch_word::on ? 1 : 0;
    std::fprintf(stderr,
                 "napkin: NAPKIN_SYNC_LAUNCHES=\"%s\" is not on or off (1/0, true/false, on/off or yes/no, any "
                 "case); launches stay %s (the build's default)\n",
                 v, compiled_default ? "synchronized" : "unsynchronized");
  }
  return compiled_default ? 1 : 0;
}

inline bool launch_sync(bool compiled_default) noexcept {
  int v = process_state::launch_sync.load(std::memory_order_relaxed);
  if (NAPKIN_DETAIL_UNLIKELY(v < 0)) {
    v = launch_sync_from_environment(compiled_default);
    int expected = -1;
    if (!process_state::launch_sync.compare_exchange_strong(expected, v)) v = expected;
  }
  return v != 0;
}
}  // namespace detail

inline void set_launch_sync(bool on) noexcept { process_state::launch_sync.store(on ? 1 : 0); }
// Whether launches are synchronized (decides it now, from the environment and this translation unit's
// NAPKIN_SYNC_LAUNCHES, if no check has yet).
#define NAPKIN_LAUNCH_SYNC() ::napkin::detail::launch_sync(NAPKIN_SYNC_LAUNCHES != 0)

namespace detail {

constexpr const char* launch_sync_reason =
    "asynchronous fault in this launch (found by the synchronization after it: NAPKIN_SYNC_LAUNCHES or "
    "a debug build)";

// The errors that say CUDA cannot be used in this process at all: no driver or a stub, no device, a
// driver/runtime mismatch, devices busy or unlicensed, MPS unreachable (driver_types.h's descriptions).
// The runtime returns them to every call once its initialization has failed, cudaGetLastError included,
// so the first check of a program can see one with no earlier call at all: nobody "left" it pending.
constexpr bool initialization_failure(cudaError_t e) noexcept {
  switch (e) {
    case cudaErrorInitializationError:
    case cudaErrorStubLibrary:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoDevice:
    case cudaErrorDeviceNotLicensed:
    case cudaErrorSystemNotReady:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorMpsConnectionFailed:
      return true;
    default:
      return false;
  }
}

constexpr const char* initialization_note =
    "CUDA could not be initialized in this process (the runtime returns that to every call, from the first "
    "one on, so no earlier call is to blame); no kernel ran";

// After a launch: its configuration error, or a sticky fault of earlier work, and then, when launch
// synchronization is on, the fault of the kernel itself.
inline void check_last_launch(const char* what, bool sync_default, const char* file, unsigned line,
                              const char* function) {
  const source_site site{file, line, function};
  const cudaError_t e = cudaGetLastError();
  if (NAPKIN_DETAIL_UNLIKELY(e != cudaSuccess)) {
    const char* note = "launch configuration error, or an error left pending by an earlier unchecked call "
                       "(NAPKIN_CUDA_LAUNCH tells them apart)";
    if (initialization_failure(e)) note = initialization_note;
    if (status_traits<cudaError_t>::sticky(e)) note = "reported at this launch, raised by earlier asynchronous work";
    fail(e, what, site, note);
    return;
  }
  if (NAPKIN_DETAIL_UNLIKELY(launch_sync(sync_default))) {
    const cudaError_t f = cudaDeviceSynchronize();
    if (f != cudaSuccess) fail(f, what, site, launch_sync_reason);
  }
}

// Before a launch: an error already pending in this thread belongs to earlier work. Report it as such
// (and clear it, when it can be cleared) so that it is not blamed on the launch. An initialization
// failure is no earlier work's error: it is reported as this launch's own, with what it means.
inline void check_nothing_pending(const char* what, const char* file, unsigned line, const char* function) {
  const source_site site{file, line, function};
  const cudaError_t e = cudaGetLastError();
  if (NAPKIN_DETAIL_LIKELY(e == cudaSuccess)) return;
  if (initialization_failure(e)) {
    fail(e, what, site, initialization_note);
  } else if (status_traits<cudaError_t>::sticky(e)) {
    fail(e, what, site, "found before this launch; not produced by it", true);
  } else {
    fail(e, what, site, "left by an earlier, unchecked call; not produced by this launch", true);
  }
}

#if defined(__CUDACC__)
// The launch checks in CUDA C++: host-only; in device code a build error (core.hpp, "device code").
NAPKIN_DETAIL_HD inline void check_last_launch_hd(const char* what, bool sync_default, const char* file,
                                                  unsigned line, const char* function) {
#if defined(__CUDA_ARCH__)
  (void)what, (void)sync_default, (void)file, (void)line, (void)function;
  napkin_error_NAPKIN_CUDA_LAUNCH_and_NAPKIN_CUDA_CHECK_LAUNCH_are_host_only();
#else
  check_last_launch(what, sync_default, file, line, function);
#endif
}
NAPKIN_DETAIL_HD inline void check_nothing_pending_hd(const char* what, const char* file, unsigned line,
                                                      const char* function) {
#if defined(__CUDA_ARCH__)
  (void)what, (void)file, (void)line, (void)function;
  napkin_error_NAPKIN_CUDA_LAUNCH_and_NAPKIN_CUDA_CHECK_LAUNCH_are_host_only();
#else
  check_nothing_pending(what, file, line, function);
#endif
}
#define NAPKIN_DETAIL_CHECK_LAUNCH ::napkin::detail::check_last_launch_hd
#define NAPKIN_DETAIL_CHECK_NOTHING_PENDING ::napkin::detail::check_nothing_pending_hd
#else
#define NAPKIN_DETAIL_CHECK_LAUNCH ::napkin::detail::check_last_launch
#define NAPKIN_DETAIL_CHECK_NOTHING_PENDING ::napkin::detail::check_nothing_pending
#endif

}  // namespace detail
NAPKIN_END_NAMESPACE

// After `kernel<<<...>>>(...)`: reports the launch's error (invalid configuration, too many resources,
// no image for this GPU); with launch synchronization on, also the kernel's own fault.
#define NAPKIN_CUDA_CHECK_LAUNCH()                                                                    \
  NAPKIN_DETAIL_CHECK_LAUNCH("kernel launch (cudaGetLastError after it)", NAPKIN_SYNC_LAUNCHES != 0, \
                             NAPKIN_DETAIL_SITE_ARGS)

// Wraps a launch: an error pending before it is reported as pending (not blamed on the launch), then the
// launch is made and checked as by NAPKIN_CUDA_CHECK_LAUNCH. Usage: NAPKIN_CUDA_LAUNCH(k<<<g, b>>>(x, y));
#define NAPKIN_CUDA_LAUNCH(...)                                                                  \
  do {                                                                                           \
    NAPKIN_DETAIL_CHECK_NOTHING_PENDING(#__VA_ARGS__, NAPKIN_DETAIL_SITE_ARGS);                  \
    __VA_ARGS__;                                                                                 \
    NAPKIN_DETAIL_CHECK_LAUNCH(#__VA_ARGS__, NAPKIN_SYNC_LAUNCHES != 0, NAPKIN_DETAIL_SITE_ARGS); \
  } while (0)

#if !defined(NAPKIN_NO_SHORT_MACROS) && !defined(CUDA_CHECK)
#define CUDA_CHECK(...) NAPKIN_CUDA_CHECK(__VA_ARGS__)
#endif
