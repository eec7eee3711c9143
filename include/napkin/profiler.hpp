// SPDX-License-Identifier: Apache-2.0
// napkin's in-process range profiler: Speed-Of-Light numbers, verdicts and the napkin comparison, from
// CUPTI's Range Profiler API (CUDA >= 12.6 Update 2). Link napkin::profiler. See docs/profiler.md.
//
// What a user reads (plain C++, no CUDA needed):
//   napkin/cupti/metrics.hpp            metric names and sets
//   napkin/profiler/report.hpp          the report and its renderers (to_text, to_key_values), with
//     .../sol_report.hpp                  sol_report, how it was measured, its cost, pass agreement
//     .../verdicts.hpp                    the SOL table and ncu's rule
//     .../comparison.hpp                  compare(): the report against napkin::estimate
//   napkin/profiler/options.hpp         profiler_options, replay
//   napkin/profiler/source_sampler.hpp  sample_source_lines(): hot source lines and their stall reasons
//                                       (CUPTI PC sampling, napkin/profiler/source_lines.hpp)
//   napkin/profiler/sections/           one level deeper than SOL, as ncu's sections: metric_sets::why()
//                                       (warp_state, pipes, memory_chart, occupancy) and the sections read
//                                       from a report (sol_report::launch: the kernel's launch)
// The profiler:
//   napkin/profiler/session.hpp         napkin::profiler: measure(), per_kernel(), open_scope(), watch_phase()
//   napkin/profiler/scope.hpp           profiler::scope: one range, one pass, RAII
//   napkin/profiler/phase.hpp           profiler::phase: an NVTX-annotated phase, one pass per occurrence
//   napkin/profiler/pass.hpp            a measurement and its passes (the pass sequence, written once)
//   napkin/profiler/core.hpp            what the ways to measure share: device, CUPTI, metric set, faults
//   napkin/cupti/session.hpp            CUPTI's range profiler as verbs (enable, configure, start, ...)
//   napkin/cupti/device.hpp             the current device: context, support, chip, counter availability
//   napkin/profiler/l2_flush.hpp        a cold, clean L2 before each pass (a PTX read kernel, no nvcc needed)
//   napkin/cupti/kernel_names.hpp       kernel names for per-kernel ranges
// Host side (no GPU or driver needed):
//   napkin/cupti/host.hpp               metric validation, pass planning, counter evaluation
//   napkin/cupti/counter_images.hpp     images from outside, checked before CUPTI reads them
//   napkin/cupti/errors.hpp             profiler_error, advice per CUPTI status, the profiler's check
//
// With NAPKIN_SEPARATE_COMPILATION (docs/compile-time.md) this header declares the profiler, its reports and
// its sections, whose bodies napkin/compiled.hpp compiles once, and includes no CUDA or CUPTI header but
// cupti_result.h. The CUPTI-level pieces (cupti/errors.hpp's advice, cupti/host.hpp's planner,
// cupti/kernel_names.hpp, profiler/l2_flush.hpp, profiler/source_sampler.hpp) and what they brought with them
// (napkin/nvtx.hpp's ranges for watch_phase(), napkin/check.hpp's NAPKIN_CUDA_CHECK) are then included by name
// where they are used, and stay header-only.
#pragma once

#include "napkin/config.hpp"

#include "napkin/cupti/metrics.hpp"
#include "napkin/cupti/profiler_error.hpp"
#include "napkin/profiler/comparison.hpp"
#include "napkin/profiler/options.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/profiler/sections/deeper_verdict.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/session.hpp"
#include "napkin/profiler/sol_fast.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/host.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/profiler/l2_flush.hpp"
#include "napkin/profiler/source_sampler.hpp"
#endif
