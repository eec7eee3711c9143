// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_rules.hpp — the system view's rules: on each phase row of a system_report (the
// phase "" outside every range included, the run row not), which measured numbers show a system problem,
// with the numbers, the fix (the CUDA API to use) and the time at stake; and the kernel to profile next.
// Thresholds are system_thresholds' members (defaults below); docs/system.md lists them with the rules.
// The synchronous-copy rule leaves out host-to-device copies of <= 64 KiB as Nsight Systems'
// cuda_memcpy_sync rule does (docs.nvidia.com/nsight-systems/UserGuide, "Expert Systems Analysis").
//
// Rule                 fires when (defaults)                                        at_stake_ns
// gpu_starved          idle >= 20 % of span and >= 1 ms; not where launch_bound     idle
//                      or graph_gaps fired (they explain the idle); advice by the
//                      largest part of idle_by_host
// synchronous_copy     synchronous_copies' host time >= 1 % of span and >= 100 us  that host time
// pageable_copy        pageable copies' GPU time >= 5 % of span and >= 100 us       that GPU time
// copy_not_overlapped  kernels and copies each >= 10 % of busy, copies >= 100 us,    min(copy time not under a
//                      copy_overlapped_ns < 20 % of copy time; advice: one stream      kernel, kernel time)
//                      (most copies on kernel streams) or other streams
// sync_per_kernel      device+stream+event synchronize calls >= 0.5 x kernels,     idle (the gaps the
//                      kernels >= 20                                                synchronizations open)
// launch_bound         kernels >= 100, median kernel <= 20 us, median stream gap   sum of stream gaps, at
//                      >= 0.5 x median kernel                                       most the phase's idle
// communication_bound  communication_ns >= 50 % of kernel_ns, kernel_ns >= 1 ms      communication_ns
// graph_gaps           graph executions >= 3, median gap >= median execution span  sum of graph gaps, at
//                      and >= 10 us                                                 most the phase's idle
// (A stream gap or graph gap may reach back before the phase's span, to another phase's kernel: the time
// at stake is bounded by the idle time in the phase's span.)
// Medians are duration_histogram's (within 9 %). Next target: kernels by GPU time; when the run's busy
// time >= 50 % of its span and the largest compute kernel (communication kernels wait for their peers: left
// out) has >= 30 % of all kernel time, that kernel, with the napkin::profiler call that measures it; else
// none, and why.
// Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/communication.hpp"
#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/kernel_table.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

struct system_thresholds {
  // gpu_starved: idle >= this fraction of the phase's span, and at least starved_min_idle_ns.
  double starved_idle_fraction = 0.20;
  std::uint64_t starved_min_idle_ns = 1'000'000;
  // synchronous_copy: host-to-device copies up to this size are left out (Nsight Systems' cuda_memcpy_sync).
  std::uint64_t sync_copy_small_h2d_bytes = std::uint64_t{64} * 1024;
  // synchronous_copy: their host time >= this fraction of the span, and at least sync_copy_min_ns.
  double sync_copy_fraction = 0.01;
  std::uint64_t sync_copy_min_ns = 100'000;
  // pageable_copy: pageable copies' GPU time >= this fraction of the span, and at least pageable_min_ns.
  double pageable_fraction = 0.05;
  std::uint64_t pageable_min_ns = 100'000;
  // copy_not_overlapped: kernels and copies each >= this fraction of the busy time, ...
  double overlap_min_busy_fraction = 0.10;
  // ... less than this fraction of the copy time under a kernel, and copy time >= overlap_min_copy_ns.
  double overlap_max_overlapped_fraction = 0.20;
  std::uint64_t overlap_min_copy_ns = 100'000;
  // sync_per_kernel: synchronizing calls (device, stream, event) >= this many per kernel, with at least
  // sync_min_kernels kernels.
  double syncs_per_kernel = 0.5;
  std::uint64_t sync_min_kernels = 20;
  // launch_bound: at least this many kernels, median kernel <= launch_max_median_kernel_ns, and median gap
  // on a stream >= launch_gap_fraction x the median kernel.
  std::uint64_t launch_min_kernels = 100;
  std::uint64_t launch_max_median_kernel_ns = 20'000;
  double launch_gap_fraction = 0.5;
  // communication_bound: NCCL/NVSHMEM kernels >= this fraction of kernel time, kernel time >= comm_min_kernel_ns.
  double communication_fraction = 0.5;
  std::uint64_t communication_min_kernel_ns = 1'000'000;
  // graph_gaps: at least this many executions, median gap >= median execution span, median gap >= graph_min_gap_ns.
  std::uint64_t graph_min_launches = 3;
  std::uint64_t graph_min_gap_ns = 10'000;
  // next target: the run's busy time >= this fraction of its span, and the top kernel >= target_min_share
  // of all kernel time.
  double target_min_busy_fraction = 0.5;
  double target_min_share = 0.30;
};

namespace detail {

inline std::string system_ns_text(double ns) { return duration(ns * 1e-9); }
inline std::string system_share_text(double part, double whole) { return percent_of(whole > 0 ? part / whole : 0.0); }

inline std::uint64_t system_copy_count(const system_phase& p) noexcept {
  std::uint64_t n = 0;
  for (const copy_totals& c : p.copies_by_direction) n += c.count;
  return n;
}

inline const copy_totals& system_calls(const system_phase& p, host_call_kind k) noexcept {
  return p.host_calls[static_cast<std::size_t>(k)];
}

inline bool launch_bound_fires(const system_phase& p, const system_thresholds& t) noexcept {
  const double median_kernel = median_ns(p.kernel_durations);
  return p.kernels >= t.launch_min_kernels && p.kernel_durations.total > 0 &&
         median_kernel <= static_cast<double>(t.launch_max_median_kernel_ns) && p.stream_gaps.total > 0 &&
         median_ns(p.stream_gaps) >= t.launch_gap_fraction * median_kernel;
}

inline bool graph_gaps_fire(const system_phase& p, const system_thresholds& t) noexcept {
  if (p.graph_launches < t.graph_min_launches || p.graph_gaps.total == 0) return false;
  const double gap = median_ns(p.graph_gaps);
  return gap >= median_ns(p.graph_spans) && gap >= static_cast<double>(t.graph_min_gap_ns);
}

inline std::string idle_split_text(const idle_causes& c) {
  return "host waiting " + system_ns_text(static_cast<double>(c.host_waiting_ns)) + ", launching " +
         system_ns_text(static_cast<double>(c.host_launching_ns)) + ", in other CUDA calls " +
         system_ns_text(static_cast<double>(c.host_other_api_ns)) + ", outside CUDA " +
         system_ns_text(static_cast<double>(c.host_outside_ns));
}

inline std::string innermost_phase(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

inline void find_phase_issues(const system_phase& p, const system_thresholds& t, std::vector<system_finding>& out) {
  auto add = [&](system_rule r, std::string evidence, std::string advice, std::uint64_t at_stake) {
    out.push_back({r, p.name, std::move(evidence), std::move(advice), at_stake});
  };
  const auto ns = [](std::uint64_t v) { return system_ns_text(static_cast<double>(v)); };
  const double span = static_cast<double>(p.span_ns);
  const std::uint64_t copy_ns = p.copy_ns();

  const bool launch_bound = launch_bound_fires(p, t);
  const bool graph_gaps = graph_gaps_fire(p, t);

  if (!launch_bound && !graph_gaps && p.span_ns > 0 &&
      static_cast<double>(p.idle_ns) >= t.starved_idle_fraction * span && p.idle_ns >= t.starved_min_idle_ns) {
    const idle_causes& c = p.idle_by_host;
    const std::uint64_t top = std::max({c.host_waiting_ns, c.host_launching_ns, c.host_other_api_ns, c.host_outside_ns});
    std::string advice;
    if (top == c.host_waiting_ns)
      advice = "the host waits for the GPU, then feeds it: queue more work before synchronizing (one "
               "cudaStreamSynchronize per batch, not per step) and overlap host work with GPU work";
    else if (top == c.host_launching_ns)
      advice = "launch overhead: capture the launches into a CUDA graph (cudaStreamBeginCapture, "
               "cudaGraphLaunch) or launch fewer, bigger kernels";
    else if (top == c.host_outside_ns)
      advice = "host work between GPU work: move it off the critical path (another thread, or pipeline it "
               "with the GPU work of the next step)";
    else
      advice = "the host is in other CUDA calls (allocation, frees, queries): allocate once or from a pool "
               "(cudaMallocAsync), move the calls out of the loop";
    add(system_rule::gpu_starved,
        "GPU idle " + system_share_text(static_cast<double>(p.idle_ns), span) + " of " + ns(p.span_ns) + " (" +
            ns(p.idle_ns) + "): " + idle_split_text(c),
        std::move(advice), p.idle_ns);
  }

  const copy_totals& sync = p.synchronous_copies;
  if (sync.count > 0 && p.span_ns > 0 && static_cast<double>(sync.ns) >= t.sync_copy_fraction * span &&
      sync.ns >= t.sync_copy_min_ns)
    add(system_rule::synchronous_copy,
        std::to_string(sync.count) + " synchronous copies (" + si(static_cast<double>(sync.bytes), "B") +
            ") held the host " + ns(sync.ns) + ", " + system_share_text(static_cast<double>(sync.ns), span) +
            " of the span " + ns(p.span_ns),
        "use cudaMemcpyAsync on a stream from pinned memory (cudaMallocHost or cudaHostRegister) and "
        "synchronize once, when the result is needed",
        sync.ns);

  const copy_totals& pageable = p.copies_by_memory[static_cast<std::size_t>(host_memory::pageable)];
  if (pageable.count > 0 && static_cast<double>(pageable.ns) >= t.pageable_fraction * span &&
      pageable.ns >= t.pageable_min_ns)
    add(system_rule::pageable_copy,
        std::to_string(pageable.count) + " copies from or to pageable memory (" +
            si(static_cast<double>(pageable.bytes), "B") + ") took " + ns(pageable.ns) + ", " +
            system_share_text(static_cast<double>(pageable.ns), span) + " of the span " + ns(p.span_ns),
        "use pinned memory (cudaMallocHost / cudaHostAlloc, or cudaHostRegister on an existing buffer): "
        "pageable copies are staged by the driver and cannot overlap kernels",
        pageable.ns);

  const double busy = static_cast<double>(p.busy_ns);
  if (p.busy_ns > 0 && static_cast<double>(p.kernel_ns) >= t.overlap_min_busy_fraction * busy &&
      static_cast<double>(copy_ns) >= t.overlap_min_busy_fraction * busy && copy_ns >= t.overlap_min_copy_ns &&
      static_cast<double>(p.copy_overlapped_ns) < t.overlap_max_overlapped_fraction * static_cast<double>(copy_ns)) {
    const std::uint64_t copies = system_copy_count(p);
    const bool same_stream = 2 * p.copies_on_kernel_streams > copies;
    add(system_rule::copy_not_overlapped,
        "copies " + ns(copy_ns) + ", of which " + system_share_text(static_cast<double>(p.copy_overlapped_ns),
                                                                    static_cast<double>(copy_ns)) +
            " under a kernel; kernels " + ns(p.kernel_ns) + "; " + std::to_string(p.copies_on_kernel_streams) +
            " of " + std::to_string(copies) + " copies on a stream that runs kernels",
        same_stream ? "copies and kernels serialized on one stream: put copies on their own stream(s) with "
                      "cudaMemcpyAsync from pinned memory and order with events (cudaEventRecord, "
                      "cudaStreamWaitEvent)"
                    : "copies on other streams still do not overlap: check dependencies (cudaStreamWaitEvent, "
                      "default-stream synchronization) and pageable memory",
        std::min(copy_ns - std::min(copy_ns, p.copy_overlapped_ns), p.kernel_ns));
  }

  const std::uint64_t syncs = system_calls(p, host_call_kind::device_synchronize).count +
                              system_calls(p, host_call_kind::stream_synchronize).count +
                              system_calls(p, host_call_kind::event_synchronize).count;
  if (p.kernels >= t.sync_min_kernels && static_cast<double>(syncs) >= t.syncs_per_kernel * static_cast<double>(p.kernels))
    add(system_rule::sync_per_kernel,
        std::to_string(syncs) + " synchronizing calls for " + std::to_string(p.kernels) + " kernels; GPU idle " +
            ns(p.idle_ns) + " of " + ns(p.span_ns),
        "synchronize once per batch or iteration; order work with events (cudaEventRecord, "
        "cudaStreamWaitEvent) and poll with cudaStreamQuery instead of waiting",
        p.idle_ns);

  if (launch_bound)
    add(system_rule::launch_bound,
        std::to_string(p.kernels) + " kernels, median " + system_ns_text(median_ns(p.kernel_durations)) +
            ", median gap on a stream " + system_ns_text(median_ns(p.stream_gaps)) + " (" +
            std::to_string(p.stream_gaps.total) + " gaps, " + system_ns_text(static_cast<double>(p.stream_gaps.sum_ns)) +
            ")",
        "launch overhead: capture the launches into a CUDA graph (cudaStreamBeginCapture, cudaGraphLaunch) "
        "or fuse the kernels",
        std::min(static_cast<std::uint64_t>(p.stream_gaps.sum_ns), p.idle_ns));

  if (p.kernel_ns >= t.communication_min_kernel_ns &&
      static_cast<double>(p.communication_ns) >= t.communication_fraction * static_cast<double>(p.kernel_ns))
    add(system_rule::communication_bound,
        "communication kernels (NCCL/NVSHMEM) " + ns(p.communication_ns) + ", " +
            system_share_text(static_cast<double>(p.communication_ns), static_cast<double>(p.kernel_ns)) +
            " of the kernel time " + ns(p.kernel_ns),
        "overlap communication with compute (communication on its own stream, gradient bucketing), check the "
        "interconnect; NCCL_DEBUG=INFO prints the algorithm and transport NCCL chose",
        p.communication_ns);

  if (graph_gaps)
    add(system_rule::graph_gaps,
        std::to_string(p.graph_launches) + " graph executions, median " + system_ns_text(median_ns(p.graph_spans)) +
            ", median gap between executions " + system_ns_text(median_ns(p.graph_gaps)) + " (" +
            system_ns_text(static_cast<double>(p.graph_gaps.sum_ns)) + " in all)",
        "the GPU idles between executions: queue the next cudaGraphLaunch before the host work (the launch is "
        "asynchronous), move the host work to another thread, or put it into the graph (host nodes)",
        std::min(static_cast<std::uint64_t>(p.graph_gaps.sum_ns), p.idle_ns));
}

}  // namespace detail

// The findings on every phase row (not the run row), largest at_stake_ns first (ties: in phase order).
inline std::vector<system_finding> find_system_issues(const system_report& r, const system_thresholds& t = {}) {
  std::vector<system_finding> out;
  for (const system_phase& p : r.phases) detail::find_phase_issues(p, t, out);
  std::stable_sort(out.begin(), out.end(), [](const system_finding& a, const system_finding& b) {
    return a.at_stake_ns > b.at_stake_ns;
  });
  return out;
}

// The kernel to profile next (r.kernels sorted by GPU time, largest first, as system_view::report makes it).
inline next_target choose_next_target(const system_report& r, const system_thresholds& t = {}) {
  next_target n;
  if (r.kernels.empty()) {
    n.reason = "no kernels";
    return n;
  }
  const double span = static_cast<double>(r.run.span_ns);
  const double busy = static_cast<double>(r.run.busy_ns);
  if (busy < t.target_min_busy_fraction * span) {
    n.reason = "the GPU was idle " + detail::system_share_text(span - busy, span) +
               " of the run: the rules above come first";
    return n;
  }
  // A communication kernel's time is mostly waiting for its peers: profiling it says little about this
  // GPU (the communication-bound rule speaks for it), so the next target is the largest compute kernel.
  const auto compute = std::find_if(r.kernels.begin(), r.kernels.end(), [](const kernel_time_share& k) {
    return !is_communication_kernel(k.name) && k.name != other_kernels_name;  // a fold of names is no target
  });
  if (compute == r.kernels.end()) {
    n.reason = "only communication kernels (NCCL/NVSHMEM): the communication-bound rule comes first";
    return n;
  }
  const kernel_time_share& top = *compute;
  const std::string skipped =
      compute == r.kernels.begin() ? std::string()
                                   : " (communication kernels left out: " + r.kernels.front().name + ", " +
                                         percent_of(r.kernels.front().share) + ", waits for its peers)";
  if (top.share < t.target_min_share) {
    n.reason = "no compute kernel takes " + percent_of(t.target_min_share, 0) + " (largest: " + top.name + ", " +
               percent_of(top.share) + ")" + skipped;
    return n;
  }
  n.kernel = top.name;
  n.share = top.share;
  n.reason = top.name + " takes " + percent_of(top.share) + " of the kernel time, and the GPU was busy " +
             detail::system_share_text(busy, span) + " of the run" + skipped;
  n.how = "napkin::profiler prof; auto reports = prof.per_kernel([&] { /* the code that launches " + top.name +
          " */ }, napkin::replay::application);";
  n.how += " (if a CUDA graph launches it: prof.measure(\"" + top.name + "\", [&] { /* the graph launch */ }))";
  if (!top.top_phase.empty())
    n.how += " or prof.watch_phase(\"" + detail::innermost_phase(top.top_phase) + "\")";
  return n;
}

NAPKIN_END_NAMESPACE
