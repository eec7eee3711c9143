// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/calculator.hpp — the occupancy of one launch: blocks per SM allowed by each resource,
// active warps, occupancy and the limiting resource(s), exactly as the CUDA driver computes them
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). try_occupancy() reports an invalid launch; occupancy()
// makes it an error.
#pragma once

#include "napkin/occupancy/launch.hpp"
#include "napkin/occupancy/limits_table.hpp"

#include <array>
#include <climits>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// "Unlimited": a resource that does not limit the number of blocks (e.g. a kernel using no registers).
// Same value cuda_occupancy.h uses (INT_MAX), so the two can be compared field by field.
inline constexpr int unlimited = INT_MAX;

// The resources that can limit blocks per SM. Same bit values as cudaOccResult::limitingFactors.
enum class limiter : unsigned {
  warps = 1,              // warp slots per SM (the block size)
  registers = 2,          // the register file
  shared_memory = 4,      // the shared-memory carveout
  blocks = 8,             // the maximum resident blocks per SM
  barriers = 16,          // block-barrier slots (CC >= 9.0)
  virtual_resources = 32  // CC >= 10.0
};

namespace detail {
// A limiter: the enumerator's name, and the resource in words as to_text() writes it ("Limited by blocks
// per SM and block barriers").
constexpr occupancy_enum_text text_of(limiter l) noexcept {
  switch (l) {
    case limiter::warps: return {"warps", "warps"};
    case limiter::registers: return {"registers", "registers"};
    case limiter::shared_memory: return {"shared_memory", "shared memory"};
    case limiter::blocks: return {"blocks", "blocks per SM"};
    case limiter::barriers: return {"barriers", "block barriers"};
    case limiter::virtual_resources: return {"virtual_resources", "virtual resources"};
  }
  return {"unknown", "unknown"};  // not one limiter (a combination of bits, say)
}
}  // namespace detail

constexpr std::string_view to_string(limiter l) noexcept { return detail::text_of(l).name; }
constexpr std::string_view describe(limiter l) noexcept { return detail::text_of(l).words; }

inline constexpr std::array<limiter, 6> all_limiters{{limiter::registers, limiter::shared_memory, limiter::warps,
                                                      limiter::blocks, limiter::barriers, limiter::virtual_resources}};

// Every resource whose limit equals the result (ties are all listed).
struct limiter_set {
  unsigned bits = 0;
  constexpr bool contains(limiter l) const { return (bits & static_cast<unsigned>(l)) != 0; }
  constexpr void add(limiter l) { bits |= static_cast<unsigned>(l); }
  constexpr bool empty() const { return bits == 0; }
  friend constexpr bool operator==(limiter_set a, limiter_set b) { return a.bits == b.bits; }
  friend constexpr bool operator!=(limiter_set a, limiter_set b) { return a.bits != b.bits; }
};

struct occupancy_result {
  launch_error error = launch_error::none;  // only try_occupancy() returns an invalid launch
  compute_capability cc{};
  int threads_per_block = 0;
  int registers_per_thread = 0;
  int static_smem = 0;
  int dynamic_smem = 0;
  int warps_per_block = 0;
  int max_warps_per_sm = 0;
  int registers_per_warp = 0;    // allocated: registers x warp size, rounded up to the allocation unit
  int registers_per_block = 0;   // allocated: per warp x warps per block
  int smem_per_block = 0;        // allocated: static + dynamic + reserve, rounded up to the allocation unit
  int smem_per_sm = 0;           // the carveout this launch gets
  // Blocks per SM allowed by each resource alone (napkin::unlimited when it does not limit).
  int blocks_by_warps = 0;
  int blocks_by_registers = 0;
  int blocks_by_shared_memory = 0;
  int blocks_by_sm_limit = 0;
  int blocks_by_barriers = unlimited;
  int blocks_by_virtual_resources = unlimited;
  int blocks_per_sm = 0;
  limiter_set limiters{};

  constexpr bool valid() const { return error == launch_error::none; }
  constexpr int active_warps() const { return blocks_per_sm * warps_per_block; }
  constexpr int active_threads() const { return blocks_per_sm * threads_per_block; }
  // Active warps / maximum warps per SM, 0..1.
  constexpr double occupancy() const {
    return max_warps_per_sm > 0 ? static_cast<double>(active_warps()) / max_warps_per_sm : 0.0;
  }
  constexpr int blocks_by(limiter l) const {
    switch (l) {
      case limiter::warps: return blocks_by_warps;
      case limiter::registers: return blocks_by_registers;
      case limiter::shared_memory: return blocks_by_shared_memory;
      case limiter::blocks: return blocks_by_sm_limit;
      case limiter::barriers: return blocks_by_barriers;
      case limiter::virtual_resources: return blocks_by_virtual_resources;
    }
    return unlimited;
  }
};

namespace detail {
// The smallest carveout (bytes) holding `bytes`; the largest one when `bytes` is above them all.
constexpr int snap_to_carveout(const sm_limits& l, int bytes) {
  for (int i = 0; i < l.carveout_count; ++i)
    if (l.carveout_bytes(i) >= bytes) return l.carveout_bytes(i);
  return l.smem_per_sm;
}

constexpr int preferred_carveout(const sm_limits& l, const kernel_resources& k) {
  if (l.carveout_count == 0) return l.smem_per_sm;
  int percent = k.carveout_percent;
  if (percent == carveout_default) {
    if (k.cache == cache_preference::prefer_l1) percent = 0;
    if (k.cache == cache_preference::prefer_shared) percent = 100;
    if (k.cache == cache_preference::prefer_equal) percent = 50;
  }
  const int wanted = percent == carveout_default ? l.smem_per_sm
                                                 : static_cast<int>(static_cast<long long>(percent) * l.smem_per_sm / 100);
  return detail::snap_to_carveout(l, wanted);
}
}  // namespace detail

// The smallest carveout (bytes) holding `bytes`; the largest one when `bytes` is above them all.
constexpr int snap_to_carveout(const sm_limits& l, int bytes) {
  detail::require_valid_limits(l);
  return detail::snap_to_carveout(l, bytes);
}

// The carveout the kernel asks for: its percentage (or cache preference) of the SM's shared memory,
// rounded up to a carveout size. Fixed before Volta.
constexpr int preferred_carveout(const sm_limits& l, const kernel_resources& k) {
  detail::require_valid_limits(l);
  return detail::preferred_carveout(l, k);
}

namespace detail {
// Blocks per SM the register file allows with `sub_partitions` sub-partitions (see the rule below).
// The products are at most 2^21 x 2^10 with valid limits; long long keeps that obvious.
constexpr int register_block_limit(const sm_limits& l, int warps_per_block, int regs_per_warp, int sub_partitions) {
  // The per-block check assumes every sub-partition allocates at once: warps round up to a multiple of them.
  const long long per_warp = regs_per_warp;
  if (per_warp * round_up(warps_per_block, sub_partitions) > l.registers_per_block) return 0;
  if (per_warp * warps_per_block > l.registers_per_block) return 0;
  if (regs_per_warp == 0) return unlimited;
  const int warps_per_sub_partition = (l.registers_per_sm / sub_partitions) / regs_per_warp;
  return warps_per_sub_partition * sub_partitions / warps_per_block;
}

// A result that only names the launch; nothing computed yet.
constexpr occupancy_result launch_only_result(compute_capability cc, int threads, const kernel_resources& k,
                                              int dynamic_smem) {
  occupancy_result r{};
  r.cc = cc;
  r.threads_per_block = threads;
  r.registers_per_thread = k.registers_per_thread;
  r.static_smem = k.static_smem;
  r.dynamic_smem = dynamic_smem;
  return r;
}

// try_occupancy() for limits already checked (next_step, best_block_size and the graphs call it many times).
//
// The register rule (exact). A warp's registers are registers_per_thread x 32 rounded up to 256 (so 33
// registers count as 40), and all of them live in one of the SM's 4 sub-partitions (16,384 registers
// each). So warps per sub-partition = floor(16384 / regs_per_warp), warps per SM = 4 x that, and
// blocks = floor(warps per SM / warps per block). The block must also fit the per-block limit with its
// warps rounded up to a multiple of 4.
// A common simplified form, max_warps_per_sub_partition = 16384 / (registers_per_thread x 32) (the
// register-limit arithmetic of NVIDIA's occupancy material), is this rule without the rounding to 256 and
// without whole blocks: it agrees when registers are a multiple of 8 and the warps per SM divide into
// whole blocks (128 registers, 256 threads: 4 warps/sub-partition, 2 blocks, 25% on H100); it
// overestimates otherwise (33 registers, 256 threads: 12 warps/sub -> 7 blocks (87.5%) simplified, but
// 40-register warps -> 12 warps/sub -> 6 blocks, 75%). docs/occupancy.md lists the cases.
constexpr occupancy_result occupancy_of(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem) {
  occupancy_result r = launch_only_result(l.cc, threads, k, dynamic_smem);
  r.max_warps_per_sm = l.max_warps_per_sm();
  r.error = launch_error_of(l, threads, k, dynamic_smem);
  if (r.error != launch_error::none) return r;

  r.warps_per_block = ceil_div(threads, l.warp_size);

  // Warp slots.
  r.blocks_by_warps = r.max_warps_per_sm / r.warps_per_block;

  // Registers.
  r.registers_per_warp = round_up(k.registers_per_thread * l.warp_size, l.register_allocation_unit);
  r.registers_per_block = r.registers_per_warp * r.warps_per_block;
  r.blocks_by_registers = register_block_limit(l, r.warps_per_block, r.registers_per_warp, l.register_sub_partitions);
  if (l.portable_register_sub_partitions != l.register_sub_partitions && r.blocks_by_registers > 0 &&
      register_block_limit(l, r.warps_per_block, r.registers_per_warp, l.portable_register_sub_partitions) == 0)
    r.blocks_by_registers = 0;

  // Shared memory: the kernel's carveout if one block fits in it, else (Volta+) the driver raises the
  // carveout to the smallest size that holds one block.
  r.smem_per_block = round_up(k.static_smem + l.smem_reserved_per_block + dynamic_smem, l.smem_allocation_unit);
  const int preferred = detail::preferred_carveout(l, k);
  r.smem_per_sm = (preferred >= r.smem_per_block || l.carveout_count == 0)
                      ? preferred
                      : detail::snap_to_carveout(l, r.smem_per_block);
  r.blocks_by_shared_memory = r.smem_per_block > 0 ? r.smem_per_sm / r.smem_per_block : unlimited;

  r.blocks_by_sm_limit = l.max_blocks_per_sm;
  if (l.virtual_resources_per_sm > 0 && k.virtual_resources > 0)
    r.blocks_by_virtual_resources = l.virtual_resources_per_sm / k.virtual_resources;
  if (l.barriers_per_sm > 0 && k.block_barriers > 0) r.blocks_by_barriers = l.barriers_per_sm / k.block_barriers;

  r.blocks_per_sm = unlimited;
  for (limiter lim : all_limiters) r.blocks_per_sm = min_of(r.blocks_per_sm, r.blocks_by(lim));
  for (limiter lim : all_limiters)
    if (r.blocks_by(lim) == r.blocks_per_sm) r.limiters.add(lim);
  return r;
}
}  // namespace detail

// Occupancy of a launch; an invalid launch (or invalid limits: error == launch_error::invalid_limits)
// comes back with `error` set and 0 blocks. Never throws.
constexpr occupancy_result try_occupancy(const sm_limits& l, int threads, const kernel_resources& k,
                                         int dynamic_smem = 0) {
  if (check_limits(l) != limits_error::none) {
    occupancy_result r = detail::launch_only_result(l.cc, threads, k, dynamic_smem);
    r.error = launch_error::invalid_limits;
    return r;
  }
  return detail::occupancy_of(l, threads, k, dynamic_smem);
}

// Occupancy of a valid launch; invalid limits or an invalid launch are a compile error in constant
// evaluation and napkin's input error at run time (std::invalid_argument, or an abort / the failure
// handler without exceptions).
constexpr occupancy_result occupancy(const sm_limits& l, int threads, const kernel_resources& k,
                                     int dynamic_smem = 0) {
  detail::require_valid_limits(l);
  detail::require_valid(detail::launch_error_of(l, threads, k, dynamic_smem), l, threads, k, dynamic_smem);
  return detail::occupancy_of(l, threads, k, dynamic_smem);
}

// The what-if form: a compute capability, threads, registers per thread, shared memory per block.
constexpr occupancy_result occupancy(compute_capability cc, int threads, int registers_per_thread,
                                     int dynamic_smem = 0) {
  return occupancy(limits_of(cc), threads, kernel_resources{registers_per_thread}, dynamic_smem);
}

NAPKIN_END_NAMESPACE
