// napkin's in-process range profiler: Speed-Of-Light numbers, verdicts and the napkin comparison, from
// CUPTI's Range Profiler API (CUDA >= 12.6 Update 2). Link napkin::profiler. See docs/profiler.md.
//
//   napkin/profiler/metrics.hpp      metric names and sets (plain C++)
//   napkin/profiler/report.hpp       the report, verdicts, workload comparison (plain C++)
//   napkin/profiler/errors.hpp       profiler_error and advice per CUPTI status
//   napkin/profiler/host.hpp         metric validation and pass planning, no GPU needed
//   napkin/profiler/kernel_names.hpp kernel names for per-kernel ranges
//   napkin/profiler/l2_flush.hpp     a cold, clean L2 before each pass (a PTX read kernel, no nvcc needed)
//   napkin/profiler/session.hpp      napkin::profiler: measure(), per_kernel(), scope, watch_phase()
#pragma once

#include "napkin/profiler/errors.hpp"
#include "napkin/profiler/host.hpp"
#include "napkin/profiler/kernel_names.hpp"
#include "napkin/profiler/l2_flush.hpp"
#include "napkin/profiler/metrics.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/profiler/session.hpp"
