// SPDX-License-Identifier: Apache-2.0
// napkin/system/phase_counts.hpp — adding one system_phase's counts and sums into another: the run row's
// kernels, copies, calls, histograms and instances are the totals over all phases (docs/system.md). Its
// span, busy, idle and idle split are not added: time that phases share would count twice.
// Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>

#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// Counts a host call in its phase's sums (by kind, and its time if it blocks the host): the system view does
// this when it admits the call; only the call's time waits for a chunk.
inline void add_host_call(system_phase& p, const host_call& c) noexcept {
  const std::uint64_t d = c.end_ns - c.start_ns;
  copy_totals& k = p.host_calls[static_cast<std::size_t>(c.kind)];
  ++k.count;
  k.ns += d;
  if (blocks_host(c.kind)) p.host_blocked_ns += d;
}

// Adds p's counts and sums (not its span, busy and idle) to `into`.
inline void add_phase_counts(system_phase& into, const system_phase& p) noexcept {
  into.instances += p.instances;
  into.kernels += p.kernels;
  into.kernel_ns += p.kernel_ns;
  into.communication_ns += p.communication_ns;
  merge_into(into.kernel_durations, p.kernel_durations);
  merge_into(into.stream_gaps, p.stream_gaps);
  auto add = [](copy_totals& a, const copy_totals& b) {
    a.count += b.count;
    a.ns += b.ns;
    a.bytes += b.bytes;
  };
  for (std::size_t i = 0; i < into.copies_by_direction.size(); ++i)
    add(into.copies_by_direction[i], p.copies_by_direction[i]);
  for (std::size_t i = 0; i < into.copies_by_memory.size(); ++i) add(into.copies_by_memory[i], p.copies_by_memory[i]);
  into.copy_overlapped_ns += p.copy_overlapped_ns;
  add(into.memsets, p.memsets);
  into.copies_on_kernel_streams += p.copies_on_kernel_streams;
  for (std::size_t i = 0; i < into.host_calls.size(); ++i) add(into.host_calls[i], p.host_calls[i]);
  into.host_blocked_ns += p.host_blocked_ns;
  add(into.synchronous_copies, p.synchronous_copies);
  into.graph_launches += p.graph_launches;
  merge_into(into.graph_gaps, p.graph_gaps);
  merge_into(into.graph_spans, p.graph_spans);
}

NAPKIN_END_NAMESPACE
