// SPDX-License-Identifier: Apache-2.0
// CUPTI's activity records as napkin reads them (the collector: cupti/activity.hpp): a kernel with its name,
// phase and launch; a busy interval; a copy's direction and host memory; the external correlation id napkin
// pushes for a napkin::range (its phase and which opening of it).
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The external correlation id napkin pushes for a napkin::range: the range's path id (at most 16 bits: the
// phase tracker interns at most 4096 paths) and the opening's instance number above it, so that a record says
// both which phase launched it and which opening of that phase (the system view projects each opening).
constexpr std::uint64_t phase_external_id(std::uint64_t path_id, std::uint64_t instance) noexcept {
  return (instance << 16) | (path_id & 0xffffu);
}
constexpr std::uint32_t phase_path_of(std::uint64_t external_id) noexcept {
  return static_cast<std::uint32_t>(external_id & 0xffffu);
}
constexpr std::uint64_t phase_instance_of(std::uint64_t external_id) noexcept { return external_id >> 16; }

// The external id (phase) of each recent correlation id: a table indexed by the id's low bits, so that
// remembering one is a store and finding one a load, with no allocation per API call (the monitor records
// one per runtime and driver call inside a napkin::range: tens of thousands a second). An id is forgotten
// when one `capacity` ids later takes its slot (ids rise through the process, so the table holds the
// latest `capacity` of them); a graph's kernels, which share their launch's id, find it until then.
class correlation_phases {
 public:
  static constexpr std::size_t capacity = std::size_t{1} << 18;

  void remember(std::uint32_t correlation, std::uint64_t external_id) {
    if (slots_.empty()) slots_.resize(capacity);  // 4 MiB, on the first id: only a monitor's hold uses it
    slots_[correlation & (capacity - 1)] = {external_id, correlation, true};
  }
  // The external id remembered for `correlation`, or nullptr.
  const std::uint64_t* find(std::uint32_t correlation) const noexcept {
    if (slots_.empty()) return nullptr;
    const slot& s = slots_[correlation & (capacity - 1)];
    return s.used && s.correlation == correlation ? &s.external_id : nullptr;
  }
  void clear() noexcept { std::vector<slot>().swap(slots_); }

 private:
  struct slot {
    std::uint64_t external_id = 0;
    std::uint32_t correlation = 0;
    bool used = false;
  };
  std::vector<slot> slots_;
};

// One kernel as the Activity API saw it (times in CUPTI's timestamp clock, ns).
struct kernel_activity {
  std::string name;  // demangled
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0, stream = 0, correlation = 0;
  std::uint32_t graph = 0;     // the CUDA graph that launched it; 0: none
  std::uint64_t phase_id = 0;  // the external id (phase_external_id); 0: launched outside any napkin::range
  std::uint64_t blocks = 0;    // thread blocks in the grid
  kernel_launch launch;        // how it was launched (launch_of(); the device's facts left empty)
};

// How a kernel record says its kernel was launched. The record's device facts (compute capability, SM
// count) are not in it: the caller that knows the device adds them. Negative sizes in a record read as 0
// dimensions (a launch the occupancy section then refuses), never as huge unsigned numbers.
inline kernel_launch launch_of(const CUpti_ActivityKernel10& k) noexcept {
  const auto dim = [](std::int32_t v) { return v > 0 ? static_cast<std::uint32_t>(v) : 0u; };
  kernel_launch l;
  l.grid = {dim(k.gridX), dim(k.gridY), dim(k.gridZ)};
  l.block = {dim(k.blockX), dim(k.blockY), dim(k.blockZ)};
  l.registers_per_thread = k.registersPerThread;
  l.static_smem_bytes = k.staticSharedMemory;
  l.dynamic_smem_bytes = k.dynamicSharedMemory;
  if (k.sharedMemoryExecuted > 0 && k.sharedMemoryExecuted <= 0x7fffffffu)
    l.smem_config_bytes = static_cast<int>(k.sharedMemoryExecuted);
  if (k.isSharedMemoryCarveoutRequested != 0) l.carveout_requested_pct = k.sharedMemoryCarveoutRequested;
  switch (k.cacheConfig.config.requested) {  // a CUfunc_cache value
    case CU_FUNC_CACHE_PREFER_SHARED: l.cache_requested = cache_preference::prefer_shared; break;
    case CU_FUNC_CACHE_PREFER_L1: l.cache_requested = cache_preference::prefer_l1; break;
    case CU_FUNC_CACHE_PREFER_EQUAL: l.cache_requested = cache_preference::prefer_equal; break;
    default: l.cache_requested = cache_preference::none; break;
  }
  l.dynamic_smem_opted_in = k.shmemLimitConfig == CUPTI_FUNC_SHMEM_LIMIT_OPTIN;
  l.local_memory_per_thread_bytes = k.localMemoryPerThread;
  if (k.clusterX > 0 && k.clusterY > 0 && k.clusterZ > 0) l.cluster = launch_dims{k.clusterX, k.clusterY, k.clusterZ};
  return l;
}

// A copy record's direction and host memory (CUPTI's memcpy and memory kinds; arrays are device memory).
constexpr copy_direction copy_direction_of(std::uint8_t copy_kind) noexcept {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return copy_direction::host_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return copy_direction::device_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return copy_direction::device_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return copy_direction::host_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return copy_direction::peer;
    default: return copy_direction::other;
  }
}
constexpr host_memory host_memory_of(std::uint8_t memory_kind) noexcept {
  switch (memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return host_memory::pageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return host_memory::pinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return host_memory::managed;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return host_memory::none;
    default: return host_memory::unspecified;
  }
}
// The host side of a copy: the source for a copy from the host, the destination for one to it.
constexpr host_memory copy_host_memory(copy_direction d, std::uint8_t src_kind, std::uint8_t dst_kind) noexcept {
  switch (d) {
    case copy_direction::host_to_device: return host_memory_of(src_kind);
    case copy_direction::device_to_host: return host_memory_of(dst_kind);
    case copy_direction::host_to_host: {  // the worse of the two: pageable if either is
      const host_memory a = host_memory_of(src_kind), b = host_memory_of(dst_kind);
      return a == host_memory::pageable || b == host_memory::pageable ? host_memory::pageable : a;
    }
    default: return host_memory::none;
  }
}

// A stretch of GPU work (a kernel, a memcpy or a memset) on a device, in CUPTI's timestamp clock (ns).
struct busy_interval {
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0;
  bool kernel = true;  // false: a memcpy or memset
};

// The time covered by at least one of `intervals` that starts in [from, to) (ns), overlaps counted once.
inline std::uint64_t busy_ns_between(std::vector<busy_interval> intervals, std::uint64_t from, std::uint64_t to) {
  intervals.erase(std::remove_if(intervals.begin(), intervals.end(),
                                 [&](const busy_interval& b) { return b.start_ns < from || b.start_ns >= to ||
                                                                      b.end_ns < b.start_ns; }),
                  intervals.end());
  std::sort(intervals.begin(), intervals.end(),
            [](const busy_interval& a, const busy_interval& b) { return a.start_ns < b.start_ns; });
  std::uint64_t busy = 0, covered_to = 0;
  for (const busy_interval& b : intervals) {
    const std::uint64_t start = std::max(b.start_ns, covered_to);
    if (b.end_ns > start) busy += b.end_ns - start;
    covered_to = std::max(covered_to, b.end_ns);
  }
  return busy;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
