// napkin/occupancy.hpp — exact, constexpr theoretical occupancy for CUDA kernels.
//
// Plain C++17, no CUDA header. Given a compute capability (or device limits), a block size, the
// kernel's registers per thread and shared memory, it computes what the CUDA driver computes
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor): blocks per SM allowed by each resource, active warps,
// occupancy and the limiting resource(s); then what it would take to reach the next occupancy level,
// the best block size, and the data of Nsight Compute's three occupancy graphs.
//
//   constexpr auto r = napkin::occupancy(napkin::compute_capability{9, 0}, 256, 32, 8 * 1024);
//   static_assert(r.blocks_per_sm == 8 && r.active_warps() == 64);
//   std::puts(napkin::explain(napkin::limits_of({8, 6}), 256, {128}).c_str());
//
// The rules (docs/occupancy.md has them with their public sources) were written from the CUDA Programming
// Guide's compute capability tables, the CUDA C++ Best Practices Guide's occupancy section and the
// behaviour of the toolkit's cuda_occupancy.h; tests/occupancy checks them against that header over
// millions of launches. Bad input (a launch, a compute capability, or the fields of a user-built
// sm_limits) is a compile error in constant evaluation: the failing call is a non-constexpr function in
// napkin::detail whose name (or template argument) says what is wrong. At run time it is napkin's input
// error (napkin/error.hpp): std::invalid_argument by default; without exceptions, the message and an
// abort, or the failure handler.
#pragma once

#include "napkin/error.hpp"

#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

NAPKIN_BEGIN_NAMESPACE

// ------------------------------------------------------------------------------------------------
// Compute capability
// ------------------------------------------------------------------------------------------------

namespace detail {
// The largest major version whose number (major x 10 + minor) fits an int.
inline constexpr int max_cc_major = (INT_MAX - 9) / 10;

// Failures. Each is a non-constexpr function, so in constant evaluation the compiler stops at the call
// and names the function; at run time it raises napkin's input error (an exception, or without
// exceptions a message and an abort or the failure handler) with the numbers.
[[noreturn]] inline void compute_capability_minor_out_of_range(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) +
                            ": the minor version must be 0..9 (a CC is numbered major x 10 + minor, as in sm_90 "
                            "for 9.0, so a larger or negative minor would read as another CC)");
}
[[noreturn]] inline void compute_capability_major_out_of_range(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) + ": the major version must be 0.." +
                            std::to_string(max_cc_major) + " (its number, major x 10 + minor, must fit an int)");
}
[[noreturn]] inline void unknown_compute_capability(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: unknown compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) +
                            " (napkin knows 5.0-5.3, 6.0-6.2, 7.0, 7.2, 7.5, 8.0, 8.6-8.9, 9.0, 10.0, 10.1, "
                            "10.3, 11.0, 12.0, 12.1; it never guesses)");
}
constexpr void require_valid_compute_capability(int major, int minor) {
  if (major < 0 || major > max_cc_major) compute_capability_major_out_of_range(major, minor);
  if (minor < 0 || minor > 9) compute_capability_minor_out_of_range(major, minor);
}
}  // namespace detail

// A compute capability. Constructing one with a minor outside 0..9 or a negative (or too large) major is
// an error: 8.10 would otherwise number as 90, CC 9.0.
struct compute_capability {
  int major = 0;
  int minor = 0;

  constexpr compute_capability() = default;
  constexpr compute_capability(int major_version, int minor_version) : major{major_version}, minor{minor_version} {
    detail::require_valid_compute_capability(major, minor);
  }

  // Whether the fields (public, so changeable after construction) form a compute capability.
  constexpr bool valid() const { return major >= 0 && major <= detail::max_cc_major && minor >= 0 && minor <= 9; }
  // 90 for 9.0, 120 for 12.0: the number in sm_90 / sm_120. An error when !valid().
  constexpr int number() const {
    detail::require_valid_compute_capability(major, minor);
    return major * 10 + minor;
  }
  friend constexpr bool operator==(compute_capability a, compute_capability b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend constexpr bool operator!=(compute_capability a, compute_capability b) { return !(a == b); }
};

// "Unlimited": a resource that does not limit the number of blocks (e.g. a kernel using no registers).
// Same value cuda_occupancy.h uses (INT_MAX), so the two can be compared field by field.
inline constexpr int unlimited = INT_MAX;

// ------------------------------------------------------------------------------------------------
// What is wrong with an sm_limits (one value per field that can be wrong)
// ------------------------------------------------------------------------------------------------

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

// The field's name, as written in sm_limits.
constexpr const char* name(limits_error e) {
  switch (e) {
    case limits_error::none: return "none";
    case limits_error::compute_capability: return "cc";
    case limits_error::architecture: return "architecture";
    case limits_error::source: return "source";
    case limits_error::warp_size: return "warp_size";
    case limits_error::max_threads_per_sm: return "max_threads_per_sm";
    case limits_error::max_threads_per_block: return "max_threads_per_block";
    case limits_error::max_blocks_per_sm: return "max_blocks_per_sm";
    case limits_error::registers_per_sm: return "registers_per_sm";
    case limits_error::registers_per_block: return "registers_per_block";
    case limits_error::max_registers_per_thread: return "max_registers_per_thread";
    case limits_error::register_allocation_unit: return "register_allocation_unit";
    case limits_error::register_sub_partitions: return "register_sub_partitions";
    case limits_error::portable_register_sub_partitions: return "portable_register_sub_partitions";
    case limits_error::smem_per_sm: return "smem_per_sm";
    case limits_error::smem_reserved_per_block: return "smem_reserved_per_block";
    case limits_error::smem_per_block_optin: return "smem_per_block_optin";
    case limits_error::smem_per_block: return "smem_per_block";
    case limits_error::smem_allocation_unit: return "smem_allocation_unit";
    case limits_error::carveout_count: return "carveout_count";
    case limits_error::carveouts_kib: return "carveouts_kib";
    case limits_error::barriers_per_sm: return "barriers_per_sm";
    case limits_error::virtual_resources_per_sm: return "virtual_resources_per_sm";
    case limits_error::sm_count: return "sm_count";
  }
  return "?";
}

// Which values of the field are legal, and why. The caps on the per-SM sizes are several times the
// largest value of any GPU so far; they keep every intermediate of napkin's int arithmetic exact.
constexpr const char* describe(limits_error e) {
  switch (e) {
    case limits_error::none: return "valid limits";
    case limits_error::compute_capability: return "the minor version must be 0..9 and the major 0..214748363";
    case limits_error::architecture: return "it must point to a name (it is printed)";
    case limits_error::source: return "it must point to a text (it is printed)";
    case limits_error::warp_size:
      return "every compute capability has 32-thread warps, as the CUDA C++ Programming Guide's compute "
             "capability tables list, and napkin's register rule is that of 32-thread warps";
    case limits_error::max_threads_per_sm:
      return "at least one warp; at most 8x the 2048 of any GPU so far, which keeps the arithmetic exact";
    case limits_error::max_threads_per_block:
      return "1024 is the limit of every compute capability, and a block runs on one SM";
    case limits_error::max_blocks_per_sm: return "at least 1, and a block holds at least one thread";
    case limits_error::registers_per_sm:
      return "at least 1; at most 16x the 64 K of any GPU so far, which keeps the arithmetic exact";
    case limits_error::registers_per_block: return "a block runs on one SM";
    case limits_error::max_registers_per_thread:
      return "255 is the maximum of every compute capability in the CUDA C++ Programming Guide's tables, and "
             "graph_registers holds 256 points";
    case limits_error::register_allocation_unit:
      return "a warp's registers are allocated in units of this many; a unit above a block's registers "
             "could never be granted";
    case limits_error::register_sub_partitions:
    case limits_error::portable_register_sub_partitions:
      return "the register file is split into this many parts, each holding at least one warp slot";
    case limits_error::smem_per_sm:
      return "at most 16 MiB, 70x the 228 KiB of any GPU so far, which keeps the arithmetic exact";
    case limits_error::smem_reserved_per_block: return "the reserve is part of the SM's shared memory";
    case limits_error::smem_per_block_optin:
      return "an opted-in block and its reserve must fit in the SM's shared memory";
    case limits_error::smem_per_block: return "opting in can only raise the per-block limit";
    case limits_error::smem_allocation_unit: return "allocations are rounded up to a multiple of it";
    case limits_error::carveout_count: return "carveouts_kib holds 10 sizes";
    case limits_error::carveouts_kib:
      return "carveout sizes (KiB) increase and are part of the SM's shared memory; napkin takes the first "
             "that holds a request";
    case limits_error::barriers_per_sm: return "0 means no limit; a count cannot be negative";
    case limits_error::virtual_resources_per_sm: return "0 means no limit; a count cannot be negative";
    case limits_error::sm_count: return "0 means unknown; a count cannot be negative";
  }
  return "?";
}

namespace detail {
// The caps named in describe(limits_error).
inline constexpr int max_threads_per_sm_cap = 16384;
inline constexpr int max_registers_per_sm_cap = 1 << 20;
inline constexpr int max_smem_per_sm_cap = 16 * 1024 * 1024;

// An invalid sm_limits field: the template argument names the field in a compile error.
template <limits_error field>
[[noreturn]] void sm_limits_field_is_invalid(long long value, long long low, long long high, int index = -1) {
  std::string m = std::string("napkin::occupancy: sm_limits.") + name(field);
  if (index >= 0) m += "[" + std::to_string(index) + "]";
  if (field == limits_error::architecture || field == limits_error::source) {
    m += " is null";
  } else {
    m += " is " + std::to_string(value) + "; it must be " + std::to_string(low);
    if (high != low) m += ".." + std::to_string(high);
  }
  detail::raise_input_error(m + " (" + describe(field) + ")");
}
[[noreturn]] inline void carveout_index_out_of_range(int index, int count) {
  detail::raise_input_error("napkin::occupancy: carveout index " + std::to_string(index) +
                            (count > 0 ? " is outside 0.." + std::to_string(count - 1)
                                       : std::string(" is invalid: there are no carveout sizes")) +
                            " (sm_limits.carveout_count is " + std::to_string(count) + ")");
}
[[noreturn]] inline void threads_per_block_must_be_at_least_1(int threads) {
  detail::raise_input_error("napkin::occupancy: threads per block is " + std::to_string(threads) +
                            "; a block needs at least 1 thread");
}
[[noreturn]] inline void threads_per_block_above_the_device_limit(int threads, int limit) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(threads) +
                            " threads per block is above the device limit of " + std::to_string(limit) +
                            "; the launch would fail with cudaErrorInvalidConfiguration");
}
[[noreturn]] inline void threads_per_block_above_the_kernel_limit(int threads, int limit) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(threads) +
                            " threads per block is above this kernel's limit of " + std::to_string(limit) +
                            " (its __launch_bounds__ or register use); the launch would fail");
}
[[noreturn]] inline void registers_per_thread_out_of_range(int registers, int limit) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(registers) +
                            " registers per thread is outside 0.." + std::to_string(limit) +
                            " (the architecture's maximum per thread)");
}
[[noreturn]] inline void shared_memory_must_not_be_negative(const char* which, int bytes) {
  detail::raise_input_error(std::string("napkin::occupancy: ") + which + " shared memory is " +
                            std::to_string(bytes) + " bytes; it must be >= 0");
}
[[noreturn]] inline void static_shared_memory_above_48_KiB(int bytes, int limit) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(bytes) +
                            " bytes of static shared memory is above the " + std::to_string(limit) +
                            "-byte limit for static allocations; use dynamic shared memory and opt in");
}
[[noreturn]] inline void shared_memory_above_the_opt_in_limit(int static_bytes, int dynamic_bytes, int limit) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(static_bytes) + " B static + " +
                            std::to_string(dynamic_bytes) + " B dynamic shared memory per block is above "
                            "the opt-in limit of " + std::to_string(limit) + " B per block");
}
[[noreturn]] inline void dynamic_shared_memory_above_the_kernel_limit(int dynamic_bytes, int kernel_limit,
                                                                      int opt_in_limit) {
  detail::raise_input_error(
      "napkin::occupancy: " + std::to_string(dynamic_bytes) +
      " B of dynamic shared memory is above this kernel's maximum of " + std::to_string(kernel_limit) +
      " B; raise it with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, " +
      std::to_string(dynamic_bytes) + ") (at most " + std::to_string(opt_in_limit) + " B minus static)");
}
[[noreturn]] inline void max_dynamic_shared_memory_above_the_opt_in_limit(int static_bytes, int max_dynamic,
                                                                          int limit) {
  detail::raise_input_error("napkin::occupancy: the kernel's maximum dynamic shared memory (" +
                            std::to_string(max_dynamic) + " B) plus its static " + std::to_string(static_bytes) +
                            " B is above the opt-in limit of " + std::to_string(limit) +
                            " B; cudaFuncSetAttribute would refuse it");
}
[[noreturn]] inline void carveout_percent_out_of_range(int percent) {
  detail::raise_input_error("napkin::occupancy: shared-memory carveout " + std::to_string(percent) +
                            "% is outside -1 (default) .. 100");
}
[[noreturn]] inline void resource_count_must_not_be_negative(const char* what, int count) {
  detail::raise_input_error(std::string("napkin::occupancy: kernel_resources.") + what + " is " +
                            std::to_string(count) + "; it must be >= 0");
}
[[noreturn]] inline void blocks_per_sm_must_be_at_least_1(int blocks) {
  detail::raise_input_error("napkin::occupancy: " + std::to_string(blocks) +
                            " blocks per SM requested; ask for at least 1");
}
[[noreturn]] inline void sm_count_must_not_be_negative(int sm_count) {
  detail::raise_input_error("napkin::occupancy: SM count is " + std::to_string(sm_count) + "; it must be >= 0");
}
[[noreturn]] inline void min_grid_size_overflows_int(int blocks_per_sm, int sm_count) {
  detail::raise_input_error<std::overflow_error>("napkin::occupancy: the minimum grid size, " +
                                                 std::to_string(blocks_per_sm) + " blocks x " +
                                                 std::to_string(sm_count) + " SMs, does not fit an int");
}

constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
constexpr int round_up(int a, int b) { return ceil_div(a, b) * b; }
constexpr int min_of(int a, int b) { return b < a ? b : a; }
}  // namespace detail

// ------------------------------------------------------------------------------------------------
// Per-architecture limits
// ------------------------------------------------------------------------------------------------

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

namespace detail {
inline constexpr const char* guide_tables =
    "CUDA Programming Guide (Dec 2025) sec. 5.1.3, Tables 30-32 (limits, carveouts); register allocation unit: "
    "CUDA C++ Best Practices Guide, Calculating Occupancy; allocation units, sub-partitions and barriers: "
    "behaviour of CUDA 13.0 cuda_occupancy.h";
inline constexpr const char* legacy_tables =
    "CUDA C++ Programming Guide of CUDA 12 and earlier, Features and Technical Specifications (and NVIDIA CCCL "
    "arch_traits.h for 6.x/7.0); allocation units and block limits: CUDA 13.0 cuda_occupancy.h";

template <std::size_t N>
constexpr void set_carveouts(sm_limits& l, const int (&kib)[N]) {  // NOLINT(*-avoid-c-arrays): a braced list
  static_assert(N <= 10, "at most 10 carveout sizes");
  for (std::size_t i = 0; i < N; ++i) l.carveouts_kib[i] = kib[i];
  l.carveout_count = static_cast<int>(N);
}

constexpr sm_limits pre_volta(compute_capability cc, const char* arch, int smem_per_sm_kib, int regs_per_block) {
  sm_limits l{};
  l.cc = cc;
  l.architecture = arch;
  l.max_threads_per_sm = 2048;
  l.max_blocks_per_sm = 32;
  l.registers_per_block = regs_per_block;
  l.smem_per_sm = smem_per_sm_kib * 1024;
  l.source = legacy_tables;
  return l;
}

// CC >= 8.0: 1 KiB reserved per block, 128-byte allocation unit, opt-in = SM's shared memory - reserve.
constexpr sm_limits ampere_plus(compute_capability cc, const char* arch, int threads_per_sm, int blocks_per_sm,
                                int smem_per_sm_kib) {
  sm_limits l{};
  l.cc = cc;
  l.architecture = arch;
  l.max_threads_per_sm = threads_per_sm;
  l.max_blocks_per_sm = blocks_per_sm;
  l.smem_per_sm = smem_per_sm_kib * 1024;
  l.smem_reserved_per_block = 1024;
  l.smem_per_block_optin = l.smem_per_sm - l.smem_reserved_per_block;
  l.smem_allocation_unit = 128;
  l.source = guide_tables;
  if (smem_per_sm_kib == 100) set_carveouts(l, {0, 8, 16, 32, 64, 100});
  if (smem_per_sm_kib == 164) set_carveouts(l, {0, 8, 16, 32, 64, 100, 132, 164});
  if (smem_per_sm_kib == 228) set_carveouts(l, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228});
  return l;
}
}  // namespace detail

// The limits of a compute capability. Unknown CCs are an error, never a guess.
constexpr sm_limits limits_of(compute_capability cc) {
  using detail::ampere_plus;
  using detail::pre_volta;
  switch (cc.number()) {
    case 50: return pre_volta(cc, "Maxwell", 64, 65536);
    // 5.2: 64 K registers per block, as the legacy Programming Guide lists (spreadsheet transcriptions say 32 K).
    case 52: return pre_volta(cc, "Maxwell", 96, 65536);
    case 53: return pre_volta(cc, "Maxwell (Tegra X1)", 64, 32768);
    case 60: {
      sm_limits l = pre_volta(cc, "Pascal (GP100)", 64, 65536);
      l.register_sub_partitions = 2;
      return l;
    }
    case 61: return pre_volta(cc, "Pascal", 96, 65536);
    case 62: return pre_volta(cc, "Pascal (Tegra X2)", 64, 32768);
    case 70:
    case 72: {
      sm_limits l = pre_volta(cc, cc.minor == 0 ? "Volta" : "Volta (Xavier)", 96, 65536);
      l.smem_per_block_optin = 96 * 1024;
      detail::set_carveouts(l, {0, 8, 16, 32, 64, 96});
      return l;
    }
    case 75: {
      sm_limits l{};
      l.cc = cc;
      l.architecture = "Turing";
      l.max_threads_per_sm = 1024;
      l.max_blocks_per_sm = 16;
      l.smem_per_sm = 64 * 1024;
      l.smem_per_block_optin = 64 * 1024;
      l.source = detail::guide_tables;
      detail::set_carveouts(l, {32, 64});
      return l;
    }
    case 80: return ampere_plus(cc, "Ampere (GA100)", 2048, 32, 164);
    case 86: return ampere_plus(cc, "Ampere", 1536, 16, 100);
    case 87: return ampere_plus(cc, "Ampere (Orin)", 1536, 16, 164);
    case 88: {
      // nvcc 13 targets sm_88, but no NVIDIA table lists it; CCCL's arch_traits<sm_88> copies sm_86.
      sm_limits l = ampere_plus(cc, "Ampere (sm_88, unverified)", 1536, 16, 100);
      l.verified = false;
      l.source = "not in the Programming Guide; NVIDIA CCCL arch_traits<sm_88> copies sm_86 (unverified)";
      return l;
    }
    case 89: return ampere_plus(cc, "Ada", 1536, 24, 100);
    case 90: {
      sm_limits l = ampere_plus(cc, "Hopper", 2048, 32, 228);
      l.barriers_per_sm = 64;
      return l;
    }
    case 100:
    case 103: {
      sm_limits l = ampere_plus(cc, "Blackwell", 2048, 32, 228);
      l.barriers_per_sm = 64;
      l.virtual_resources_per_sm = 128;
      return l;
    }
    case 101:  // Thor's CC before CUDA 13 renamed it 11.0 (sm_101 -> sm_110); same limits
    case 110: {
      sm_limits l = ampere_plus(cc, "Blackwell (Thor)", 1536, 24, 228);
      l.barriers_per_sm = 24;
      l.virtual_resources_per_sm = 128;
      return l;
    }
    case 120:
    case 121: {
      sm_limits l = ampere_plus(cc, "Blackwell (GeForce/DGX Spark)", 1536, 24, 100);
      l.barriers_per_sm = 24;
      l.virtual_resources_per_sm = 128;
      return l;
    }
    default: detail::unknown_compute_capability(cc.major, cc.minor);
  }
}

// Every compute capability napkin knows, oldest first.
inline constexpr std::array<compute_capability, 21> known_compute_capabilities{{
    {5, 0}, {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2}, {7, 0}, {7, 2}, {7, 5}, {8, 0},
    {8, 6}, {8, 7}, {8, 8}, {8, 9}, {9, 0}, {10, 0}, {10, 1}, {10, 3}, {11, 0}, {12, 0}, {12, 1}}};

// ------------------------------------------------------------------------------------------------
// A kernel's resources and a launch
// ------------------------------------------------------------------------------------------------

// cudaFuncSetCacheConfig's preference; it picks the carveout only while the carveout is the default.
enum class cache_preference { none, prefer_shared, prefer_l1, prefer_equal };

inline constexpr int opt_in_as_needed = -1;  // kernel_resources::max_dynamic_smem: "opted in to whatever it uses"
inline constexpr int carveout_default = -1;  // kernel_resources::carveout_percent: the driver's default

// What a compiled kernel uses (cudaFuncAttributes) and how it is configured. Sizes in bytes.
//   napkin::kernel_resources k{40};        // 40 registers per thread, no static shared memory
//   napkin::kernel_resources k{64, 4096};  // 64 registers, 4 KiB static shared memory
struct kernel_resources {
  int registers_per_thread = 0;
  int static_smem = 0;
  // cudaFuncAttributeMaxDynamicSharedMemorySize; opt_in_as_needed for "whatever the launch asks" (the
  // usual what-if question). A launch asking for more fails, and napkin says so.
  int max_dynamic_smem = opt_in_as_needed;
  // The kernel's own block-size limit (cudaFuncAttributes::maxThreadsPerBlock); 0: the device limit.
  // Negative is an error.
  int max_threads_per_block = 0;
  // cudaFuncAttributePreferredSharedMemoryCarveout, percent of the SM's shared memory; -1: default.
  int carveout_percent = carveout_default;
  cache_preference cache = cache_preference::none;
  // Block barriers per block and "virtual resources" per block, used by cuda_occupancy.h on CC >= 9.0
  // and >= 10.0. The runtime cannot query them; 1 and 0 are what its cudaFuncAttributes conversion uses.
  int block_barriers = 1;
  int virtual_resources = 0;
};

// Why a launch is invalid. Returned by check_launch(); occupancy() turns it into an error.
enum class launch_error {
  none,
  threads_below_1,
  threads_above_device_limit,
  threads_above_kernel_limit,
  registers_out_of_range,
  negative_shared_memory,
  static_shared_memory_above_limit,
  shared_memory_above_opt_in_limit,
  max_dynamic_shared_memory_above_opt_in_limit,
  dynamic_shared_memory_above_kernel_limit,
  carveout_out_of_range,
  negative_resource_count,
  invalid_limits,  // the sm_limits themselves (check_limits() says which field)
};

constexpr const char* describe(launch_error e) {
  switch (e) {
    case launch_error::none: return "valid launch";
    case launch_error::threads_below_1: return "threads per block must be at least 1";
    case launch_error::threads_above_device_limit: return "threads per block above the device limit";
    case launch_error::threads_above_kernel_limit: return "threads per block above the kernel's limit";
    case launch_error::registers_out_of_range: return "registers per thread outside 0..255";
    case launch_error::negative_shared_memory: return "negative shared memory";
    case launch_error::static_shared_memory_above_limit: return "static shared memory above 48 KiB";
    case launch_error::shared_memory_above_opt_in_limit: return "shared memory above the opt-in limit per block";
    case launch_error::max_dynamic_shared_memory_above_opt_in_limit:
      return "the kernel's maximum dynamic shared memory is above the opt-in limit";
    case launch_error::dynamic_shared_memory_above_kernel_limit:
      return "dynamic shared memory above the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize";
    case launch_error::carveout_out_of_range: return "carveout outside -1..100 percent";
    case launch_error::negative_resource_count:
      return "negative kernel thread limit, block barriers or virtual resources";
    case launch_error::invalid_limits: return "invalid sm_limits (check_limits() names the field)";
  }
  return "?";
}

namespace detail {
// check_launch() for limits already checked.
constexpr launch_error launch_error_of(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem) {
  if (threads < 1) return launch_error::threads_below_1;
  if (threads > l.max_threads_per_block) return launch_error::threads_above_device_limit;
  if (k.max_threads_per_block > 0 && threads > k.max_threads_per_block) return launch_error::threads_above_kernel_limit;
  if (k.registers_per_thread < 0 || k.registers_per_thread > l.max_registers_per_thread)
    return launch_error::registers_out_of_range;
  if (k.static_smem < 0 || dynamic_smem < 0) return launch_error::negative_shared_memory;
  if (k.static_smem > l.smem_per_block) return launch_error::static_shared_memory_above_limit;
  if (k.max_dynamic_smem != opt_in_as_needed) {
    if (k.max_dynamic_smem < 0) return launch_error::negative_shared_memory;
    if (k.max_dynamic_smem > l.smem_per_block_optin - k.static_smem)
      return launch_error::max_dynamic_shared_memory_above_opt_in_limit;
    if (dynamic_smem > k.max_dynamic_smem) return launch_error::dynamic_shared_memory_above_kernel_limit;
  }
  if (dynamic_smem > l.smem_per_block_optin - k.static_smem) return launch_error::shared_memory_above_opt_in_limit;
  if (k.carveout_percent < -1 || k.carveout_percent > 100) return launch_error::carveout_out_of_range;
  if (k.max_threads_per_block < 0 || k.block_barriers < 0 || k.virtual_resources < 0)
    return launch_error::negative_resource_count;
  return launch_error::none;
}
// The largest block a launch of this kernel may use: the device's limit, or the kernel's when it is lower.
constexpr int thread_limit(const sm_limits& l, const kernel_resources& k) {
  return k.max_threads_per_block > 0 ? min_of(k.max_threads_per_block, l.max_threads_per_block) : l.max_threads_per_block;
}

// Constexpr, so that in constant evaluation the compiler stops at (and names) the specific check.
constexpr void require_valid(launch_error e, const sm_limits& l, int threads, const kernel_resources& k, int dyn) {
  switch (e) {
    case launch_error::none: return;
    case launch_error::threads_below_1: threads_per_block_must_be_at_least_1(threads);
    case launch_error::threads_above_device_limit: threads_per_block_above_the_device_limit(threads, l.max_threads_per_block);
    case launch_error::threads_above_kernel_limit: threads_per_block_above_the_kernel_limit(threads, k.max_threads_per_block);
    case launch_error::registers_out_of_range: registers_per_thread_out_of_range(k.registers_per_thread, l.max_registers_per_thread);
    case launch_error::negative_shared_memory:
      shared_memory_must_not_be_negative(k.static_smem < 0 ? "static" : dyn < 0 ? "dynamic" : "maximum dynamic",
                                         k.static_smem < 0 ? k.static_smem : dyn < 0 ? dyn : k.max_dynamic_smem);
    case launch_error::static_shared_memory_above_limit: static_shared_memory_above_48_KiB(k.static_smem, l.smem_per_block);
    case launch_error::shared_memory_above_opt_in_limit:
      shared_memory_above_the_opt_in_limit(k.static_smem, dyn, l.smem_per_block_optin);
    case launch_error::max_dynamic_shared_memory_above_opt_in_limit:
      max_dynamic_shared_memory_above_the_opt_in_limit(k.static_smem, k.max_dynamic_smem, l.smem_per_block_optin);
    case launch_error::dynamic_shared_memory_above_kernel_limit:
      dynamic_shared_memory_above_the_kernel_limit(dyn, k.max_dynamic_smem, l.smem_per_block_optin);
    case launch_error::carveout_out_of_range: carveout_percent_out_of_range(k.carveout_percent);
    case launch_error::negative_resource_count:
      if (k.max_threads_per_block < 0)
        resource_count_must_not_be_negative("max_threads_per_block", k.max_threads_per_block);
      resource_count_must_not_be_negative(k.block_barriers < 0 ? "block_barriers" : "virtual_resources",
                                          k.block_barriers < 0 ? k.block_barriers : k.virtual_resources);
    case launch_error::invalid_limits: require_valid_limits(l); return;
  }
}
}  // namespace detail

// Why (if at all) this launch cannot run, the limits included. Never throws.
constexpr launch_error check_launch(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem) {
  if (check_limits(l) != limits_error::none) return launch_error::invalid_limits;
  return detail::launch_error_of(l, threads, k, dynamic_smem);
}

// ------------------------------------------------------------------------------------------------
// Occupancy of a launch
// ------------------------------------------------------------------------------------------------

// The resources that can limit blocks per SM. Same bit values as cudaOccResult::limitingFactors.
enum class limiter : unsigned {
  warps = 1,              // warp slots per SM (the block size)
  registers = 2,          // the register file
  shared_memory = 4,      // the shared-memory carveout
  blocks = 8,             // the maximum resident blocks per SM
  barriers = 16,          // block-barrier slots (CC >= 9.0)
  virtual_resources = 32  // CC >= 10.0
};

constexpr const char* name(limiter l) {
  switch (l) {
    case limiter::warps: return "warps";
    case limiter::registers: return "registers";
    case limiter::shared_memory: return "shared memory";
    case limiter::blocks: return "blocks per SM";
    case limiter::barriers: return "block barriers";
    case limiter::virtual_resources: return "virtual resources";
  }
  return "?";
}

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

// try_occupancy() for limits already checked (the searches below call it many times).
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
  occupancy_result r{};
  r.cc = l.cc;
  r.threads_per_block = threads;
  r.registers_per_thread = k.registers_per_thread;
  r.static_smem = k.static_smem;
  r.dynamic_smem = dynamic_smem;
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
    occupancy_result r{};
    r.error = launch_error::invalid_limits;
    r.cc = l.cc;
    r.threads_per_block = threads;
    r.registers_per_thread = k.registers_per_thread;
    r.static_smem = k.static_smem;
    r.dynamic_smem = dynamic_smem;
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

// ------------------------------------------------------------------------------------------------
// The next step, the best block size, shared memory for N blocks
// ------------------------------------------------------------------------------------------------

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

  for (int regs = k.registers_per_thread - 1; regs >= 0; --regs) {
    kernel_resources fewer = k;
    fewer.registers_per_thread = regs;
    const int warps = detail::occupancy_of(l, threads, fewer, dynamic_smem).active_warps();
    if (warps > now) {
      a.registers = {regs, warps};
      break;
    }
  }

  // Warps fall as shared memory grows, so bisect for the largest total that still beats `now`.
  {
    const auto warps_with_total = [&](int total) {
      kernel_resources smaller = k;
      smaller.static_smem = total < k.static_smem ? total : k.static_smem;
      smaller.max_dynamic_smem = opt_in_as_needed;
      return detail::occupancy_of(l, threads, smaller, total - smaller.static_smem).active_warps();
    };
    const int total_now = k.static_smem + dynamic_smem;
    if (total_now > 0 && warps_with_total(0) > now) {
      int good = 0;
      int bad = total_now;  // warps_with_total(bad) <= now
      while (bad - good > 1) {
        const int mid = good + (bad - good) / 2;
        if (warps_with_total(mid) > now) good = mid; else bad = mid;
      }
      a.shared_memory = {good, warps_with_total(good)};
    }
  }

  if (l.carveout_count > 0 && detail::preferred_carveout(l, k) < l.smem_per_sm) {
    const int from = k.carveout_percent == carveout_default ? 0 : k.carveout_percent + 1;
    for (int percent = from; percent <= 100; ++percent) {
      kernel_resources other = k;
      other.carveout_percent = percent;
      const int warps = detail::occupancy_of(l, threads, other, dynamic_smem).active_warps();
      if (warps > now) {
        a.carveout = {percent, warps};
        break;
      }
    }
  }

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

// The block size that maximizes resident threads per SM, like cudaOccupancyMaxPotentialBlockSize: tries
// the largest size first (the kernel's limit, then down by the warp size) and keeps a smaller one only if
// it is strictly better, so ties go to the larger block.
struct block_size_choice {
  int block_size = 0;
  int blocks_per_sm = 0;
  int active_warps = 0;
  // Blocks for one full wave on `sm_count` SMs (cudaOccupancyMaxPotentialBlockSize's minGridSize). A
  // negative count, or a product above INT_MAX, is an error.
  constexpr int min_grid_size(int sm_count) const {
    if (sm_count < 0) detail::sm_count_must_not_be_negative(sm_count);
    const long long blocks = static_cast<long long>(blocks_per_sm) * sm_count;
    if (blocks > INT_MAX) detail::min_grid_size_overflows_int(blocks_per_sm, sm_count);
    return static_cast<int>(blocks);
  }
};

// `dynamic_smem_of(block_size)` gives the dynamic shared memory (an integer number of bytes) a block of
// that size needs. A size whose launch would be invalid (e.g. too much shared memory, or more bytes than
// an int holds) counts as 0 blocks, as in the runtime. Invalid limits are an error.
template <class DynamicSmemOfBlockSize>
constexpr block_size_choice best_block_size(const sm_limits& l, const kernel_resources& k,
                                            DynamicSmemOfBlockSize dynamic_smem_of) {
  using bytes_type = decltype(dynamic_smem_of(1));
  static_assert(std::is_integral_v<bytes_type>, "dynamic_smem_of(block_size) must return an integer number of bytes");
  detail::require_valid_limits(l);
  block_size_choice best{};
  const int limit = detail::thread_limit(l, k);
  int best_threads = 0;
  for (int aligned = detail::round_up(limit, l.warp_size); aligned > 0; aligned -= l.warp_size) {
    const int size = detail::min_of(limit, aligned);
    const bytes_type bytes = dynamic_smem_of(size);
    bool fits_int = static_cast<unsigned long long>(bytes) <= static_cast<unsigned long long>(INT_MAX);
    if constexpr (std::is_signed_v<bytes_type>) fits_int = bytes >= 0 && fits_int;
    const occupancy_result r = detail::occupancy_of(l, size, k, fits_int ? static_cast<int>(bytes) : -1);
    const int blocks = r.valid() ? r.blocks_per_sm : 0;
    if (size * blocks > best_threads) {
      best = {size, blocks, r.active_warps()};
      best_threads = size * blocks;
    }
    if (best_threads == l.max_threads_per_sm) break;
  }
  return best;
}

constexpr block_size_choice best_block_size(const sm_limits& l, const kernel_resources& k, int dynamic_smem = 0) {
  return best_block_size(l, k, [dynamic_smem](int) { return dynamic_smem; });
}

// The most dynamic shared memory per block that still lets `blocks` blocks of `threads` reside on an SM;
// -1 when even 0 bytes does not. (cuda_occupancy.h's cudaOccAvailableDynamicSMemPerBlock answers 1 KiB too
// much on CC >= 8.0: it leaves out the per-block reserve. This one is checked against its occupancy.)
constexpr int max_dynamic_smem_for(const sm_limits& l, int threads, const kernel_resources& k, int blocks) {
  if (blocks < 1) detail::blocks_per_sm_must_be_at_least_1(blocks);
  (void)occupancy(l, threads, k, 0);  // reject an invalid kernel or block size
  const int cap = k.max_dynamic_smem == opt_in_as_needed ? l.smem_per_block_optin - k.static_smem : k.max_dynamic_smem;
  const auto fits = [&](int dyn) { return detail::occupancy_of(l, threads, k, dyn).blocks_per_sm >= blocks; };
  if (!fits(0)) return -1;
  if (fits(cap)) return cap;
  int good = 0;
  int bad = cap;
  while (bad - good > 1) {
    const int mid = good + (bad - good) / 2;
    if (fits(mid)) good = mid; else bad = mid;
  }
  return good;
}

// ------------------------------------------------------------------------------------------------
// Nsight Compute's three occupancy graphs, as data
// ------------------------------------------------------------------------------------------------

struct graph_point {
  int x = 0;             // block size, registers per thread, or shared memory per block (bytes)
  int active_warps = 0;  // warps per SM at x, everything else unchanged (0: cannot launch)
  int blocks_per_sm = 0;
};

template <std::size_t Capacity>
struct occupancy_graph {
  const char* x_label = "";
  int max_warps_per_sm = 0;
  graph_point current{};  // the launch itself
  std::array<graph_point, Capacity> points{};
  std::size_t size = 0;

  constexpr const graph_point* begin() const { return points.data(); }
  constexpr const graph_point* end() const { return points.data() + size; }
  constexpr void push(graph_point p) { points[size++] = p; }
};

namespace detail {
constexpr graph_point point_of(int x, const occupancy_result& r) {
  return {x, r.valid() ? r.active_warps() : 0, r.valid() ? r.blocks_per_sm : 0};
}
}  // namespace detail

// "Impact of Varying Block Size": warp size, 2x warp size, ... up to the device's (or kernel's) limit.
constexpr occupancy_graph<64> graph_block_size(const sm_limits& l, int threads, const kernel_resources& k,
                                               int dynamic_smem = 0) {
  occupancy_graph<64> g{};
  g.x_label = "threads per block";
  g.current = detail::point_of(threads, occupancy(l, threads, k, dynamic_smem));  // checks the limits first
  g.max_warps_per_sm = l.max_warps_per_sm();
  for (int size = l.warp_size; size <= detail::thread_limit(l, k) && g.size < 64; size += l.warp_size)
    g.push(detail::point_of(size, detail::occupancy_of(l, size, k, dynamic_smem)));
  return g;
}

// "Impact of Varying Register Count Per Thread": 0 .. the architecture's maximum.
constexpr occupancy_graph<256> graph_registers(const sm_limits& l, int threads, const kernel_resources& k,
                                               int dynamic_smem = 0) {
  occupancy_graph<256> g{};
  g.x_label = "registers per thread";
  g.current = detail::point_of(k.registers_per_thread, occupancy(l, threads, k, dynamic_smem));
  g.max_warps_per_sm = l.max_warps_per_sm();
  for (int regs = 0; regs <= l.max_registers_per_thread && g.size < 256; ++regs) {
    kernel_resources other = k;
    other.registers_per_thread = regs;
    g.push(detail::point_of(regs, detail::occupancy_of(l, threads, other, dynamic_smem)));
  }
  return g;
}

// "Impact of Varying Shared Memory Usage Per Block": static + dynamic bytes from 0 to the opt-in limit, at
// every allocation unit (occupancy only changes there), assuming the kernel opts in as needed. When that
// is more than 2048 points (no GPU so far: H100 has 1817), at every k-th unit, k as small as fits.
constexpr occupancy_graph<2048> graph_shared_memory(const sm_limits& l, int threads, const kernel_resources& k,
                                                    int dynamic_smem = 0) {
  occupancy_graph<2048> g{};
  g.x_label = "shared memory per block (bytes)";
  g.current = detail::point_of(k.static_smem + dynamic_smem, occupancy(l, threads, k, dynamic_smem));
  g.max_warps_per_sm = l.max_warps_per_sm();
  kernel_resources other = k;
  other.static_smem = 0;
  other.max_dynamic_smem = opt_in_as_needed;
  const int units = l.smem_per_block_optin / l.smem_allocation_unit + 1;  // points at every unit
  const int step = detail::ceil_div(units, 2048) * l.smem_allocation_unit;
  for (int bytes = 0; bytes <= l.smem_per_block_optin && g.size < 2048; bytes += step)
    g.push(detail::point_of(bytes, detail::occupancy_of(l, threads, other, bytes)));
  return g;
}

// ------------------------------------------------------------------------------------------------
// In words
// ------------------------------------------------------------------------------------------------

namespace detail {
inline std::string percent_text(double fraction) {
  const long tenths = std::lround(fraction * 1000.0);
  return std::to_string(tenths / 10) + (tenths % 10 != 0 ? "." + std::to_string(tenths % 10) : std::string()) + "%";
}
inline std::string warps_text(const sm_limits& l, int warps) {
  return std::to_string(warps) + " warps (" + percent_text(static_cast<double>(warps) / l.max_warps_per_sm()) + ")";
}
}  // namespace detail

// A few sentences a person can act on: the occupancy, what limits it and why, and what would raise it.
inline std::string explain(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem = 0) {
  const occupancy_advice a = next_step(l, threads, k, dynamic_smem);
  const occupancy_result& r = a.now;
  std::string s = "CC " + std::to_string(l.cc.major) + "." + std::to_string(l.cc.minor) + ": " +
                  std::to_string(r.blocks_per_sm) + " block" + (r.blocks_per_sm == 1 ? "" : "s") + " of " +
                  std::to_string(threads) + " threads per SM, " + std::to_string(r.active_warps()) + " of " +
                  std::to_string(r.max_warps_per_sm) + " warps: occupancy " + detail::percent_text(r.occupancy()) +
                  ". Limited by ";
  bool first = true;
  for (limiter lim : all_limiters) {
    if (!r.limiters.contains(lim)) continue;
    s += (first ? "" : " and ") + std::string(name(lim));
    first = false;
  }
  s += ".";
  // Block barriers and virtual resources, as cuda_occupancy.h (CUDA 13.0) models them for CC >= 9.0 / 10.0.
  const auto barriers_text = [&] {
    return std::to_string(k.block_barriers) + " block barrier" + (k.block_barriers == 1 ? "" : "s") + " of the SM's " +
           std::to_string(l.barriers_per_sm) + " barrier slots (as cuda_occupancy.h models CC " +
           std::to_string(l.cc.major) + "." + std::to_string(l.cc.minor) + ")";
  };
  const auto virtual_text = [&] {
    return std::to_string(k.virtual_resources) + " of the SM's " + std::to_string(l.virtual_resources_per_sm) +
           " virtual resources (as cuda_occupancy.h models CC " + std::to_string(l.cc.major) + "." +
           std::to_string(l.cc.minor) + ")";
  };
  if (r.blocks_per_sm == 0) {
    if (r.blocks_by_registers == 0)
      s += " The block cannot launch: " + std::to_string(r.warps_per_block) + " warps x " +
           std::to_string(r.registers_per_warp) + " registers per warp exceed the " +
           std::to_string(l.registers_per_block) + " registers per block (cudaErrorLaunchOutOfResources).";
    if (r.blocks_by_barriers == 0) s += " The block cannot launch: it uses " + barriers_text() + ".";
    if (r.blocks_by_virtual_resources == 0) s += " The block cannot launch: it uses " + virtual_text() + ".";
  } else {
    if (r.limiters.contains(limiter::registers))
      s += " Each warp is allocated " + std::to_string(r.registers_per_warp) + " registers (" +
           std::to_string(k.registers_per_thread) + " per thread x " + std::to_string(l.warp_size) +
           ", rounded up to " + std::to_string(l.register_allocation_unit) + "), so " +
           std::to_string(r.registers_per_warp > 0 ? (l.registers_per_sm / l.register_sub_partitions) / r.registers_per_warp : 0) +
           " warps fit in each of the " + std::to_string(l.register_sub_partitions) + " sub-partitions of " +
           std::to_string(l.registers_per_sm / l.register_sub_partitions) + " registers.";
    if (r.limiters.contains(limiter::shared_memory))
      s += " Each block is allocated " + std::to_string(r.smem_per_block) + " B of shared memory (" +
           std::to_string(k.static_smem) + " static + " + std::to_string(dynamic_smem) + " dynamic + " +
           std::to_string(l.smem_reserved_per_block) + " reserved, in units of " + std::to_string(l.smem_allocation_unit) +
           " B) out of the SM's " + std::to_string(r.smem_per_sm) + " B carveout.";
    if (r.limiters.contains(limiter::warps) && !a.at_maximum())
      s += " " + std::to_string(r.max_warps_per_sm) + " warp slots per SM hold only " +
           std::to_string(r.blocks_by_warps) + " block(s) of " + std::to_string(r.warps_per_block) + " warps.";
    if (r.limiters.contains(limiter::blocks))
      s += " At most " + std::to_string(l.max_blocks_per_sm) + " blocks fit on an SM; larger blocks hold more warps.";
    if (r.limiters.contains(limiter::barriers))
      s += " Each block uses " + barriers_text() + ", so " + std::to_string(r.blocks_by_barriers) + " blocks fit.";
    if (r.limiters.contains(limiter::virtual_resources))
      s += " Each block uses " + virtual_text() + ", so " + std::to_string(r.blocks_by_virtual_resources) +
           " blocks fit.";
  }
  if (a.at_maximum()) return s + " Occupancy is at its maximum.";
  std::string steps;
  const auto add = [&steps, &l](const occupancy_step& st, const std::string& what) {
    if (!st.possible()) return;
    steps += (steps.empty() ? " To raise it: " : "; ") + what + " -> " + detail::warps_text(l, st.active_warps);
  };
  add(a.registers, "use at most " + std::to_string(a.registers.value) + " registers per thread (-maxrregcount=" +
                       std::to_string(a.registers.value) + " or __launch_bounds__)");
  if (a.shared_memory.possible())
    add(a.shared_memory, "use at most " + std::to_string(a.shared_memory.value) + " B of shared memory per block (" +
                             std::to_string(k.static_smem + dynamic_smem - a.shared_memory.value) + " B less)");
  add(a.carveout, "set cudaFuncAttributePreferredSharedMemoryCarveout to at least " +
                      std::to_string(a.carveout.value) + "%");
  add(a.block_size, "use blocks of " + std::to_string(a.block_size.value) + " threads");
  return s + (steps.empty() ? " No single change of registers, shared memory, carveout or block size raises it."
                            : steps + ".");
}

NAPKIN_END_NAMESPACE
