// SPDX-License-Identifier: Apache-2.0
// napkin/system/records.hpp — what the system view reads: the GPU's work (kernels, copies, memsets) and the
// host's CUDA calls that matter to it (synchronizing calls, synchronous copies, launches, graph launches),
// each with the napkin::range it came from. The monitor fills them from CUPTI's activity records
// (cupti/activity.hpp); tests build them by hand. Times are one clock (CUPTI's timestamps, ns).
//
// A phase is a napkin::range path ("decode/attention"), an id into the phase names the report is made with
// (0: outside every range); an instance is one opening of a range (0: none), so that ten iterations of "decode" are ten
// projections onto the GPU timeline, not one span from the first to the last (docs/system.md, "Projection").
// Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Which way a copy went (CUPTI's memcpy kinds, folded: arrays count as device memory).
enum class copy_direction { host_to_device, device_to_host, device_to_device, peer, host_to_host, other };
inline constexpr std::array<copy_direction, 6> all_copy_directions{
    copy_direction::host_to_device, copy_direction::device_to_host, copy_direction::device_to_device,
    copy_direction::peer,           copy_direction::host_to_host,   copy_direction::other};
constexpr std::string_view to_string(copy_direction d) noexcept {
  switch (d) {
    case copy_direction::host_to_device: return "h2d";
    case copy_direction::device_to_host: return "d2h";
    case copy_direction::device_to_device: return "d2d";
    case copy_direction::peer: return "peer";
    case copy_direction::host_to_host: return "h2h";
    case copy_direction::other: return "other";
  }
  return "unknown";
}

// The host memory a copy read or wrote: pageable memory makes the driver stage the copy through a pinned
// buffer, so it cannot overlap kernels and runs at a fraction of the link's bandwidth.
enum class host_memory { none, pageable, pinned, managed, unspecified };  // unspecified: CUPTI recorded no kind
inline constexpr std::array<host_memory, 5> all_host_memories{host_memory::none, host_memory::pageable,
                                                              host_memory::pinned, host_memory::managed,
                                                              host_memory::unspecified};
constexpr std::string_view to_string(host_memory m) noexcept {
  switch (m) {
    case host_memory::none: return "none";
    case host_memory::pageable: return "pageable";
    case host_memory::pinned: return "pinned";
    case host_memory::managed: return "managed";
    case host_memory::unspecified: return "unspecified";
  }
  return "unknown";
}

enum class gpu_work_kind { kernel, copy, memset };

// One stretch of GPU work.
struct gpu_work {
  gpu_work_kind kind = gpu_work_kind::kernel;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0, stream = 0;
  std::uint32_t phase = 0;      // the phase names' index (system_view::report); 0: outside every range
  std::uint64_t instance = 0;   // the range opening that launched it; 0: none
  std::uint32_t correlation = 0;  // the launching call's (a graph's kernels share their launch's)
  std::uint32_t graph = 0;      // a kernel launched by a CUDA graph: the graph's id; 0: not a graph's
  std::string name;             // kernels: the demangled name
  copy_direction direction = copy_direction::other;  // copies
  host_memory memory = host_memory::none;            // copies: the host side's memory
  std::uint64_t bytes = 0;                            // copies and memsets
};

// What a host call did, for the rules: waited for the GPU, copied synchronously, launched work, or neither.
enum class host_call_kind {
  device_synchronize,  // cudaDeviceSynchronize, cuCtxSynchronize
  stream_synchronize,  // cudaStreamSynchronize, cuStreamSynchronize
  event_synchronize,   // cudaEventSynchronize, cuEventSynchronize
  synchronous_copy,    // cudaMemcpy and the other copies without Async, cuMemcpyHtoD, ...
  synchronous_memset,  // cudaMemset and the other memsets without Async
  launch,              // a kernel launch (runtime or driver)
  graph_launch,        // cudaGraphLaunch, cuGraphLaunch
  other,               // any other call but a state query (is_state_query, not recorded); its time splits
                       // the GPU's idle time: "other API"
};
inline constexpr std::array<host_call_kind, 8> all_host_call_kinds{
    host_call_kind::device_synchronize, host_call_kind::stream_synchronize, host_call_kind::event_synchronize,
    host_call_kind::synchronous_copy,   host_call_kind::synchronous_memset, host_call_kind::launch,
    host_call_kind::graph_launch,       host_call_kind::other};
constexpr std::string_view to_string(host_call_kind k) noexcept {
  switch (k) {
    case host_call_kind::device_synchronize: return "device-synchronize";
    case host_call_kind::stream_synchronize: return "stream-synchronize";
    case host_call_kind::event_synchronize: return "event-synchronize";
    case host_call_kind::synchronous_copy: return "synchronous-copy";
    case host_call_kind::synchronous_memset: return "synchronous-memset";
    case host_call_kind::launch: return "launch";
    case host_call_kind::graph_launch: return "graph-launch";
    case host_call_kind::other: return "other";
  }
  return "unknown";
}
// A call during which the host waits for the GPU.
constexpr bool blocks_host(host_call_kind k) noexcept {
  return k == host_call_kind::device_synchronize || k == host_call_kind::stream_synchronize ||
         k == host_call_kind::event_synchronize || k == host_call_kind::synchronous_copy ||
         k == host_call_kind::synchronous_memset;
}

// One host call (CUDA runtime or driver API), on a host thread.
struct host_call {
  host_call_kind kind = host_call_kind::other;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t thread = 0;
  std::uint32_t phase = 0;
  std::uint64_t instance = 0;
  std::uint32_t correlation = 0;
};

// A batch of records: what one drain of the monitor hands the system view, or a test's whole run.
struct system_records {
  std::vector<gpu_work> work;
  std::vector<host_call> calls;
};

NAPKIN_END_NAMESPACE
