// SPDX-License-Identifier: Apache-2.0
// napkin/system/copy_index.hpp — a chunk's GPU copies by correlation id, so that the system view can give a
// synchronous copy call (cudaMemcpy) its direction and bytes: the call and its copy share CUPTI's
// correlation id. Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

struct system_copy_match {
  std::uint32_t correlation = 0;
  copy_direction direction = copy_direction::other;
  std::uint64_t bytes = 0;
};

// Gathered for every chunk, sorted only when a call looks one up (most programs make no synchronous copies).
class system_copy_index {
 public:
  void clear() noexcept {
    copies_.clear();
    sorted_ = true;
  }
  void add(std::uint32_t correlation, copy_direction direction, std::uint64_t bytes) {
    if (!copies_.empty() && correlation < copies_.back().correlation) sorted_ = false;
    copies_.push_back({correlation, direction, bytes});
  }
  const system_copy_match* find(std::uint32_t correlation) {
    if (!sorted_) {
      std::stable_sort(copies_.begin(), copies_.end(), by_correlation);
      sorted_ = true;
    }
    const auto it = std::lower_bound(copies_.begin(), copies_.end(), system_copy_match{correlation}, by_correlation);
    return it != copies_.end() && it->correlation == correlation ? &*it : nullptr;
  }

 private:
  static bool by_correlation(const system_copy_match& a, const system_copy_match& b) noexcept {
    return a.correlation < b.correlation;
  }
  std::vector<system_copy_match> copies_;
  bool sorted_ = true;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
