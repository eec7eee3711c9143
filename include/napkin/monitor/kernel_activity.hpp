// SPDX-License-Identifier: Apache-2.0
// The napkin::range phase that launched each kernel (the kernels themselves: cupti/activity.hpp's
// process-wide collector of CUPTI's activity records).
//
// The phase comes from CUPTI's external correlation: while a napkin::range is open, napkin pushes an id for its
// path ("decode/attention") with cuptiActivityPushExternalCorrelationId, and CUPTI emits one
// EXTERNAL_CORRELATION record per launch with the innermost id — no CUPTI callback subscriber, so napkin::profiler keeps its own (CUPTI allows one).
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "napkin/cupti/activity.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/nvtx/listener.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// Gives each napkin::range path an id and pushes it as CUPTI's external correlation while the range is open.
// Paths are interned: id -> path ("decode/attention"), at most max_phases of them (later ones share id 1,
// "(other phases)"), so memory stays bounded whatever the names.
class phase_tracker final : public range_listener {
 public:
  static constexpr std::size_t max_phases = 4096;

  static phase_tracker& instance() {
    static phase_tracker t;  // static storage, as range listeners must have
    return t;
  }

  bool on_push(const char* /*domain*/, std::string_view name) noexcept override {
    std::uint64_t id = 1;
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      id = intern(stack().empty() ? 0 : stack().back(), name);
      stack().push_back(id);
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      return false;  // out of memory: this range is not attributed
    }
#endif
    // The path with this opening's number: the system view projects each opening on its own.
    const std::uint64_t instance = next_instance_.fetch_add(1, std::memory_order_relaxed) + 1;
    (void)cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                                                 phase_external_id(id, instance));
    return true;
  }
  void on_pop() noexcept override {
    std::uint64_t id = 0;
    (void)cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id);
    if (!stack().empty()) stack().pop_back();
  }

  // Every phase path by id ("decode/attention"; id 0: ""), for the system view's report.
  std::vector<std::string> path_names() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> names(paths_.size());
    for (std::size_t id = 1; id < paths_.size(); ++id)
      for (const std::string& part : paths_[id]) names[id] += (names[id].empty() ? "" : "/") + part;
    return names;
  }

  // The path of a phase id (or of an external id: phase_external_id), outermost first; empty for 0 (no phase).
  // Once per kernel on the monitor's thread: a copy of the path kept when the phase was interned.
  std::vector<std::string> path(std::uint64_t id) const {
    id = phase_path_of(id);
    const std::lock_guard<std::mutex> lock(mutex_);
    return id < paths_.size() ? paths_[id] : std::vector<std::string>();
  }

 private:
  // Not `paths_{{}, {"(other phases)"}}`: nvcc's front end reads that as one path of both (found by
  // system_gpu_scenarios: every phase came out under "(other phases)/").
  phase_tracker() : paths_(2) { paths_[1].emplace_back("(other phases)"); }  // 0: no phase, 1: the rest
  static std::vector<std::uint64_t>& stack() {
    thread_local std::vector<std::uint64_t> s;
    return s;
  }
  std::uint64_t intern(std::uint64_t parent, std::string_view name) {
    std::string key = std::to_string(parent) + '/';
    key.append(name.data(), name.size());
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = ids_.find(key); it != ids_.end()) return it->second;
    if (paths_.size() > max_phases) return 1;
    const std::uint64_t id = paths_.size();
    std::vector<std::string> path = parent < paths_.size() ? paths_[parent] : std::vector<std::string>();
    path.emplace_back(name);
    paths_.push_back(std::move(path));
    ids_.emplace(std::move(key), id);
    return id;
  }

  std::atomic<std::uint64_t> next_instance_{0};
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::uint64_t> ids_;  // "parent/name" -> id
  std::vector<std::vector<std::string>> paths_;         // id -> path, outermost first (0: none, 1: the rest)
};

// The attribution's kernel record of an activity record, with its phase path.
inline kernel_record to_kernel_record(kernel_activity&& k) {
  kernel_record r;
  r.name = std::move(k.name);
  r.start_ns = k.start_ns;
  r.end_ns = k.end_ns;
  r.device = static_cast<int>(k.device);
  r.stream_id = k.stream;
  r.correlation_id = k.correlation;
  r.phase = phase_tracker::instance().path(k.phase_id);
  r.blocks = k.blocks;
  r.warps = k.blocks * ((k.launch.threads_per_block() + 31) / 32);
  return r;
}

// The system view's record of a kernel (a copy of its name: the attribution takes the record's own).
inline gpu_work to_gpu_work(const kernel_activity& k) {
  gpu_work w;
  w.kind = gpu_work_kind::kernel;
  w.start_ns = k.start_ns;
  w.end_ns = k.end_ns;
  w.device = k.device;
  w.stream = k.stream;
  w.correlation = k.correlation;
  w.graph = k.graph;
  w.phase = phase_path_of(k.phase_id);
  w.instance = phase_instance_of(k.phase_id);
  w.name = k.name;
  return w;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
