// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_documents.hpp — the phase monitor's report (napkin/monitor/monitor_report.hpp) as a
// JSON document, kind "napkin.monitor-report", and a CSV table; to_document() flattens it for diff(), so that
// `napkin diff OLD.json NEW.json` compares two runs row by row.
//
//   "monitor": the device as a whole (sampled, busy and idle time, kept and lost samples, the idle model)
//   "rows":    one object per phase, phase path and kernel name; "name" is "<by>: <label>" ("phase: decode",
//              "path: decode/attention", "kernel: copy", "phase: (no phase)") so that rows match by name
//              one to one; "label" is the phase or kernel as recorded ("" outside any range).
// Each row holds what compares between runs at the top (mean time, SM / DRAM / L1 / L2-slices %, bandwidth,
// DRAM bytes per fully sampled launch, the communication share) and its sums under "totals" (they grow with
// the run's length, so diff() shows them without a better direction). "l2_figure" says which L2 the L2 % is:
// "slices" (not ncu's GH100 fabric). "partial" says that some launches were not fully sampled, so the
// totals cover only part of them. The readings are the rate solve's; "verdicts.resolution" says whether they
// are the row's own (kind "resolved") or why there are none, with "standard_error_pct", "alone_fraction",
// "resolution_windows" and "collinearity" beside them.
//   "system":  the system view, when the report has one (system/system_documents.hpp): its phases and run are
//              entities too, named "system: <phase>", so diff() compares idle time, overlap and waits.
// Plain C++17, no CUDA; compiles with -fno-exceptions.
// Fields: docs/monitor.md.
#pragma once

#include "napkin/config.hpp"

#include <string>

#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/monitor/monitor_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// The report's own context (device index, and what the monitor knows of the device and rank) is used
// unless the caller's options give one.
json_value document_value(const monitor_report& r, const document_options& options = {});

std::string to_json(const monitor_report& r, const document_options& o = {});

report_document to_document(const monitor_report& r, const document_options& o = {});

// CSV columns: by, name, count, complete, partial, gpu_ns, mean_ns, sampled_ns, concurrent_ns, sm_pct,
// sm_pct_upper, dram_pct, l1tex_pct, l2_slices_pct, l2_figure, memory_pct, dram_read_bytes, dram_write_bytes,
// dram_bytes, dram_bytes_per_s, dram_bytes_per_complete_launch, communication_fraction, activity, sol_verdict,
// resolution, standard_error_pct, alone_fraction. One row
// per phase, then per path, then per kernel; the empty phase's name is empty.
std::string to_csv(const monitor_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/monitor/monitor_documents_impl.hpp"
#endif
