// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/next_step.hpp — what it takes to reach the next occupancy level, one change at a time:
// fewer registers, less shared memory, a larger carveout, or the nearest block size with more warps.
#pragma once

#include "napkin/occupancy/calculator.hpp"

#include <climits>

NAPKIN_BEGIN_NAMESPACE

// One way to raise occupancy: `value` (registers, bytes, percent or threads) and the warps it gives.
struct occupancy_step {
  int value = -1;  // -1: this change alone cannot raise occupancy
  int active_warps = 0;
  constexpr bool possible() const { return value >= 0; }
};

// What it takes to reach the next occupancy level, one change at a time.
struct occupancy_advice {
  occupancy_result now{};
  occupancy_step registers{};      // at most this many registers per thread
  occupancy_step shared_memory{};  // at most this many bytes of shared memory per block (static + dynamic)
  occupancy_step carveout{};       // at least this carveout percentage
  occupancy_step block_size{};     // the nearest block size (a multiple of the warp size) with more warps
  constexpr bool at_maximum() const { return now.active_warps() == now.max_warps_per_sm; }
};

// The advice for a valid launch (an error like occupancy()'s otherwise). Each step is the smallest change
// of that one quantity that raises the active warps.
constexpr occupancy_advice next_step(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem = 0) {
  occupancy_advice a{};
  a.now = occupancy(l, threads, k, dynamic_smem);
  const int now = a.now.active_warps();
  // The first value from `first` to `last` (by `step`) that, put in the kernel by `set`, raises the warps.
  const auto first_that_raises = [&](int first, int last, int step, auto set) {
    for (int v = first; step > 0 ? v <= last : v >= last; v += step) {
      kernel_resources other = k;
      set(other, v);
      const int warps = detail::occupancy_of(l, threads, other, dynamic_smem).active_warps();
      if (warps > now) return occupancy_step{v, warps};
    }
    return occupancy_step{};
  };

  a.registers = first_that_raises(k.registers_per_thread - 1, 0, -1,
                                  [](kernel_resources& fewer, int regs) { fewer.registers_per_thread = regs; });

  // Warps fall as shared memory grows, so bisect for the largest total that still beats `now`.
  const auto warps_with_total = [&](int total) {
    kernel_resources smaller = k;
    smaller.static_smem = total < k.static_smem ? total : k.static_smem;
    smaller.max_dynamic_smem = opt_in_as_needed;
    return detail::occupancy_of(l, threads, smaller, total - smaller.static_smem).active_warps();
  };
  const int total_now = k.static_smem + dynamic_smem;
  if (total_now > 0 && warps_with_total(0) > now) {
    const int total = detail::last_that_holds(0, total_now, [&](int t) { return warps_with_total(t) > now; });
    a.shared_memory = {total, warps_with_total(total)};
  }

  if (l.carveout_count > 0 && detail::preferred_carveout(l, k) < l.smem_per_sm)
    a.carveout = first_that_raises(k.carveout_percent == carveout_default ? 0 : k.carveout_percent + 1, 100, 1,
                                   [](kernel_resources& more, int percent) { more.carveout_percent = percent; });

  const int max_threads = detail::thread_limit(l, k);
  int best_distance = INT_MAX;
  for (int size = l.warp_size; size <= max_threads; size += l.warp_size) {
    const int warps = detail::occupancy_of(l, size, k, dynamic_smem).active_warps();
    const int distance = size > threads ? size - threads : threads - size;
    if (warps > now && (distance < best_distance || (distance == best_distance && size > a.block_size.value))) {
      a.block_size = {size, warps};
      best_distance = distance;
    }
  }
  return a;
}

NAPKIN_END_NAMESPACE
