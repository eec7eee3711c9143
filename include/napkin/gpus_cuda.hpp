// napkin/gpus_cuda.hpp — a napkin::gpu_spec for the GPU you are running on, from the CUDA runtime.
//
//   napkin::device_gpu dev = napkin::device_gpu_spec();     // current device
//   double t = napkin::lower_bound_seconds(w, dev.spec, napkin::pipe::fp32);
//
// The derivation is napkin::derive_gpu_spec (napkin/gpus.hpp, documented in docs/napkin-math.md):
// peaks = SMs × per-SM FLOP/clock × max SM clock, bandwidth = 2 × memory clock × bus width / 8.
// Unlike the other napkin math headers this one needs the CUDA runtime (cudart; not the driver library).
// CUDA 13 removed cudaDeviceProp::clockRate and ::memoryClockRate, so the clocks come from
// cudaDeviceGetAttribute.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "napkin/gpus.hpp"

NAPKIN_BEGIN_NAMESPACE

struct device_gpu {
  std::string name;    // cudaDeviceProp::name, e.g. "NVIDIA H100 80GB HBM3"
  device_facts facts;  // what the runtime reported
  gpu_spec spec;       // derived; spec.key is "derived"
};

namespace detail {
inline void cuda_or_throw(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear a sticky-free error so later calls are not confused by it
    throw std::runtime_error(std::string("napkin: ") + what + " failed: " + cudaGetErrorName(e) + ": " +
                             cudaGetErrorString(e));
  }
}
}  // namespace detail

// What the runtime reports for `device`; throws std::runtime_error when it cannot be queried.
inline device_facts query_device_facts(int device, std::string* name = nullptr) {
  cudaDeviceProp prop{};
  detail::cuda_or_throw(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int sm_clock_khz = 0;
  int mem_clock_khz = 0;
  detail::cuda_or_throw(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device),
                        "cudaDeviceGetAttribute(cudaDevAttrClockRate)");
  detail::cuda_or_throw(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, device),
                        "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)");
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

// The derived spec of `device` (default: the current device).
inline device_gpu device_gpu_spec(int device = -1) {
  if (device < 0) detail::cuda_or_throw(cudaGetDevice(&device), "cudaGetDevice");
  device_gpu d;
  d.facts = query_device_facts(device, &d.name);
  d.spec = derive_gpu_spec(d.facts);
  return d;
}

NAPKIN_END_NAMESPACE
