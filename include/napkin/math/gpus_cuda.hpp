// SPDX-License-Identifier: Apache-2.0
// napkin/math/gpus_cuda.hpp — a napkin::gpu_spec for the GPU you are running on, from the CUDA runtime.
//
//   napkin::device_gpu dev = napkin::device_gpu_spec();     // current device
//   double t = napkin::lower_bound_seconds(w, dev.spec, napkin::pipe::fp32);
//
// The derivation is napkin::derive_gpu_spec (napkin/math/derived_spec.hpp, docs/napkin-math.md):
// peaks = SMs × per-SM FLOP/clock × max SM clock, bandwidth = 2 × memory clock × bus width / 8.
// Unlike the other napkin math headers this one needs the CUDA runtime (cudart; not the driver library).
// CUDA 13 removed cudaDeviceProp::clockRate and ::memoryClockRate, so the clocks come from
// cudaDeviceGetAttribute. A failed query goes through napkin's check family (napkin/check.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "napkin/check.hpp"
#include "napkin/detail/device_index.hpp"
#include "napkin/error.hpp"
#include "napkin/math/derived_spec.hpp"
#include "napkin/math/gpu_spec.hpp"

NAPKIN_BEGIN_NAMESPACE

struct device_gpu {
  std::string name;    // cudaDeviceProp::name, e.g. "NVIDIA H100 80GB HBM3"
  device_facts facts;  // what the runtime reported
  gpu_spec spec;       // derived; spec.key is "derived"
};

namespace detail {
// A query checked like any CUDA call (napkin/check.hpp: napkin::cuda_error by default, print and abort
// without exceptions). A failed query has no value to continue with, so a failure handler that returns
// ends the process.
inline void device_query(cudaError_t e, const char* expression, source_site site) {
  if (NAPKIN_DETAIL_UNLIKELY(status_traits<cudaError_t>::failed(check(e, expression, site.file, site.line,
                                                                      site.function))))
    print_and_abort("napkin: fatal (the failure handler returned; there is no device to describe): ",
                    make_info(e, expression, site));
}
}  // namespace detail

namespace detail {
// Refuses an index that names no device (std::invalid_argument), before the runtime is asked about it.
inline void require_existing_device(int device, const char* who, source_site site) {
  int count = 0;
  device_query(cudaGetDeviceCount(&count), "cudaGetDeviceCount(&count)", site);
  if (const std::string problem = device_index_problem(device, count, who); !problem.empty())
    raise_input_error(problem);
}
}  // namespace detail

// What the runtime reports for `device` (0 or more); throws std::invalid_argument for an index that names
// no device and napkin::cuda_error (a std::runtime_error) when it cannot be queried (without exceptions:
// prints the error and aborts).
inline device_facts query_device_facts(int device, std::string* name = nullptr) {
  constexpr const char* fn = "napkin::query_device_facts";
  constexpr const char* file = "napkin/math/gpus_cuda.hpp";
  if (device == detail::current_device_index)
    detail::raise_input_error("napkin: query_device_facts's device is -1; name a device (0 or more)");
  detail::require_existing_device(device, "query_device_facts's device", {file, __LINE__, fn});
  cudaDeviceProp prop{};
  detail::device_query(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties(&prop, device)",
                       {file, __LINE__, fn});
  int sm_clock_khz = 0;
  int mem_clock_khz = 0;
  detail::device_query(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device),
                       "cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device)", {file, __LINE__, fn});
  detail::device_query(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, device),
                       "cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, device)", {file, __LINE__, fn});
  if (name != nullptr) name->assign(prop.name, strnlen(prop.name, sizeof prop.name));
  device_facts f;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.sm_clock_khz = sm_clock_khz;
  f.memory_clock_khz = mem_clock_khz;
  f.memory_bus_bits = prop.memoryBusWidth;
  f.l2_bytes = prop.l2CacheSize > 0 ? static_cast<std::uint64_t>(prop.l2CacheSize) : 0;
  return f;
}

// The derived spec of `device` (default -1: the current device); std::invalid_argument for an index that
// names no device.
inline device_gpu device_gpu_spec(int device = -1) {
  detail::require_existing_device(device, "device_gpu_spec's device",
                                  {"napkin/math/gpus_cuda.hpp", __LINE__, "napkin::device_gpu_spec"});
  if (device == detail::current_device_index)
    detail::device_query(cudaGetDevice(&device), "cudaGetDevice(&device)",
                         {"napkin/math/gpus_cuda.hpp", __LINE__, "napkin::device_gpu_spec"});
  device_gpu d;
  d.facts = query_device_facts(device, &d.name);
  d.spec = derive_gpu_spec(d.facts);
  return d;
}

NAPKIN_END_NAMESPACE
