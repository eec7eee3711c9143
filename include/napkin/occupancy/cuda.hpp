// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/cuda.hpp — napkin/occupancy.hpp for a compiled __global__ function on the current device.
// Not in the napkin/occupancy.hpp umbrella: it needs the CUDA runtime (napkin::napkin).
//
//   auto r = napkin::occupancy(my_kernel, 256, dynamic_bytes);     // cudaFuncGetAttributes + device limits
//   std::puts(napkin::to_text(my_kernel, 256, dynamic_bytes).c_str());
//   auto best = napkin::best_block_size(my_kernel, [](int threads) { return threads * 8; });
//
// Needs the CUDA runtime (cudart; never the driver library) and is used through napkin::napkin. The
// arithmetic is napkin/occupancy.hpp's; this header only fills its inputs:
//   * sm_limits from the device (cudaDeviceGetAttribute, or a cudaDeviceProp you already have) on top of
//     the compute capability's table entry. A CC napkin does not know is an error, never a guess.
//   * kernel_resources from cudaFuncGetAttributes: numRegs, sharedSizeBytes (static), maxThreadsPerBlock,
//     maxDynamicSharedSizeBytes (cudaFuncAttributeMaxDynamicSharedMemorySize) and preferredShmemCarveout.
//     cudaFuncSetCacheConfig's preference cannot be queried: pass it in kernel_resources::cache if you set it.
// Failures go through napkin's failure policy (napkin/error.hpp): by default CUDA errors throw
// napkin::cuda_error and invalid launches (or device limits napkin cannot use) std::invalid_argument;
// built without exceptions, they print and abort, or call the failure handler you installed.
//
// The register rule, once more, next to the run-time numbers it is fed (calculator.hpp has it in full):
//   exact:      regs_per_warp = roundup(numRegs x 32, 256); warps/SM = 4 x floor(16384 / regs_per_warp);
//               blocks = floor(warps/SM / warps_per_block), and the block must fit regsPerBlock with its
//               warps rounded up to a multiple of 4.
//   simplified: max_warps_per_sub_partition = 16384 / (numRegs x 32), occupancy = 4 x that / max warps.
//   They agree when numRegs is a multiple of 8 and the warps divide into whole blocks (128 regs, 256 threads
//   on H100: 25% both ways). They differ when numRegs is not a multiple of 8 (33 regs: simplified 60 warps,
//   exact 48) or the block does not divide the warps (40 regs, 224 threads: simplified 48 warps, exact 42),
//   and on 6.0 (2 sub-partitions), 7.5 / 8.6 / 8.9 / 12.x (32 or 48 warps per SM, not 64).
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>

#include "napkin/check.hpp"
#include "napkin/detail/device_index.hpp"
#include "napkin/error.hpp"
#include "napkin/occupancy.hpp"

NAPKIN_BEGIN_NAMESPACE

// The limits of a device whose properties you already have: the CC's table entry, with what the device
// reports replacing the table's values (a MIG slice or a SKU with fewer SMs or less shared memory).
inline sm_limits limits_of(const cudaDeviceProp& prop) {
  sm_limits l = limits_of(compute_capability{prop.major, prop.minor});
  l.max_threads_per_block = prop.maxThreadsPerBlock;
  l.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  l.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  l.warp_size = prop.warpSize;
  l.registers_per_block = prop.regsPerBlock;
  l.registers_per_sm = prop.regsPerMultiprocessor;
  l.smem_per_block = static_cast<int>(prop.sharedMemPerBlock);
  l.smem_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  l.smem_per_block_optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  l.smem_reserved_per_block = static_cast<int>(prop.reservedSharedMemPerBlock);
  l.sm_count = prop.multiProcessorCount;
  return l;
}

// The limits of `device` (0 or more), from cudaDeviceGetAttribute (cheaper than cudaGetDeviceProperties);
// std::invalid_argument for an index that names no device (current_device_limits() is the current one).
inline sm_limits device_limits(int device) {
  int count = 0;
  NAPKIN_CUDA_CHECK(cudaGetDeviceCount(&count));
  const std::string problem = device == detail::current_device_index
                                  ? "napkin: device_limits's device is -1; current_device_limits() measures the current device"
                                  : detail::device_index_problem(device, count, "device_limits's device");
  if (!problem.empty()) detail::raise_input_error(problem);
  const auto attribute = [device](cudaDeviceAttr a) {
    int value = 0;
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&value, a, device));
    return value;
  };
  sm_limits l = limits_of(compute_capability{attribute(cudaDevAttrComputeCapabilityMajor),
                                             attribute(cudaDevAttrComputeCapabilityMinor)});
  l.max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock);
  l.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
  l.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor);
  l.warp_size = attribute(cudaDevAttrWarpSize);
  l.registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock);
  l.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
  l.smem_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock);
  l.smem_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  l.smem_per_block_optin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  l.smem_reserved_per_block = attribute(cudaDevAttrReservedSharedMemoryPerBlock);
  l.sm_count = attribute(cudaDevAttrMultiProcessorCount);
  return l;
}

inline sm_limits current_device_limits() {
  int device = 0;
  NAPKIN_CUDA_CHECK(cudaGetDevice(&device));
  return device_limits(device);
}

// What cudaFuncGetAttributes reports about a kernel, as napkin::kernel_resources.
inline kernel_resources resources_of(const cudaFuncAttributes& a) {
  kernel_resources k{};
  k.registers_per_thread = a.numRegs;
  k.static_smem = static_cast<int>(a.sharedSizeBytes);
  k.max_threads_per_block = a.maxThreadsPerBlock;
  k.max_dynamic_smem = a.maxDynamicSharedSizeBytes;
  k.carveout_percent = a.preferredShmemCarveout < 0 ? carveout_default : a.preferredShmemCarveout;
  return k;
}

inline kernel_resources resources_of_entry(const void* kernel) {
  cudaFuncAttributes a{};
  NAPKIN_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  return resources_of(a);
}

template <class... Args>
kernel_resources resources_of(void (*kernel)(Args...)) {
  // The runtime identifies a kernel by its host stub's address, as const void*.
  return resources_of_entry(reinterpret_cast<const void*>(kernel));  // NOLINT(*-reinterpret-cast)
}

// Occupancy of launching `kernel` with `threads` per block and `dynamic_smem` bytes, on the current device.
template <class... Args>
occupancy_result occupancy(void (*kernel)(Args...), int threads, int dynamic_smem = 0) {
  return occupancy(current_device_limits(), threads, resources_of(kernel), dynamic_smem);
}

// The same, on the device these limits describe (e.g. from device_limits(n), computed once).
template <class... Args>
occupancy_result occupancy(const sm_limits& device, void (*kernel)(Args...), int threads, int dynamic_smem = 0) {
  return occupancy(device, threads, resources_of(kernel), dynamic_smem);
}

template <class... Args>
occupancy_advice next_step(void (*kernel)(Args...), int threads, int dynamic_smem = 0) {
  return next_step(current_device_limits(), threads, resources_of(kernel), dynamic_smem);
}

template <class... Args>
std::string to_text(void (*kernel)(Args...), int threads, int dynamic_smem = 0) {
  return to_text(current_device_limits(), threads, resources_of(kernel), dynamic_smem);
}

// Like cudaOccupancyMaxPotentialBlockSize(VariableSMem): `dynamic_smem_of(threads)` may be an integer
// number of bytes or a callable returning one. min_grid_size(limits.sm_count) gives the runtime's minGridSize.
template <class DynamicSmem, class... Args>
block_size_choice best_block_size(void (*kernel)(Args...), DynamicSmem dynamic_smem_of) {
  const kernel_resources k = resources_of(kernel);
  if constexpr (std::is_invocable_v<DynamicSmem, int>) {
    return best_block_size(current_device_limits(), k, dynamic_smem_of);
  } else {
    static_assert(std::is_integral_v<DynamicSmem>, "dynamic shared memory must be an integer number of bytes");
    // Not cast to int: a size above INT_MAX makes every block size invalid instead of wrapping.
    return best_block_size(current_device_limits(), k, [dynamic_smem_of](int) { return dynamic_smem_of; });
  }
}

template <class... Args>
block_size_choice best_block_size(void (*kernel)(Args...)) {
  return best_block_size(current_device_limits(), resources_of(kernel), 0);
}

NAPKIN_END_NAMESPACE
