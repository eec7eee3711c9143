// SPDX-License-Identifier: Apache-2.0
// napkin/system/cuda_calls.hpp — what a CUDA runtime or driver call does to the host, from its name
// ("cudaStreamSynchronize", "cuMemcpyHtoD_v2", "cudaLaunchKernel_ptsz"): waits for the GPU, copies or sets
// memory synchronously, launches, launches a graph, or none of these. CUPTI names API records by callback id
// (cuptiGetCallbackName); classifying the name, not the id, keeps the table right across toolkit versions.
// is_state_query() names the calls the system view leaves out.
//
// Synchronous copies and memsets are the calls without "Async" (CUDA Runtime API, "API synchronization
// behavior": a cudaMemcpy returns when the copy is done for pageable and device memory; cudaMemset is
// asynchronous with respect to the host only for device memory, and Nsight Systems' cuda_memset_sync rule
// reports it all the same). Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <string_view>

#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
constexpr bool starts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.substr(0, prefix.size()) == prefix;
}
constexpr bool contains(std::string_view s, std::string_view part) noexcept {
  return s.find(part) != std::string_view::npos;
}
}  // namespace detail

// The call's base name: without CUPTI's version suffix ("_v3020", "_v2") and the per-thread default stream
// suffixes ("_ptsz", "_ptds"), which do not change what the call does.
constexpr std::string_view cuda_call_base_name(std::string_view name) noexcept {
  for (bool trimmed = true; trimmed;) {
    trimmed = false;
    for (std::string_view suffix : {std::string_view("_ptsz"), std::string_view("_ptds")})
      if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
        name.remove_suffix(suffix.size());
        trimmed = true;
      }
    const std::size_t v = name.rfind("_v");
    if (v != std::string_view::npos && v + 2 < name.size()) {
      bool digits = true;
      for (char c : name.substr(v + 2)) digits = digits && c >= '0' && c <= '9';
      if (digits) {
        name = name.substr(0, v);
        trimmed = true;
      }
    }
  }
  return name;
}

// Calls that only read state the runtime or driver already holds: they neither wait for the GPU nor enqueue,
// allocate, copy or set anything, and return in well under a microsecond. The system view does not record
// them (a program that checks every launch with cudaGetLastError makes one per kernel; CUPTI writes an API
// record, and an external-correlation record inside a range, for each). Calls that can load a module
// (cudaFuncGetAttributes) or take long (cudaGetDeviceProperties) are not on the list; polls of the GPU
// (cudaStreamQuery, cudaEventQuery) are not either: a host spinning on them is waiting. The CUDA 13 runtime
// calls cuKernelGetName inside every cudaLaunchKernel (benchmarks/device/record_cost_probe.cu): left in, each
// launch would carry a second API record and a second external-correlation record.
constexpr bool is_state_query(std::string_view name) noexcept {
  name = cuda_call_base_name(name);
  for (std::string_view q :
       {std::string_view("cudaGetLastError"), std::string_view("cudaPeekAtLastError"), std::string_view("cudaGetDevice"),
        std::string_view("cudaGetDeviceCount"), std::string_view("cudaDeviceGetAttribute"),
        std::string_view("cudaDriverGetVersion"), std::string_view("cudaRuntimeGetVersion"),
        std::string_view("cudaStreamGetCaptureInfo"), std::string_view("cudaStreamIsCapturing"),
        std::string_view("cudaThreadExchangeStreamCaptureMode"), std::string_view("cudaStreamGetPriority"),
        std::string_view("cudaStreamGetFlags"), std::string_view("cudaStreamGetDevice"),
        std::string_view("cudaPointerGetAttributes"), std::string_view("cuCtxGetCurrent"),
        std::string_view("cuCtxGetDevice"), std::string_view("cuDeviceGet"), std::string_view("cuDeviceGetCount"),
        std::string_view("cuDeviceGetAttribute"), std::string_view("cuDriverGetVersion"),
        std::string_view("cuCtxGetApiVersion"), std::string_view("cuCtxGetFlags"), std::string_view("cuCtxGetId"),
        std::string_view("cuStreamGetCtx"), std::string_view("cuStreamGetCaptureInfo"),
        std::string_view("cuStreamIsCapturing"), std::string_view("cuStreamGetPriority"),
        std::string_view("cuStreamGetFlags"), std::string_view("cuStreamGetId"), std::string_view("cuPointerGetAttribute"),
        std::string_view("cuPointerGetAttributes"),
        std::string_view("cuKernelGetName"), std::string_view("cuFuncGetName")})
    if (name == q) return true;
  return false;
}

constexpr host_call_kind classify_cuda_call(std::string_view name) noexcept {
  using detail::contains;
  using detail::starts_with;
  name = cuda_call_base_name(name);
  if (name == "cudaDeviceSynchronize" || name == "cudaThreadSynchronize" || name == "cuCtxSynchronize")
    return host_call_kind::device_synchronize;
  if (name == "cudaStreamSynchronize" || name == "cuStreamSynchronize") return host_call_kind::stream_synchronize;
  if (name == "cudaEventSynchronize" || name == "cuEventSynchronize") return host_call_kind::event_synchronize;
  if (name == "cudaGraphLaunch" || name == "cuGraphLaunch") return host_call_kind::graph_launch;
  if (name == "cudaLaunch" || starts_with(name, "cudaLaunchKernel") || starts_with(name, "cudaLaunchCooperativeKernel") ||
      starts_with(name, "cuLaunchKernel") || starts_with(name, "cuLaunchCooperativeKernel") || name == "cuLaunchGrid" ||
      name == "cuLaunchGridAsync")
    return host_call_kind::launch;
  const bool async = contains(name, "Async");
  // cudaMemcpy, cudaMemcpy2D, cudaMemcpyToSymbol, cudaMemcpyPeer, ...; cuMemcpyHtoD, cuMemcpy3D, ...
  if ((starts_with(name, "cudaMemcpy") || starts_with(name, "cuMemcpy")) && !async)
    return host_call_kind::synchronous_copy;
  if ((starts_with(name, "cudaMemset") || starts_with(name, "cuMemsetD")) && !async)
    return host_call_kind::synchronous_memset;
  return host_call_kind::other;
}

NAPKIN_END_NAMESPACE
