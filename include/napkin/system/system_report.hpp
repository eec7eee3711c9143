// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_report.hpp — the system view's report: per phase and for the run, where the GPU's time
// went (busy, idle and what the host was doing meanwhile, kernels, copies by direction and host memory, the
// copies' overlap with kernels), where the host waited (synchronizing calls), launch counts and the gaps
// between kernels on a stream; the rules that fired, with their numbers and the fix; the kernels by GPU time
// and the one to profile next. Plain data (system/system_view.hpp builds it); renderings beside it.
// Plain C++17; no CUDA, no exceptions. Thresholds: docs/system.md.
//
// Definitions (docs/system.md is written from them; system/system_view.hpp says how records become them).
// Times are [start, end) ns on one clock.
// - Projection: an instance's projection is [min start, max end] of the GPU work (kernels, copies,
//   memsets) launched inside it (gpu_work::instance), as Nsight Systems projects NVTX ranges onto the GPU.
//   Work outside any instance (instance 0: phase 0, outside every range) projects by stretches: the work
//   of one phase, by start, until work of another phase or instance starts (a program without ranges: one
//   stretch, the run's span; setup and teardown around ranges: two). system_phase::instances counts range
//   openings with work, not stretches.
// - A phase's span is the union of its instances' projections (overlapping instances counted once), so
//   two instances separated by another phase's work leave that work out. busy_ns: the time in the span
//   covered by any GPU work of the device (any phase's, any stream); idle_ns = span - busy.
// - The run row ("(run)"): span = [first start, last end] of all the device's work, continuous across
//   settles (the time between settled chunks is idle); busy = the time covered by any work; idle = span -
//   busy. Its counts and sums (kernels, copies, calls, histograms, instances) are the totals over all
//   phases, phase 0 included.
// - idle_by_host: every idle ns (of a phase's span or the run's) is split by what the host was doing,
//   by priority over all host threads: some thread in a blocking call (blocks_host) -> host_waiting; else
//   in a launch or graph launch -> host_launching; else in another call -> host_other_api; else
//   host_outside. The four add up to idle_ns exactly.
// - Kernels of a phase (the record's phase: the innermost range): kernels, kernel_ns, communication_ns
//   (is_communication_kernel), kernel_durations. stream_gaps: per stream, kernels (any phase) by start;
//   a kernel's gap is its start - the latest end of the kernels before it on the stream, counted in its
//   phase when >= 0 (negative gaps: concurrent or late records, left out); the last end of each stream is
//   carried across settles.
// - Copies of a phase: by direction and host memory (count, GPU ns, bytes); copy_overlapped_ns: copy time
//   covered by at least one kernel of the device (any phase); copies_on_kernel_streams: copies on a stream
//   that ran kernels of the same phase in the same chunk; memsets.
// - Host calls of a phase: by kind (count, ns); host_blocked_ns: the summed durations of blocking calls.
//   Calls that only read state (is_state_query: cudaGetLastError, cudaGetDevice, ...) are not recorded.
//   These sums are taken when add() admits the call; what waits for a chunk is the call's time, by class
//   (host_time_pieces: overlapping calls of a class, two threads' at once or a call made inside another,
//   merged into one piece as they come) and, for a synchronous copy, the call itself.
//   synchronous_copies: synchronous copy calls except host-to-device copies of <= 64 KiB
//   (system_thresholds::sync_copy_small_h2d_bytes), the call joined to its GPU copy by correlation id in
//   its chunk or the chunk before (a call whose copy is not found is kept, with 0 bytes).
// - Graphs: an execution is the kernels with graph != 0 sharing (graph, correlation), in the phase of
//   its first kernel; its span is max end - min start (graph_spans); graph_launches counts executions;
//   graph_gaps: consecutive executions of one graph by start, next start - previous end when >= 0. An
//   execution stays open across settles until the graph's next one starts (or report()).
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE

// Count, time and bytes of some copies.
struct copy_totals {
  std::uint64_t count = 0, ns = 0, bytes = 0;
};

// What the host was doing while the GPU was idle (the sum is the idle time): in a call that waits for the
// GPU, launching, in another CUDA call, or outside CUDA (its own work, or asleep).
struct idle_causes {
  std::uint64_t host_waiting_ns = 0;    // in a blocking call (blocks_host): synchronize, synchronous copy or memset
  std::uint64_t host_launching_ns = 0;  // in a launch or graph launch
  std::uint64_t host_other_api_ns = 0;  // in any other CUDA call
  std::uint64_t host_outside_ns = 0;    // in no CUDA call
};

// Log-spaced counts of durations (ns), so that a median survives bounded memory: bin b holds durations in
// [2^(b/4), 2^((b+1)/4)) ns, bin 0 also 0 and 1 ns; the median is read as the geometric middle of its bin
// (within 9 %).
struct duration_histogram {
  static constexpr std::size_t bins = 160;  // 2^40 ns = 18 minutes
  std::array<std::uint64_t, bins> counts{};
  std::uint64_t total = 0;
  long double sum_ns = 0;
};

// One phase (a napkin::range path) or the whole run.
struct system_phase {
  std::string name;                // "decode/attention"; "" outside every range; the run row: "(run)"
  std::uint64_t instances = 0;     // range openings that launched GPU work
  std::uint64_t span_ns = 0;       // the union of their projections onto the GPU timeline (docs/system.md)
  std::uint64_t busy_ns = 0;       // in the span, time with any GPU work on the device (any phase's)
  std::uint64_t idle_ns = 0;       // in the span, time with none (span - busy)
  idle_causes idle_by_host;        // the idle time split by what the host was doing
  std::uint64_t kernels = 0, kernel_ns = 0;  // this phase's kernels: launches and summed duration
  std::uint64_t communication_ns = 0;        // of kernel_ns, in NCCL/NVSHMEM kernels (system/communication.hpp)
  duration_histogram kernel_durations;
  duration_histogram stream_gaps;  // start of a kernel of this phase - end of the kernel before it on its stream
  std::array<copy_totals, all_copy_directions.size()> copies_by_direction{};  // index: all_copy_directions
  std::array<copy_totals, all_host_memories.size()> copies_by_memory{};       // index: all_host_memories
  std::uint64_t copy_overlapped_ns = 0;  // of the copies' time, while a kernel ran on the device
  copy_totals memsets;
  std::uint64_t copies_on_kernel_streams = 0;  // copies on a stream that also ran this phase's kernels
  std::array<copy_totals, all_host_call_kinds.size()> host_calls{};  // index: all_host_call_kinds (bytes unused)
  std::uint64_t host_blocked_ns = 0;  // in blocking calls (blocks_host), overlaps between threads counted once per thread
  // The synchronous copy calls (host_call_kind::synchronous_copy) except host-to-device ones of <= 64 KiB
  // (the synchronous_copy rule; Nsight Systems' cuda_memcpy_sync leaves them out too): count, host ns and
  // the bytes of their GPU copies (matched by correlation id; a call with no copy in its chunk is kept).
  copy_totals synchronous_copies;
  std::uint64_t graph_launches = 0;   // graph executions (a graph's kernels sharing one launch)
  duration_histogram graph_gaps;      // between consecutive executions of one graph: start - previous end
  duration_histogram graph_spans;     // each execution's first kernel start to last kernel end

  std::uint64_t copy_ns() const noexcept {
    std::uint64_t s = 0;
    for (const copy_totals& c : copies_by_direction) s += c.ns;
    return s;
  }
};

// The rules (docs/system.md): each fires on measured thresholds and says the phase, the numbers and the fix.
enum class system_rule {
  gpu_starved,           // the GPU idle for much of the phase's span, with what the host did meanwhile
  synchronous_copy,      // copies that block the host (except small host-to-device ones, as nsys does)
  pageable_copy,         // copies from or to pageable host memory
  copy_not_overlapped,   // copies and kernels serialized (one stream): little copy time overlaps kernels
  sync_per_kernel,       // a synchronizing call for (nearly) every kernel
  launch_bound,          // many short kernels with gaps as long as the kernels: CUDA graphs
  communication_bound,   // NCCL/NVSHMEM kernels take most of the phase's GPU time
  graph_gaps,            // a graph relaunched with the GPU idle between executions as long as it works
};
inline constexpr std::array<system_rule, 8> all_system_rules{
    system_rule::gpu_starved,         system_rule::synchronous_copy, system_rule::pageable_copy,
    system_rule::copy_not_overlapped, system_rule::sync_per_kernel,  system_rule::launch_bound,
    system_rule::communication_bound, system_rule::graph_gaps};
constexpr std::string_view to_string(system_rule r) noexcept {
  switch (r) {
    case system_rule::gpu_starved: return "gpu-starved";
    case system_rule::synchronous_copy: return "synchronous-copy";
    case system_rule::pageable_copy: return "pageable-copy";
    case system_rule::copy_not_overlapped: return "copy-not-overlapped";
    case system_rule::sync_per_kernel: return "sync-per-kernel";
    case system_rule::launch_bound: return "launch-bound";
    case system_rule::communication_bound: return "communication-bound";
    case system_rule::graph_gaps: return "graph-gaps";
  }
  return "unknown";
}

// A rule that fired on a phase (or the run).
struct system_finding {
  system_rule rule = system_rule::gpu_starved;
  std::string phase;     // the phase's name as in system_phase::name
  std::string evidence;  // the numbers that made it fire ("idle 62 % of 40 ms; host in synchronize 31 ms")
  std::string advice;    // the fix
  std::uint64_t at_stake_ns = 0;  // the time the fix could save at most (findings are sorted by it)
};

// gpukernsum's row: a kernel name's launches and GPU time over the run.
struct kernel_time_share {
  std::string name;
  std::uint64_t count = 0, gpu_ns = 0;
  double share = 0;  // of all kernels' GPU time
  std::string top_phase;  // the phase with most of its time ("" outside every range)
};

// The kernel to profile next, when the system is not the problem first.
struct next_target {
  std::optional<std::string> kernel;  // set when the GPU was busy and one kernel dominates
  double share = 0;
  std::string reason;  // why this one, or why none ("the GPU was idle 63 % of the run: fix the system first")
  std::string how;     // the napkin::profiler call that measures it
};

struct system_report {
  system_phase run;                 // the whole run: span from the first GPU work to the last
  std::vector<system_phase> phases; // by span, largest first
  std::vector<system_finding> findings;
  std::vector<kernel_time_share> kernels;  // by GPU time, largest first (at most system_options::max_kernel_names)
  next_target next;
  std::uint64_t records_dropped = 0;  // records the bounded store refused
  std::uint64_t late_records = 0;     // records that arrived after their time was settled (counted alone)
  std::uint64_t records_refused = 0;  // records with end < start or a zero time (not analyzed)
  std::uint64_t records_other_device = 0;  // GPU work of another device than system_options::device (ignored)
};

NAPKIN_END_NAMESPACE
