// SPDX-License-Identifier: Apache-2.0
// napkin/system/kernel_table.hpp — the system view's kernels by name (Nsight Systems' gpukernsum): launches,
// GPU time and the phase with most of it, for at most a capped number of rows: names beyond the cap, and
// at report time the smallest names, fold into "(other kernels)". Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "napkin/system/communication.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

inline constexpr const char* other_kernels_name = "(other kernels)";

// A phase id's name: 0 is "" (outside every range), names[id] when there is one, else "(phase N)".
inline std::string system_phase_name(const std::vector<std::string>& names, std::uint32_t id) {
  if (id == 0) return "";
  if (id < names.size()) return names[id];
  return "(phase " + std::to_string(id) + ")";
}

class kernel_table {
 public:
  explicit kernel_table(std::size_t max_names) : max_names_(max_names) {}

  // A name's row id, given once per name (the view keeps ids, not strings, in its records): other_id beyond
  // the cap. communication: is_communication_kernel(name), worked out once per name.
  struct name_id {
    std::uint32_t id = other_id;
    bool communication = false;
  };
  static constexpr std::uint32_t other_id = 0xffffffffu;
  name_id intern(const std::string& name) {
    if (const auto it = ids_.find(name); it != ids_.end()) return {it->second, rows_[it->second].communication};
    const bool communication = is_communication_kernel(name);
    if (rows_.size() >= max_names_) return {other_id, communication};
    const auto id = static_cast<std::uint32_t>(rows_.size());
    rows_.push_back({name, communication, {}});
    ids_.emplace(name, id);
    return {id, communication};
  }

  void add(std::uint32_t id, std::uint32_t phase, std::uint64_t ns) {
    sums& k = id < rows_.size() ? rows_[id].sums_ : other_;
    ++k.count;
    k.gpu_ns += ns;
    k.ns_by_phase[phase] += ns;
  }

  // The rows by GPU time, largest first (ties by name), at most max_names.
  std::vector<kernel_time_share> rows(const std::vector<std::string>& phase_names) const {
    std::vector<std::pair<std::string, sums>> rows;
    for (const named_sums& r : rows_)
      if (r.sums_.count > 0) rows.emplace_back(r.name, r.sums_);
    auto by_time = [](const auto& a, const auto& b) {
      return a.second.gpu_ns != b.second.gpu_ns ? a.second.gpu_ns > b.second.gpu_ns : a.first < b.first;
    };
    std::sort(rows.begin(), rows.end(), by_time);
    if (other_.count > 0) {
      sums other = other_;
      while (!rows.empty() && rows.size() + 1 > max_names_) {
        other.count += rows.back().second.count;
        other.gpu_ns += rows.back().second.gpu_ns;
        for (const auto& [id, ns] : rows.back().second.ns_by_phase) other.ns_by_phase[id] += ns;
        rows.pop_back();
      }
      rows.emplace_back(other_kernels_name, std::move(other));
      std::stable_sort(rows.begin(), rows.end(), by_time);
    }
    std::uint64_t total = 0;
    for (const auto& row : rows) total += row.second.gpu_ns;
    std::vector<kernel_time_share> out;
    out.reserve(rows.size());
    for (const auto& [name, k] : rows) {
      kernel_time_share t;
      t.name = name;
      t.count = k.count;
      t.gpu_ns = k.gpu_ns;
      t.share = total ? static_cast<double>(k.gpu_ns) / static_cast<double>(total) : 0.0;
      std::uint32_t top = 0;
      std::uint64_t top_ns = 0;
      for (const auto& [id, ns] : k.ns_by_phase)
        if (ns > top_ns) top = id, top_ns = ns;
      t.top_phase = system_phase_name(phase_names, top);
      out.push_back(std::move(t));
    }
    return out;
  }

 private:
  struct sums {
    std::uint64_t count = 0, gpu_ns = 0;
    std::map<std::uint32_t, std::uint64_t> ns_by_phase;
  };
  struct named_sums {
    std::string name;
    bool communication = false;
    sums sums_;
  };
  std::size_t max_names_;
  std::vector<named_sums> rows_;                                 // by id: first interned first
  std::unordered_map<std::string, std::uint32_t> ids_;     // name -> id, at most max_names_
  sums other_;
};

NAPKIN_END_NAMESPACE
