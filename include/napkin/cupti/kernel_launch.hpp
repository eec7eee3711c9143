// SPDX-License-Identifier: Apache-2.0
// How a kernel was launched, as CUPTI's kernel activity record (CUpti_ActivityKernel10, cupti_activity.h of
// CUDA 13.0) says it: grid and block, registers, static and dynamic shared memory, the shared-memory
// configuration the driver chose, the carveout and cache preference requested, the cluster; with the two
// facts of its device that the occupancy needs (compute capability, SM count), which the profiler adds.
//
// Plain C++17 (no CUPTI header): a report carries it (sol_report::launch) and documents write it. The
// conversion from the record is launch_of() in cupti/activity.hpp.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>

#include "napkin/occupancy/compute_capability.hpp"
#include "napkin/occupancy/launch.hpp"

NAPKIN_BEGIN_NAMESPACE

// A grid, block or cluster shape.
struct launch_dims {
  std::uint32_t x = 1, y = 1, z = 1;
  constexpr std::uint64_t count() const {
    return static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y) * static_cast<std::uint64_t>(z);
  }
  friend constexpr bool operator==(launch_dims a, launch_dims b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
  friend constexpr bool operator!=(launch_dims a, launch_dims b) { return !(a == b); }
};

struct kernel_launch {
  launch_dims grid;
  launch_dims block;
  int registers_per_thread = 0;
  int static_smem_bytes = 0;   // per block
  int dynamic_smem_bytes = 0;  // per block
  // The shared memory per SM the driver configured for this launch (ncu's "Shared Memory Configuration
  // Size"); none when CUPTI did not say (0 in the record).
  std::optional<int> smem_config_bytes;
  // cudaFuncAttributePreferredSharedMemoryCarveout when the launch set one (percent); none: the default.
  std::optional<int> carveout_requested_pct;
  cache_preference cache_requested = cache_preference::none;  // cudaFuncSetCacheConfig
  bool dynamic_smem_opted_in = false;  // cudaFuncAttributeMaxDynamicSharedMemorySize raised above 48 KiB
  std::uint32_t local_memory_per_thread_bytes = 0;  // spills and local arrays
  std::optional<launch_dims> cluster;               // thread-block clusters (CC >= 9.0); none without
  // The device it ran on (the profiler fills them; 0.0 and 0 when unknown).
  compute_capability cc{};
  int sm_count = 0;

  constexpr std::uint64_t blocks() const { return grid.count(); }
  constexpr std::uint64_t threads_per_block() const { return block.count(); }
};

NAPKIN_END_NAMESPACE
