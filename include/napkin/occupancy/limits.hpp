// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/limits.hpp — sm_limits, what limits residency on one SM, and its validation.
//
// limits_of() (limits_table.hpp) fills an sm_limits from napkin's table; a user may also build or change
// one. Every function that takes one checks it first, field by field (check_limits, limits_error), so an
// impossible value is an error that names the field, never a wrong number.
#pragma once

#include "napkin/occupancy/compute_capability.hpp"

#include <array>
#include <climits>
#include <cstddef>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// The integer arithmetic every occupancy part uses (positive operands only).
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
constexpr int round_up(int a, int b) { return ceil_div(a, b) * b; }
constexpr int min_of(int a, int b) { return b < a ? b : a; }

// The largest x in [good, bad) for which `holds(x)`, by bisection: holds(good) is true, holds(bad) false,
// and `holds` is true up to some x and false after it.
template <class Predicate>
constexpr int last_that_holds(int good, int bad, Predicate holds) {
  while (bad - good > 1) {
    const int mid = good + (bad - good) / 2;
    if (holds(mid)) good = mid; else bad = mid;
  }
  return good;
}
}  // namespace detail

// What is wrong with an sm_limits: one value per field that can be wrong.
enum class limits_error {
  none,
  compute_capability,  // cc: see compute_capability
  architecture,        // a null pointer
  source,              // a null pointer
  warp_size,
  max_threads_per_sm,
  max_threads_per_block,
  max_blocks_per_sm,
  registers_per_sm,
  registers_per_block,
  max_registers_per_thread,
  register_allocation_unit,
  register_sub_partitions,
  portable_register_sub_partitions,
  smem_per_sm,
  smem_reserved_per_block,
  smem_per_block_optin,
  smem_per_block,
  smem_allocation_unit,
  carveout_count,
  carveouts_kib,
  barriers_per_sm,
  virtual_resources_per_sm,
  sm_count,
};

namespace detail {
// An occupancy enumerator as text, both forms in one switch so that they stay in step: `name` for
// to_string (short and stable), `words` for describe.
struct occupancy_enum_text {
  std::string_view name;
  std::string_view words;
};

// A limits_error: the field's name as written in sm_limits, and which values of the field are legal, and
// why. The caps on the per-SM sizes are several times the largest value of any GPU so far; they keep
// every intermediate of napkin's int arithmetic exact.
constexpr occupancy_enum_text text_of(limits_error e) noexcept {
  using E = limits_error;
  constexpr std::string_view sub_partitions =
      "the register file is split into this many parts, each holding at least one warp slot";
  switch (e) {
    case E::none: return {"none", "valid limits"};
    case E::compute_capability: return {"cc", "the minor version must be 0..9 and the major 0..214748363"};
    case E::architecture: return {"architecture", "it must point to a name (it is printed)"};
    case E::source: return {"source", "it must point to a text (it is printed)"};
    case E::warp_size:
      return {"warp_size",
              "every compute capability has 32-thread warps, as the CUDA C++ Programming Guide's compute "
              "capability tables list, and napkin's register rule is that of 32-thread warps"};
    case E::max_threads_per_sm:
      return {"max_threads_per_sm",
              "at least one warp; at most 8x the 2048 of any GPU so far, which keeps the arithmetic exact"};
    case E::max_threads_per_block:
      return {"max_threads_per_block", "1024 is the limit of every compute capability, and a block runs on one SM"};
    case E::max_blocks_per_sm: return {"max_blocks_per_sm", "at least 1, and a block holds at least one thread"};
    case E::registers_per_sm:
      return {"registers_per_sm",
              "at least 1; at most 16x the 64 K of any GPU so far, which keeps the arithmetic exact"};
    case E::registers_per_block: return {"registers_per_block", "a block runs on one SM"};
    case E::max_registers_per_thread:
      return {"max_registers_per_thread",
              "255 is the maximum of every compute capability in the CUDA C++ Programming Guide's tables, and "
              "graph_registers holds 256 points"};
    case E::register_allocation_unit:
      return {"register_allocation_unit",
              "a warp's registers are allocated in units of this many; a unit above a block's registers "
              "could never be granted"};
    case E::register_sub_partitions: return {"register_sub_partitions", sub_partitions};
    case E::portable_register_sub_partitions: return {"portable_register_sub_partitions", sub_partitions};
    case E::smem_per_sm:
      return {"smem_per_sm",
              "at most 16 MiB, 70x the 228 KiB of any GPU so far, which keeps the arithmetic exact"};
    case E::smem_reserved_per_block:
      return {"smem_reserved_per_block", "the reserve is part of the SM's shared memory"};
    case E::smem_per_block_optin:
      return {"smem_per_block_optin", "an opted-in block and its reserve must fit in the SM's shared memory"};
    case E::smem_per_block: return {"smem_per_block", "opting in can only raise the per-block limit"};
    case E::smem_allocation_unit: return {"smem_allocation_unit", "allocations are rounded up to a multiple of it"};
    case E::carveout_count: return {"carveout_count", "carveouts_kib holds 10 sizes"};
    case E::carveouts_kib:
      return {"carveouts_kib",
              "carveout sizes (KiB) increase and are part of the SM's shared memory; napkin takes the first "
              "that holds a request"};
    case E::barriers_per_sm: return {"barriers_per_sm", "0 means no limit; a count cannot be negative"};
    case E::virtual_resources_per_sm:
      return {"virtual_resources_per_sm", "0 means no limit; a count cannot be negative"};
    case E::sm_count: return {"sm_count", "0 means unknown; a count cannot be negative"};
  }
  return {"unknown", "unknown"};
}
}  // namespace detail

// The field's name, as written in sm_limits ("cc", "warp_size"); "unknown" for a value that is no limits_error.
constexpr std::string_view to_string(limits_error e) noexcept { return detail::text_of(e).name; }
// Which values of the field are legal, and why; "unknown" for a value that is no limits_error.
constexpr std::string_view describe(limits_error e) noexcept { return detail::text_of(e).words; }

namespace detail {
// The caps named in describe(limits_error).
inline constexpr int max_threads_per_sm_cap = 16384;
inline constexpr int max_registers_per_sm_cap = 1 << 20;
inline constexpr int max_smem_per_sm_cap = 16 * 1024 * 1024;

// An invalid sm_limits field: the template argument names the field in a compile error.
template <limits_error field>
[[noreturn]] void sm_limits_field_is_invalid(long long value, long long low, long long high, int index = -1) {
  std::string m = "napkin::occupancy: sm_limits." + std::string(to_string(field));
  if (index >= 0) m += "[" + std::to_string(index) + "]";
  if (field == limits_error::architecture || field == limits_error::source) {
    m += " is null";
  } else {
    m += " is " + std::to_string(value) + "; it must be " + std::to_string(low);
    if (high != low) m += ".." + std::to_string(high);
  }
  detail::raise_input_error(m + " (" + std::string(describe(field)) + ")");
}
[[noreturn]] inline void carveout_index_out_of_range(int index, int count) {
  detail::raise_input_error("napkin::occupancy: carveout index " + std::to_string(index) +
                            (count > 0 ? " is outside 0.." + std::to_string(count - 1)
                                       : std::string(" is invalid: there are no carveout sizes")) +
                            " (sm_limits.carveout_count is " + std::to_string(count) + ")");
}
}  // namespace detail

// What limits residency on one SM of a given compute capability. Sizes in bytes. limits_of() fills it from
// napkin's table; a user may also build or change one (a GPU napkin does not know yet, a device's own
// values): every function that takes one checks it first (check_limits; describe(limits_error) gives each
// field's legal values and why), so an impossible value is an error that names the field, never a number.
struct sm_limits {
  compute_capability cc{};
  const char* architecture = "";
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int warp_size = 32;
  int registers_per_sm = 65536;
  int registers_per_block = 65536;
  int max_registers_per_thread = 255;
  // Registers are allocated per warp in units of this many (256 = 8 per thread).
  int register_allocation_unit = 256;
  // The register file is split into this many sub-partitions; a warp's registers live in one.
  int register_sub_partitions = 4;
  // GP100 (6.0): a block must also fit the 4-sub-partition GP10x layout, or the driver refuses it.
  int portable_register_sub_partitions = 4;
  int smem_per_sm = 0;                   // the largest shared-memory carveout
  int smem_per_block = 48 * 1024;        // without opt-in; also the limit for static shared memory
  int smem_per_block_optin = 48 * 1024;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  int smem_reserved_per_block = 0;       // the driver's per-block reserve (1 KiB from 8.0)
  int smem_allocation_unit = 256;
  // Shared-memory carveout sizes (KiB) the SM can be configured with, increasing; 0 sizes: fixed (before Volta).
  std::array<int, 10> carveouts_kib{};
  int carveout_count = 0;
  // Block-barrier slots per SM (0: not a limit) and "virtual resources" per SM (0: none), as modelled by
  // cuda_occupancy.h 13.0 for CC >= 9.0 and >= 10.0.
  int barriers_per_sm = 0;
  int virtual_resources_per_sm = 0;
  int sm_count = 0;  // 0 when unknown (limits from a CC only); filled from a device
  bool verified = true;  // false: no NVIDIA table lists this CC; values inferred (see source)
  const char* source = "";

  constexpr int max_warps_per_sm() const {
    if (warp_size != 32) detail::sm_limits_field_is_invalid<limits_error::warp_size>(warp_size, 32, 32);
    return max_threads_per_sm / warp_size;
  }
  constexpr int carveout_bytes(int i) const {
    if (i < 0 || i >= carveout_count || i >= static_cast<int>(carveouts_kib.size()))
      detail::carveout_index_out_of_range(i, carveout_count);
    return carveouts_kib[static_cast<std::size_t>(i)] * 1024;
  }
};

namespace detail {
// The first invalid field of `l`, with its value and legal range (for the message).
struct limits_problem {
  limits_error error = limits_error::none;
  long long value = 0;
  long long low = 0;
  long long high = 0;
  int index = -1;
};

constexpr limits_problem first_limits_problem(const sm_limits& l) {
  using E = limits_error;
  const auto bad = [](long long v, long long low, long long high) { return v < low || v > high; };
  if (!l.cc.valid()) return {E::compute_capability, 0, 0, 0, -1};
  if (l.architecture == nullptr) return {E::architecture, 0, 0, 0, -1};
  if (l.source == nullptr) return {E::source, 0, 0, 0, -1};
  if (l.warp_size != 32) return {E::warp_size, l.warp_size, 32, 32, -1};
  if (bad(l.max_threads_per_sm, l.warp_size, max_threads_per_sm_cap))
    return {E::max_threads_per_sm, l.max_threads_per_sm, l.warp_size, max_threads_per_sm_cap, -1};
  if (bad(l.max_threads_per_block, 1, min_of(1024, l.max_threads_per_sm)))
    return {E::max_threads_per_block, l.max_threads_per_block, 1, min_of(1024, l.max_threads_per_sm), -1};
  if (bad(l.max_blocks_per_sm, 1, l.max_threads_per_sm))
    return {E::max_blocks_per_sm, l.max_blocks_per_sm, 1, l.max_threads_per_sm, -1};
  if (bad(l.registers_per_sm, 1, max_registers_per_sm_cap))
    return {E::registers_per_sm, l.registers_per_sm, 1, max_registers_per_sm_cap, -1};
  if (bad(l.registers_per_block, 1, l.registers_per_sm))
    return {E::registers_per_block, l.registers_per_block, 1, l.registers_per_sm, -1};
  if (bad(l.max_registers_per_thread, 1, 255))
    return {E::max_registers_per_thread, l.max_registers_per_thread, 1, 255, -1};
  if (bad(l.register_allocation_unit, 1, l.registers_per_block))
    return {E::register_allocation_unit, l.register_allocation_unit, 1, l.registers_per_block, -1};
  const int warp_slots = l.max_threads_per_sm / l.warp_size;
  if (bad(l.register_sub_partitions, 1, warp_slots))
    return {E::register_sub_partitions, l.register_sub_partitions, 1, warp_slots, -1};
  if (bad(l.portable_register_sub_partitions, 1, warp_slots))
    return {E::portable_register_sub_partitions, l.portable_register_sub_partitions, 1, warp_slots, -1};
  if (bad(l.smem_per_sm, 0, max_smem_per_sm_cap)) return {E::smem_per_sm, l.smem_per_sm, 0, max_smem_per_sm_cap, -1};
  if (bad(l.smem_reserved_per_block, 0, l.smem_per_sm))
    return {E::smem_reserved_per_block, l.smem_reserved_per_block, 0, l.smem_per_sm, -1};
  const int optin_cap = l.smem_per_sm - l.smem_reserved_per_block;
  if (bad(l.smem_per_block_optin, 0, optin_cap))
    return {E::smem_per_block_optin, l.smem_per_block_optin, 0, optin_cap, -1};
  if (bad(l.smem_per_block, 0, l.smem_per_block_optin))
    return {E::smem_per_block, l.smem_per_block, 0, l.smem_per_block_optin, -1};
  if (bad(l.smem_allocation_unit, 1, max_smem_per_sm_cap))
    return {E::smem_allocation_unit, l.smem_allocation_unit, 1, max_smem_per_sm_cap, -1};
  const int slots = static_cast<int>(l.carveouts_kib.size());
  if (bad(l.carveout_count, 0, slots)) return {E::carveout_count, l.carveout_count, 0, slots, -1};
  for (int i = 0; i < l.carveout_count; ++i) {
    const int low = i == 0 ? 0 : l.carveouts_kib[static_cast<std::size_t>(i - 1)] + 1;
    const int kib = l.carveouts_kib[static_cast<std::size_t>(i)];
    if (bad(kib, low, l.smem_per_sm / 1024)) return {E::carveouts_kib, kib, low, l.smem_per_sm / 1024, i};
  }
  if (l.barriers_per_sm < 0) return {E::barriers_per_sm, l.barriers_per_sm, 0, INT_MAX, -1};
  if (l.virtual_resources_per_sm < 0) return {E::virtual_resources_per_sm, l.virtual_resources_per_sm, 0, INT_MAX, -1};
  if (l.sm_count < 0) return {E::sm_count, l.sm_count, 0, INT_MAX, -1};
  return {};
}
}  // namespace detail

// What (if anything) is wrong with these limits: the first invalid field. Never throws.
constexpr limits_error check_limits(const sm_limits& l) { return detail::first_limits_problem(l).error; }

namespace detail {
// Checks a user's (or the table's) limits once, before any arithmetic on them. In constant evaluation the
// compiler stops at the failing call, whose template argument names the field.
constexpr void require_valid_limits(const sm_limits& l) {
  using E = limits_error;
  const limits_problem p = first_limits_problem(l);
  switch (p.error) {
    case E::none: return;
    case E::compute_capability: require_valid_compute_capability(l.cc.major, l.cc.minor); return;
#define NAPKIN_DETAIL_LIMITS_CASE(field) \
  case E::field: sm_limits_field_is_invalid<E::field>(p.value, p.low, p.high, p.index)
    NAPKIN_DETAIL_LIMITS_CASE(architecture);
    NAPKIN_DETAIL_LIMITS_CASE(source);
    NAPKIN_DETAIL_LIMITS_CASE(warp_size);
    NAPKIN_DETAIL_LIMITS_CASE(max_threads_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(max_threads_per_block);
    NAPKIN_DETAIL_LIMITS_CASE(max_blocks_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(registers_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(registers_per_block);
    NAPKIN_DETAIL_LIMITS_CASE(max_registers_per_thread);
    NAPKIN_DETAIL_LIMITS_CASE(register_allocation_unit);
    NAPKIN_DETAIL_LIMITS_CASE(register_sub_partitions);
    NAPKIN_DETAIL_LIMITS_CASE(portable_register_sub_partitions);
    NAPKIN_DETAIL_LIMITS_CASE(smem_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(smem_reserved_per_block);
    NAPKIN_DETAIL_LIMITS_CASE(smem_per_block_optin);
    NAPKIN_DETAIL_LIMITS_CASE(smem_per_block);
    NAPKIN_DETAIL_LIMITS_CASE(smem_allocation_unit);
    NAPKIN_DETAIL_LIMITS_CASE(carveout_count);
    NAPKIN_DETAIL_LIMITS_CASE(carveouts_kib);
    NAPKIN_DETAIL_LIMITS_CASE(barriers_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(virtual_resources_per_sm);
    NAPKIN_DETAIL_LIMITS_CASE(sm_count);
#undef NAPKIN_DETAIL_LIMITS_CASE
  }
}
}  // namespace detail

NAPKIN_END_NAMESPACE
