// SPDX-License-Identifier: Apache-2.0
// What a user chooses about a profiler: who replays per_kernel()'s kernels, and profiler_options.
//
// Plain C++17: the choices need no CUDA header.
#pragma once

#include "napkin/config.hpp"

#include <chrono>
#include <cstddef>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// Who replays per_kernel()'s kernels for the passes a metric set needs (ncu's --replay-mode names).
enum class replay {
  // CUPTI's kernel replay: fn runs once; CUPTI saves and restores device memory around every pass of every
  // kernel. Its restore leaves dirty lines in L2, so memory-bound kernels read a few microseconds long
  // (docs/profiler.md, "Cache state").
  kernel,
  // napkin runs fn once unprofiled (to count its kernels), then once per pass with a clean, cold L2 before
  // each (like ncu's application replay with --cache-control all): ncu's numbers. fn must launch the same
  // kernels every time, and be idempotent or come with a reset callback (called before every pass). The
  // first kernel of each pass starts cold; later ones see what the earlier ones left in L2, as in the real
  // program.
  application,
};

// ncu's --replay-mode spelling; "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(replay r) noexcept {
  switch (r) {
    case replay::kernel: return "kernel";
    case replay::application: return "application";
  }
  return "unknown";
}

struct profiler_options {
  // The device to measure: -1, the calling thread's current device (its current context); N, device N's
  // primary context, whatever device the calling thread has current. napkin makes that context current for
  // its own calls and for the measured work of measure(), per_kernel() and a scope, and puts back the
  // caller's afterwards (docs/profiler.md, "Choosing the device").
  int device = -1;
  // How long to wait for the GPU's counters when another client holds them (CUPTI_ERROR_HARDWARE_BUSY: ncu,
  // nsys, DCGM's profiling module, another napkin process or monitor): napkin retries, waiting 10 ms then
  // twice as long each time up to 1 s, until this much time has passed, then fails saying how long it
  // waited. 0, the default, fails at once. Applies to making the profiler and to each measurement's start.
  std::chrono::milliseconds busy_wait{0};
  // Flush L2 before every replay pass (like ncu's default --cache-control all), so that each pass starts
  // from the same cold, clean cache: measure(), per_kernel(fn, replay::application), scopes and phases.
  // CUPTI's kernel replay (per_kernel's default) does its own thing between passes.
  bool flush_l2 = true;
  // per_kernel(): the most kernels recorded per call; more are dropped and counted. With CUPTI's kernel
  // replay, smaller is also more exact: CUPTI's auto-range image leaves dirty lines in L2 in proportion to
  // the kernels it can hold (H100: 3 MB for 1, 21 MB for 16, 25 MB for 256), which memory-bound kernels
  // write back at their start (a few microseconds). replay::application sizes the image to fn's kernels.
  std::size_t max_kernels = 256;
  // measure(), application replay, watch_phase(): stop with an error after this many passes beyond the
  // planned count (a workload whose kernel count changes between passes never completes).
  std::size_t extra_pass_limit = 2;
  // measure(): run fn once, unprofiled, before the passes, so that what fn does only the first time in the
  // process (a library's initialization, lazy loading of its kernels, first-touch allocations) is not
  // measured as the work: the first cublasSgemm of a process read 140 ms instead of 2.8 ms without it. With a
  // reset callback, reset() then runs before every pass. Set false for work that must not run more often than
  // the passes (fn then runs exactly passes() times, reset() before every pass after the first); passes that
  // disagree are still reported (sol_report::passes_disagree) and get no verdict.
  bool warm_up = true;
};

NAPKIN_END_NAMESPACE
