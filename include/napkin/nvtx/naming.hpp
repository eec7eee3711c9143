// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/naming.hpp — names a tool shows for categories, OS threads, CUDA streams, devices and events.
//
//   napkin::name_current_thread("loader");      napkin::name_thread(os_thread_id, "worker");
//   napkin::name_stream(stream, "copy");        napkin::name_device(0, "gpu0");   napkin::name_event(e, "done");
//   static const auto io = napkin::name_category<my_lib>(2, "I/O");   // then napkin::category{2} == io
// Each is one call into NVTX when napkin's switch is on, nothing otherwise; compiled out, nothing at all.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/attributes.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/domain.hpp"
#include "napkin/nvtx/switch.hpp"

// Stream, device and event naming: CUDA's types only, no libcuda needed. Here rather than in nvtx/config.hpp,
// so that a unit that only needs a domain (profiler::watch_phase) does not read cuda.h.
#if !defined(NVTX_AS_SYSTEM_HEADER)
#define NVTX_AS_SYSTEM_HEADER  // NVTX's own code is not ours to warn about
#define NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif
#include <nvtx3/nvToolsExtCudaRt.h>
#if defined(NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM)
#undef NVTX_AS_SYSTEM_HEADER
#undef NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif

#include <cstdint>

#if defined(_WIN32)
#include <processthreadsapi.h>  // GetCurrentThreadId
#else
#include <sys/syscall.h>  // SYS_gettid
#include <unistd.h>
#endif

NAPKIN_BEGIN_NAMESPACE

#if NAPKIN_NVTX_ENABLED
inline namespace nvtx_on {
// Names category `id` in domain D (once, at setup) and returns it for use as an attribute.
template <class D = default_domain>
category name_category(std::uint32_t id, const char* name) noexcept {
  if (detail::runtime_enabled()) nvtxDomainNameCategoryA(nvtx3::v1::domain::get<D>(), id, name);
  return category{id};
}
// The OS id of the calling thread, as NVTX's nvtxNameOsThread expects it.
inline std::uint32_t current_os_thread_id() noexcept {
#if defined(_WIN32)
  return static_cast<std::uint32_t>(GetCurrentThreadId());
#else
  return static_cast<std::uint32_t>(::syscall(SYS_gettid));
#endif
}
inline void name_thread(std::uint32_t os_thread_id, const char* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameOsThreadA(os_thread_id, name);
}
inline void name_current_thread(const char* name) noexcept { name_thread(current_os_thread_id(), name); }
// Names a CUDA stream (cudaStream_t, including the legacy/per-thread default handles) for Nsight.
inline void name_stream(cudaStream_t stream, const char* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaStreamA(stream, name);
}
// Names CUDA device `device` (a runtime device ordinal) for Nsight.
inline void name_device(int device, const char* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaDeviceA(device, name);
}
inline void name_event(cudaEvent_t event, const char* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaEventA(event, name);
}
}  // namespace nvtx_on
#else   // compiled out: the same functions, empty
inline namespace nvtx_off {
template <class D = default_domain>
category name_category(std::uint32_t id, const char*) noexcept {
  return category{id};
}
inline std::uint32_t current_os_thread_id() noexcept { return 0; }
inline void name_thread(std::uint32_t, const char*) noexcept {}
inline void name_current_thread(const char*) noexcept {}
inline void name_stream(cudaStream_t, const char*) noexcept {}
inline void name_device(int, const char*) noexcept {}
inline void name_event(cudaEvent_t, const char*) noexcept {}
}  // namespace nvtx_off
#endif  // NAPKIN_NVTX_ENABLED

NAPKIN_END_NAMESPACE
