// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_text.hpp — the system view's report (system/system_report.hpp) as text for people, at most
// 100 columns: the run (GPU span, busy, idle and what the host did meanwhile: waiting in a blocking call,
// launching, in another CUDA call, outside CUDA), one row per phase (instances,
// span, idle %, kernels and their GPU time, copy time, the share of it overlapping kernels, host time blocked
// in synchronizing calls, synchronize calls), the copies by direction and host memory, the findings with
// their fix, the kernels by GPU time (nsys' gpukernsum) and the kernel to profile next. Durations in
// histograms are shown as their count and mean. Plain C++17; no CUDA, no exceptions. Definitions: docs/system.md.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <string>

#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

std::string system_ns(std::uint64_t ns);

// a / b as a percentage, "n/a" when b is 0.
std::string system_share(std::uint64_t a, std::uint64_t b);

// A histogram's mean (sum / count); 0 when it is empty.
double system_mean_ns(const duration_histogram& h);

// The phase as people read it: "(no phase)" outside every range.
std::string system_phase_label(const std::string& name);

// Synchronize calls: device, stream and event synchronizations (not synchronous copies or memsets).
std::uint64_t system_syncs(const system_phase& p);

const copy_totals& system_host_calls(const system_phase& p, host_call_kind k);

std::uint64_t system_pageable_copy_ns(const system_phase& p);

// Copy time with no kernel on the device.
std::uint64_t system_copy_not_overlapped_ns(const system_phase& p);

}  // namespace detail

std::string to_text(const system_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/system/system_text_impl.hpp"
#endif
