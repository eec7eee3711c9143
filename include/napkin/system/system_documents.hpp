// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_documents.hpp — the system view's report (system/system_report.hpp) as the "system"
// member of the monitor's document (monitor/monitor_documents.hpp, kind "napkin.monitor-report") and as CSV
// rows. Members (docs/system.md; the schema: docs/schema/napkin.schema.json, "system_report"):
//
//   "run", "phases": one object per phase and for the run, named "system: <phase>" ("system: (run)",
//       "system: (no phase)") so that diff() matches them by name (document/document.hpp's flatten takes them
//       as entities of a monitor report); "label" is the phase as recorded. Sums (span_ns, busy_ns, idle_ns,
//       kernel_ns, ...), what follows from them (idle_fraction, copy_ns, copy_not_overlapped_ns,
//       copy_overlap_fraction, pageable_copy_ns, syncs: device, stream and event synchronize calls), the idle
//       time by what the host did ("idle_by_host"), copies by direction and host memory (objects keyed by
//       to_string: "h2d", "pageable"; each {count, time_ns, bytes}), host calls by kind ({count, time_ns}),
//       and the histograms as {count, mean_ns} (their bins are not kept).
//   "findings": {rule, phase, evidence, advice, at_stake_ns}; "kernels": {name, count, gpu_ns, share,
//       top_phase}; "next_target": {kernel (or null), share, reason, how}; "records_dropped", "late_records",
//       "records_refused", "records_other_device".
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <string>

#include "napkin/document/json_writer.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// The "system" member of a monitor report's document.
json_value system_value(const system_report& r);

// CSV columns: phase, instances, span_ns, busy_ns, idle_ns, idle_fraction, host_waiting_ns, host_launching_ns,
// host_other_api_ns, host_outside_ns, kernels, kernel_ns, communication_ns, kernel_mean_ns, stream_gaps,
// stream_gap_mean_ns, copy_ns, copy_overlapped_ns, copy_overlap_fraction, pageable_copy_ns, h2d_ns, d2h_ns,
// d2d_ns, peer_ns, h2h_ns, other_ns (copy time by direction), memset_ns, syncs, host_blocked_ns, launches,
// graph_launches. One row per phase, then the run ("(run)"); the empty phase's name is empty. A table of its own:
// the monitor's to_csv (monitor/monitor_documents.hpp) stays one table of its rows.
std::string to_csv(const system_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/system/system_documents_impl.hpp"
#endif
