// SPDX-License-Identifier: Apache-2.0
// Kernel start/end times from CUPTI's Activity API, and the napkin::range phase that launched each kernel.
//
// Why these mechanisms: CONCURRENT_KERNEL records do not serialize kernels (unlike the KERNEL kind) and carry
// start/end in CUPTI's timestamp clock, the clock of the PM samples. The phase comes from CUPTI's external
// correlation: while a napkin::range is open, napkin pushes an id for its path ("decode/attention") with
// cuptiActivityPushExternalCorrelationId, and CUPTI emits one EXTERNAL_CORRELATION record per launch with the
// innermost id — no CUPTI callback subscriber, so napkin::profiler keeps its own (CUPTI allows one).
//
// CUPTI's activity buffers are process-wide (one pair of callbacks per process), hence the one process-wide
// collector below: created by the first monitor, shared by every monitor of the process (one per device),
// guarded by its mutex. It is the only global state of the monitor; CUPTI forces it.
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "napkin/monitor/sample.hpp"
#include "napkin/nvtx/listener.hpp"
#include "napkin/profiler/errors.hpp"
#include "napkin/profiler/kernel_names.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// One kernel as the Activity API saw it (times in CUPTI's timestamp clock, ns).
struct kernel_activity {
  std::string name;  // demangled
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0, stream = 0, correlation = 0;
  std::uint64_t phase_id = 0;  // 0: launched outside any napkin::range
};

class activity_collector {
 public:
  // The process's collector; `users` counts the monitors holding it (activity stays enabled while > 0).
  static activity_collector& instance() {
    static activity_collector c;  // never destroyed before the last monitor: monitors hold() it
    return c;
  }

  void hold() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (users_++ > 0) return;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityRegisterCallbacks(&on_buffer_requested, &on_buffer_completed));
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
    // CUPTI emits an external-correlation record for an API call only when that API's records are on.
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
  }
  void release() noexcept {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (users_ == 0 || --users_ > 0) return;
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME);
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER);
    }
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const std::lock_guard<std::mutex> lock(mutex_);
    kernels_.clear();
    phase_of_.clear();
  }

  // Hands CUPTI's filled buffers to the collector (CUPTI calls on_buffer_completed from this thread or its own).
  static void flush() noexcept { (void)cuptiActivityFlushAll(0); }

  // Takes the kernels of `device` recorded so far, each with its phase id where its launch had one.
  std::vector<kernel_activity> take(std::uint32_t device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<kernel_activity> out;
    std::deque<kernel_activity> keep;
    for (auto& k : kernels_) {
      if (k.device != device) {
        keep.push_back(std::move(k));
        continue;
      }
      if (const auto it = phase_of_.find(k.correlation); it != phase_of_.end()) {
        k.phase_id = it->second;
        phase_of_.erase(it);
      }
      out.push_back(std::move(k));
    }
    kernels_.swap(keep);
    return out;
  }

  // External-correlation records seen (launches inside a napkin::range), for diagnostics.
  std::size_t external_records() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return external_records_;
  }

  // Kernels dropped because the bounded queue was full (a monitor that does not take() fast enough).
  std::size_t dropped() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return dropped_;
  }

  static constexpr std::size_t max_queued_kernels = 1u << 20;
  static constexpr std::size_t buffer_bytes = 1u << 20;

 private:
  activity_collector() = default;

  static void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *size = buffer_bytes;
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
    *max_records = 0;  // as many as fit
  }

  static void CUPTIAPI on_buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                                           std::size_t valid) {
    instance().consume(buffer, valid);
    std::free(buffer);
  }

  void consume(std::uint8_t* buffer, std::size_t valid) noexcept {
    if (buffer == nullptr) return;
    CUpti_Activity* record = nullptr;
    const std::lock_guard<std::mutex> lock(mutex_);
#if NAPKIN_HAS_EXCEPTIONS
    try {  // out of memory while recording: the rest of this buffer is lost, the program goes on
#endif
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        if (kernels_.size() >= max_queued_kernels) {
          ++dropped_;
          continue;
        }
        kernel_activity a;
        a.name = name_of(k->name);
        a.start_ns = k->start;
        a.end_ns = k->end;
        a.device = k->deviceId;
        a.stream = k->streamId;
        a.correlation = k->correlationId;
        kernels_.push_back(std::move(a));
      } else if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
        const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
        ++external_records_;
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 && phase_of_.size() < max_queued_kernels)
          phase_of_[e->correlationId] = e->externalId;
      }
    }
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      ++dropped_;
    }
#endif
  }

  // Demangling costs microseconds per call and a workload launches the same kernels again and again.
  const std::string& name_of(const char* mangled) {
    static const std::string unnamed = "(unnamed kernel)";
    if (mangled == nullptr) return unnamed;
    auto it = names_.find(mangled);
    if (it == names_.end()) {
      if (names_.size() > 65536) names_.clear();  // bounded: a program generating kernels forever
      it = names_.emplace(mangled, readable_kernel_name(mangled)).first;
    }
    return it->second;
  }

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> names_;  // mangled -> readable
  std::size_t external_records_ = 0;
  std::size_t users_ = 0;
  std::size_t dropped_ = 0;
  std::deque<kernel_activity> kernels_;
  std::unordered_map<std::uint32_t, std::uint64_t> phase_of_;  // correlation id -> phase id
};

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
    (void)cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id);
    return true;
  }
  void on_pop() noexcept override {
    std::uint64_t id = 0;
    (void)cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id);
    if (!stack().empty()) stack().pop_back();
  }

  // The path of a phase id, outermost first; empty for 0 (no phase).
  std::vector<std::string> path(std::uint64_t id) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    while (id != 0) {
      const auto it = phases_.find(id);
      if (it == phases_.end()) break;
      out.insert(out.begin(), it->second.second);
      id = it->second.first;
    }
    return out;
  }

 private:
  phase_tracker() { phases_[1] = {0, "(other phases)"}; }
  static std::vector<std::uint64_t>& stack() {
    thread_local std::vector<std::uint64_t> s;
    return s;
  }
  std::uint64_t intern(std::uint64_t parent, std::string_view name) {
    std::string key = std::to_string(parent) + '/';
    key.append(name.data(), name.size());
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = ids_.find(key); it != ids_.end()) return it->second;
    if (phases_.size() >= max_phases) return 1;
    const std::uint64_t id = phases_.size() + 1;
    phases_[id] = {parent, std::string(name)};
    ids_.emplace(std::move(key), id);
    return id;
  }

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::uint64_t> ids_;                               // "parent/name" -> id
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::string>> phases_;  // id -> (parent, name)
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
  return r;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
