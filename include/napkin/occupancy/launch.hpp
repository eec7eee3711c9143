// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/launch.hpp — a kernel's resources (kernel_resources), and whether a launch of it can run
// at all (validate_launch, launch_error): the checks every occupancy function makes before computing.
#pragma once

#include "napkin/occupancy/limits.hpp"

#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

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

// Why a launch is invalid. Returned by validate_launch(); occupancy() turns it into an error.
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

namespace detail {
// A launch_error: the enumerator's name, and what is wrong in words.
constexpr occupancy_enum_text text_of(launch_error e) noexcept {
  using E = launch_error;
  switch (e) {
    case E::none: return {"none", "valid launch"};
    case E::threads_below_1: return {"threads_below_1", "threads per block must be at least 1"};
    case E::threads_above_device_limit:
      return {"threads_above_device_limit", "threads per block above the device limit"};
    case E::threads_above_kernel_limit:
      return {"threads_above_kernel_limit", "threads per block above the kernel's limit"};
    case E::registers_out_of_range: return {"registers_out_of_range", "registers per thread outside 0..255"};
    case E::negative_shared_memory: return {"negative_shared_memory", "negative shared memory"};
    case E::static_shared_memory_above_limit:
      return {"static_shared_memory_above_limit", "static shared memory above 48 KiB"};
    case E::shared_memory_above_opt_in_limit:
      return {"shared_memory_above_opt_in_limit", "shared memory above the opt-in limit per block"};
    case E::max_dynamic_shared_memory_above_opt_in_limit:
      return {"max_dynamic_shared_memory_above_opt_in_limit",
              "the kernel's maximum dynamic shared memory is above the opt-in limit"};
    case E::dynamic_shared_memory_above_kernel_limit:
      return {"dynamic_shared_memory_above_kernel_limit",
              "dynamic shared memory above the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize"};
    case E::carveout_out_of_range: return {"carveout_out_of_range", "carveout outside -1..100 percent"};
    case E::negative_resource_count:
      return {"negative_resource_count", "negative kernel thread limit, block barriers or virtual resources"};
    case E::invalid_limits: return {"invalid_limits", "invalid sm_limits (check_limits() names the field)"};
  }
  return {"unknown", "unknown"};
}
}  // namespace detail

constexpr std::string_view to_string(launch_error e) noexcept { return detail::text_of(e).name; }
constexpr std::string_view describe(launch_error e) noexcept { return detail::text_of(e).words; }

namespace detail {
// The failures of a launch, one per check (compute_capability.hpp says how they fail).
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

// validate_launch() for limits already checked.
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
constexpr launch_error validate_launch(const sm_limits& l, int threads, const kernel_resources& k, int dynamic_smem) {
  if (check_limits(l) != limits_error::none) return launch_error::invalid_limits;
  return detail::launch_error_of(l, threads, k, dynamic_smem);
}

NAPKIN_END_NAMESPACE
