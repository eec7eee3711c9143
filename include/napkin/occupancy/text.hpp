// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/text.hpp — a launch's occupancy in words: what it is, what limits it and why, and what
// would raise it (to_text). Numbers become text through napkin/text/numbers.hpp.
#pragma once

#include "napkin/text/numbers.hpp"
#include "napkin/occupancy/next_step.hpp"

#include <string>

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// "21 warps (32.8%)": warps and their share of the SM's warp slots.
inline std::string warps_text(const sm_limits& l, int warps) {
  return std::to_string(warps) + " warps (" + percent_of(static_cast<double>(warps) / l.max_warps_per_sm()) + ")";
}
}  // namespace detail

// A few sentences a person can act on: the occupancy, what limits it and why, and what would raise it.
inline std::string to_text(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem = 0) {
  const occupancy_advice a = next_step(l, threads, k, dynamic_smem);
  const occupancy_result& r = a.now;
  const std::string cc = std::to_string(l.cc.major) + "." + std::to_string(l.cc.minor);
  std::string s = "CC " + cc + ": " + std::to_string(r.blocks_per_sm) + " block" + (r.blocks_per_sm == 1 ? "" : "s") +
                  " of " + std::to_string(threads) + " threads per SM, " + std::to_string(r.active_warps()) + " of " +
                  std::to_string(r.max_warps_per_sm) + " warps: occupancy " + percent_of(r.occupancy()) +
                  ". Limited by ";
  bool first = true;
  for (const limiter lim : all_limiters) {
    if (!r.limiters.contains(lim)) continue;
    s += (first ? "" : " and ") + std::string(describe(lim));
    first = false;
  }
  s += ".";
  // Block barriers and virtual resources, as cuda_occupancy.h (CUDA 13.0) models them for CC >= 9.0 / 10.0.
  const std::string as_modelled = " (as cuda_occupancy.h models CC " + cc + ")";
  const std::string barriers = std::to_string(k.block_barriers) + " block barrier" +
                               (k.block_barriers == 1 ? "" : "s") + " of the SM's " +
                               std::to_string(l.barriers_per_sm) + " barrier slots" + as_modelled;
  const std::string virtuals = std::to_string(k.virtual_resources) + " of the SM's " +
                               std::to_string(l.virtual_resources_per_sm) + " virtual resources" + as_modelled;
  if (r.blocks_per_sm == 0) {
    if (r.blocks_by_registers == 0)
      s += " The block cannot launch: " + std::to_string(r.warps_per_block) + " warps x " +
           std::to_string(r.registers_per_warp) + " registers per warp exceed the " +
           std::to_string(l.registers_per_block) + " registers per block (cudaErrorLaunchOutOfResources).";
    if (r.blocks_by_barriers == 0) s += " The block cannot launch: it uses " + barriers + ".";
    if (r.blocks_by_virtual_resources == 0) s += " The block cannot launch: it uses " + virtuals + ".";
  } else {
    const int registers_per_sub_partition = l.registers_per_sm / l.register_sub_partitions;
    if (r.limiters.contains(limiter::registers))
      s += " Each warp is allocated " + std::to_string(r.registers_per_warp) + " registers (" +
           std::to_string(k.registers_per_thread) + " per thread x " + std::to_string(l.warp_size) +
           ", rounded up to " + std::to_string(l.register_allocation_unit) + "), so " +
           std::to_string(r.registers_per_warp > 0 ? registers_per_sub_partition / r.registers_per_warp : 0) +
           " warps fit in each of the " + std::to_string(l.register_sub_partitions) + " sub-partitions of " +
           std::to_string(registers_per_sub_partition) + " registers.";
    if (r.limiters.contains(limiter::shared_memory))
      s += " Each block is allocated " + std::to_string(r.smem_per_block) + " B of shared memory (" +
           std::to_string(k.static_smem) + " static + " + std::to_string(dynamic_smem) + " dynamic + " +
           std::to_string(l.smem_reserved_per_block) + " reserved, in units of " +
           std::to_string(l.smem_allocation_unit) + " B) out of the SM's " + std::to_string(r.smem_per_sm) +
           " B carveout.";
    if (r.limiters.contains(limiter::warps) && !a.at_maximum())
      s += " " + std::to_string(r.max_warps_per_sm) + " warp slots per SM hold only " +
           std::to_string(r.blocks_by_warps) + " block(s) of " + std::to_string(r.warps_per_block) + " warps.";
    if (r.limiters.contains(limiter::blocks))
      s += " At most " + std::to_string(l.max_blocks_per_sm) + " blocks fit on an SM; larger blocks hold more warps.";
    if (r.limiters.contains(limiter::barriers))
      s += " Each block uses " + barriers + ", so " + std::to_string(r.blocks_by_barriers) + " blocks fit.";
    if (r.limiters.contains(limiter::virtual_resources))
      s += " Each block uses " + virtuals + ", so " + std::to_string(r.blocks_by_virtual_resources) + " blocks fit.";
  }
  if (a.at_maximum()) return s + " Occupancy is at its maximum.";
  std::string steps;
  const auto add = [&steps, &l](const occupancy_step& st, const std::string& what) {
    if (!st.possible()) return;
    steps += (steps.empty() ? " To raise it: " : "; ") + what + " -> " + detail::warps_text(l, st.active_warps);
  };
  add(a.registers, "use at most " + std::to_string(a.registers.value) + " registers per thread (-maxrregcount=" +
                       std::to_string(a.registers.value) + " or __launch_bounds__)");
  add(a.shared_memory, "use at most " + std::to_string(a.shared_memory.value) + " B of shared memory per block (" +
                           std::to_string(k.static_smem + dynamic_smem - a.shared_memory.value) + " B less)");
  add(a.carveout, "set cudaFuncAttributePreferredSharedMemoryCarveout to at least " +
                      std::to_string(a.carveout.value) + "%");
  add(a.block_size, "use blocks of " + std::to_string(a.block_size.value) + " threads");
  return s + (steps.empty() ? " No single change of registers, shared memory, carveout or block size raises it."
                            : steps + ".");
}

NAPKIN_END_NAMESPACE
