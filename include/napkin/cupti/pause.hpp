// SPDX-License-Identifier: Apache-2.0
// How napkin::profiler and napkin::monitor share the GPU's counters: while PM sampling runs on a device, the
// range profiler cannot start (CUPTI answers HARDWARE_BUSY), so every profiler measurement pauses the running
// monitors and resumes them after. A monitor registers itself here while it samples. Plain C++; no CUPTI.
//
// Process-wide by necessity (a profiler and a monitor made in different places must find each other); the
// slots are atomics and registration is under a mutex, so any thread may measure or monitor.
#pragma once

#include "napkin/config.hpp"

#include <atomic>
#include <mutex>

NAPKIN_BEGIN_PROCESS_STATE
// A running monitor, as the profiler sees it. Both calls are made with the registry's mutex held.
class pausable_sampler {
 public:
  virtual void pause_for_profiler() noexcept = 0;
  virtual void resume_after_profiler() noexcept = 0;

 protected:
  pausable_sampler() = default;
  ~pausable_sampler() = default;
  pausable_sampler(const pausable_sampler&) = default;
  pausable_sampler& operator=(const pausable_sampler&) = default;
};
inline constexpr unsigned max_running_monitors = 16;  // one per device is the most CUPTI allows
inline std::atomic<pausable_sampler*> running_monitors[max_running_monitors] = {};
inline std::recursive_mutex running_monitors_mutex;
inline unsigned profiler_pauses = 0;  // nesting depth of pause_monitors (guarded by the mutex)
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// A monitor registers while it samples; returns false when every slot is taken.
inline bool register_monitor(process_state::pausable_sampler* m) noexcept {
  const std::lock_guard<std::recursive_mutex> lock(process_state::running_monitors_mutex);
  for (auto& slot : process_state::running_monitors) {
    process_state::pausable_sampler* expected = nullptr;
    if (slot.compare_exchange_strong(expected, m)) {
      if (process_state::profiler_pauses > 0) m->pause_for_profiler();  // a measurement is under way
      return true;
    }
  }
  return false;
}
inline void unregister_monitor(process_state::pausable_sampler* m) noexcept {
  const std::lock_guard<std::recursive_mutex> lock(process_state::running_monitors_mutex);
  for (auto& slot : process_state::running_monitors) {
    process_state::pausable_sampler* expected = m;
    slot.compare_exchange_strong(expected, nullptr);
  }
}

// Whether a napkin::profiler measurement pauses monitors now. Hold the registry's mutex across this and
// register_monitor() to start a monitor paused without a measurement slipping in between.
inline bool measurement_under_way() noexcept {
  const std::lock_guard<std::recursive_mutex> lock(process_state::running_monitors_mutex);
  return process_state::profiler_pauses > 0;
}

// Whether any monitor samples in this process (the profiler then gives its CUPTI session back after each
// measurement: CUPTI does not let PM sampling start while the range profiler is enabled).
inline bool any_monitor_registered() noexcept {
  for (auto& slot : process_state::running_monitors)
    if (slot.load() != nullptr) return true;
  return false;
}

// Pauses every running monitor for the guard's lifetime (nested guards pause once).
class monitors_paused {
 public:
  monitors_paused() noexcept {
    const std::lock_guard<std::recursive_mutex> lock(process_state::running_monitors_mutex);
    if (process_state::profiler_pauses++ > 0) return;
    for (auto& slot : process_state::running_monitors)
      if (auto* m = slot.load()) m->pause_for_profiler();
  }
  ~monitors_paused() {
    const std::lock_guard<std::recursive_mutex> lock(process_state::running_monitors_mutex);
    if (--process_state::profiler_pauses > 0) return;
    for (auto& slot : process_state::running_monitors)
      if (auto* m = slot.load()) m->resume_after_profiler();
  }
  monitors_paused(const monitors_paused&) = delete;
  monitors_paused& operator=(const monitors_paused&) = delete;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
