// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/best_block_size.hpp — the block size that maximizes resident threads per SM (like
// cudaOccupancyMaxPotentialBlockSize), and the most dynamic shared memory that still fits N blocks.
#pragma once

#include "napkin/occupancy/calculator.hpp"

#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

NAPKIN_BEGIN_NAMESPACE

namespace detail {
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
}  // namespace detail

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

namespace detail {
// One block size's resident blocks (0 for a launch that would be invalid) and warps.
template <class DynamicSmemOfBlockSize>
constexpr block_size_choice block_size_at(const sm_limits& l, const kernel_resources& k, int size,
                                          DynamicSmemOfBlockSize dynamic_smem_of) {
  using bytes_type = decltype(dynamic_smem_of(1));
  const bytes_type bytes = dynamic_smem_of(size);
  bool fits_int = static_cast<unsigned long long>(bytes) <= static_cast<unsigned long long>(INT_MAX);
  if constexpr (std::is_signed_v<bytes_type>) fits_int = bytes >= 0 && fits_int;
  const occupancy_result r = occupancy_of(l, size, k, fits_int ? static_cast<int>(bytes) : -1);
  const int blocks = r.valid() ? r.blocks_per_sm : 0;
  return {size, blocks, r.active_warps()};
}
}  // namespace detail

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
    const block_size_choice here = detail::block_size_at(l, k, size, dynamic_smem_of);
    if (size * here.blocks_per_sm > best_threads) {
      best = here;
      best_threads = size * here.blocks_per_sm;
    }
    if (best_threads == l.max_threads_per_sm) break;
  }
  return best;
}

// The smallest block size that keeps as many threads resident as best_block_size's choice (which, like the
// runtime's, takes the largest of equals): 1024 threads and 256 threads both fill an H100 SM with 64 warps
// for a light kernel, so the runtime's answer is no advice to use 1024. Equal to best_block_size's choice
// when no smaller block does as well; block_size 0 when no size fits.
template <class DynamicSmemOfBlockSize>
constexpr block_size_choice smallest_best_block_size(const sm_limits& l, const kernel_resources& k,
                                                     DynamicSmemOfBlockSize dynamic_smem_of) {
  const block_size_choice best = best_block_size(l, k, dynamic_smem_of);
  for (int aligned = l.warp_size; aligned < best.block_size; aligned += l.warp_size) {
    const block_size_choice here = detail::block_size_at(l, k, aligned, dynamic_smem_of);
    if (aligned * here.blocks_per_sm == best.block_size * best.blocks_per_sm) return here;
  }
  return best;
}

constexpr block_size_choice smallest_best_block_size(const sm_limits& l, const kernel_resources& k,
                                                     int dynamic_smem = 0) {
  return smallest_best_block_size(l, k, [dynamic_smem](int) { return dynamic_smem; });
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
  return detail::last_that_holds(0, cap, fits);
}

NAPKIN_END_NAMESPACE
