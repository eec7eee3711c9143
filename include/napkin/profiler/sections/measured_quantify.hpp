// SPDX-License-Identifier: Apache-2.0
// napkin's quantify formulas (napkin/math/quantify.hpp: coalescing, bank-conflict ways, traffic overhead,
// divergence, Amdahl) fed by measured counters: "fix this and expect about N x". Each estimate is the problem's own
// factor (sectors over ideal sectors, wavefronts over ideal wavefronts, bytes over the minimum, 32 over active
// threads) applied, by Amdahl's law, only to the part of the time the problem can explain, which the caller measures
// and states (deeper_findings.hpp says which part for which problem). No second copy of the math: every factor and the speed-up come from quantify.hpp. Plain C++17.
#pragma once

#include "napkin/config.hpp"

NAPKIN_BEGIN_NAMESPACE

struct measured_estimate {
  double factor = 1;    // how many times faster the problem's part gets when fixed
  double fraction = 0;  // the part of the time the problem can explain, in [0, 1]
  double speedup = 1;   // amdahl_speedup(fraction, factor)
  // The time a fix saves, in % (how ncu states its "Estimated Speedup").
  double time_saved_pct() const { return (1.0 - 1.0 / speedup) * 100.0; }
};

// Uncoalesced global accesses: the sectors fetched against the sectors the access width needs (sectors / ideal,
// coalescing_speedup), over the part of the time the memory system is busy.
measured_estimate coalescing_estimate(double sectors, double ideal_sectors, double memory_busy_fraction);

// Shared-memory bank conflicts: wavefronts against the conflict-free ones (bank_conflict_ways), over the part of the
// time the L1/shared-memory data pipe is busy.
measured_estimate bank_conflict_estimate(double wavefronts, double ideal_wavefronts, double l1_busy_fraction);

// DRAM traffic above the algorithm's minimum (traffic_overhead: measured bytes / minimum bytes), over the part of the
// time DRAM is busy.
measured_estimate traffic_estimate(double measured_bytes, double minimum_bytes, double dram_busy_fraction);

// Divergence and predication: 32 lanes against the active ones (divergence_speedup), over the part of the time that
// scales with the instructions issued.
measured_estimate divergence_estimate(double active_threads_per_warp, double instruction_bound_fraction);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/measured_quantify_impl.hpp"
#endif
