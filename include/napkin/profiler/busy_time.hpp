// SPDX-License-Identifier: Apache-2.0
// measure()'s numbers over the time the GPU worked, not over the range's span.
//
// A user range spans more than its work: the launch of its first kernel, gaps between a library's kernels
// while the host prepares the next, the wait for its end. Counters accumulate only while the GPU works, but
// ncu's percentages "of peak sustained elapsed" divide by the range's elapsed cycles, so a range of 170 us of
// kernels inside 308 us of span reads them 45 % low (cuBLAS GemmEx on an H100). CUPTI's activity records give
// each kernel's, memcpy's and memset's start and end (cupti/activity.hpp); their union inside the range is
// the busy time. Elapsed cycles grow with time at one clock, so a number over elapsed cycles, taken over the
// busy time, is the range's number times span / busy; numbers over active cycles (L1/TEX %) and counts (bytes)
// stay as they are. For one kernel that is ncu's own number; for several it is their duration-weighted
// mean, which is how docs/accuracy.md compares a multi-kernel range with ncu's per-kernel rows.
//
// The report keeps the span and the idle time inside it (derived "range_ns", "gpu_idle_ns"): nothing hidden.
// Plain C++17: tested on the host.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "napkin/cupti/metrics.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// What the activity records said of a measurement's passes: the mean busy time of a pass (ns) and how many
// passes had records. `busy_ns` 0: no GPU work was recorded inside the range.
struct range_activity {
  double busy_ns = 0;
  std::size_t passes = 0;
  std::size_t kernels = 0;  // kernels launched inside the range (the most any pass launched)
};

namespace detail {

// The span may read a little shorter than the busy time (two clocks; a kernel's end stamped after the range's
// stop): up to this share the span is taken as the busy time.
inline constexpr double busy_clock_tolerance = 0.02;

}  // namespace detail

namespace detail {

// Does a metric count in an SM's clock domain (the SM, its sub-partitions, L1/TEX, the triage SM units)?
inline bool counts_in_sm_domain(const std::string& metric) {
  for (const char* prefix : {"sm__", "smsp__", "l1tex__", "idc__", "TriageCompute.sm__", "SM_A.", "SM_B.", "SM_C.",
                             "TPC."})
    if (metric.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace detail

// Rescales a user range's report to its busy time, as the header says, and says how (r.derivations).
//
// Each replay pass has its own span (the idle time before a range's first kernel varies from pass to pass),
// and a number over elapsed cycles is over its own pass's span. The duration's pass gives the span of the
// memory-side numbers (they share its pass on GH100's plans); the SM-side numbers take the span that the SM's
// elapsed cycles give (sm__cycles_elapsed.avg at the GPC clock) when the set collects them: on an H100 the two
// differed by -9 % to +5 % (docs/accuracy.md). `set` re-derives the numbers it derives (the fast set's maxima)
// from the rescaled inputs.
inline void adjust_to_busy_time(sol_report& r, const range_activity& activity, const metric_set& set) {
  const std::optional<double> span = r.get(metric::duration_ns);
  if (!span || *span <= 0) return;  // no duration collected: nothing to rescale by
  if (activity.passes == 0) {
    r.derivations["duration_ns"] =
        "the range's span: CUPTI gave no activity records (another activity client?), so every number is over "
        "the span, idle time included";
    return;
  }
  if (!(activity.busy_ns > 0) || !std::isfinite(activity.busy_ns)) {
    r.derivations["duration_ns"] =
        "the range's span: no kernel, memcpy or memset was recorded inside it (CUPTI activity), so every number "
        "is over the span";
    return;
  }
  double busy = activity.busy_ns;
  if (busy > *span) {
    if (busy > *span * (1 + detail::busy_clock_tolerance)) {
      r.derivations["duration_ns"] = "the range's span (" + duration(*span * 1e-9) +
                                     "): the activity records' busy time (" + duration(busy * 1e-9) +
                                     ") exceeds it, so nothing was rescaled";
      return;
    }
    busy = *span;
  }
  const double factor = *span / busy;
  double sm_span = *span;
  const auto sm_cycles = r.get(metric::sm_elapsed_cycles), clock = r.get(metric::sm_frequency_hz);
  if (sm_cycles && clock && *clock > 0) {
    // Passes differ by a few percent; a span far from the duration's is no span of this range.
    const double candidate = *sm_cycles / *clock * 1e9;
    if (candidate > *span * 0.5 && candidate < *span * 1.5) sm_span = candidate;
  }
  const double sm_factor = std::max(sm_span / busy, 1.0);

  // Every number over elapsed cycles, over the busy time: into a copy that the set derives from again.
  sol_report scaled;
  scaled.values = r.values;
  for (auto& [name, value] : scaled.values)
    if (name.find("pct_of_peak_sustained_elapsed") != std::string::npos)
      value *= detail::counts_in_sm_domain(name) ? sm_factor : factor;
  if (set.derive) set.derive(scaled);
  const std::optional<double> sm = scaled.sm_pct(), memory = scaled.memory_pct(), dram = scaled.dram_pct(),
                              l2 = scaled.l2_pct(), elapsed = r.elapsed_cycles();
  if (sm) r.derived["sm_pct"] = *sm;
  if (memory) r.derived["memory_pct"] = *memory;
  if (dram) r.derived["dram_pct"] = *dram;
  if (l2) r.derived["l2_pct"] = *l2;
  if (elapsed) r.derived["elapsed_cycles"] = *elapsed / factor;
  r.derived["duration_ns"] = busy;
  r.derived["range_ns"] = *span;
  r.derived["gpu_idle_ns"] = *span - busy;
  const std::string spans = "span " + duration(*span * 1e-9) +
                            (sm_span != *span ? ", the SM's " + duration(sm_span * 1e-9) : std::string()) +
                            ", busy " + duration(busy * 1e-9);
  // An estimate, and said so: each pass has its own span, and only the SM's and the duration's are known.
  const std::string how = "estimated over the GPU's busy time inside the range: each input over elapsed cycles x "
                          "span / busy, SM-side inputs by the SM's span (" + spans + "); the passes' spans differ, "
                          "so an input from another pass can read a few percent off (docs/accuracy.md)";
  r.derivations["duration_ns"] = "the GPU's busy time inside the range: the union of its kernels', memcpys' and "
                                 "memsets' activity records, mean of " + std::to_string(activity.passes) +
                                 " passes; the range spanned " + duration(*span * 1e-9) + ", " +
                                 duration((*span - busy) * 1e-9) + " of it idle";
  for (const char* field : {"sm_pct", "memory_pct", "dram_pct", "l2_pct"}) {
    if (!r.derived.count(field)) continue;
    const auto before = scaled.derivations.find(field);
    r.derivations[field] = before == scaled.derivations.end() ? how : before->second + "; " + how;
  }
  // A maximum over inputs does not commute with a sum over kernels: over a range of several kernels each
  // throughput is the largest input's share of the whole range, which is at most (and, when the kernels are
  // limited by different inputs, below) the duration-weighted mean of each kernel's own maximum, ncu's view.
  if (activity.kernels > 1) {
    const std::string several = "a range of " + std::to_string(activity.kernels) +
                                " kernels: the largest input over the whole range, at most the duration-weighted "
                                "mean of each kernel's own maximum (per_kernel(fn, replay::application) gives those)";
    for (const char* field : {"sm_pct", "memory_pct", "l1tex_pct", "l2_pct"}) {
      auto& d = r.derivations[field];
      d = d.empty() ? several : d + "; " + several;
    }
  }
}

NAPKIN_END_NAMESPACE
