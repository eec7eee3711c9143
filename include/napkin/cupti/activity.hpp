// SPDX-License-Identifier: Apache-2.0
// CUPTI's Activity API, the process's one collector of its records: kernels (with names and correlation ids)
// for the phase monitor, and GPU-busy intervals (kernels, memcpy, memset) for measure(), which reports the
// time the GPU worked inside its range apart from the range's span (profiler/session.hpp).
//
// Why these mechanisms: CONCURRENT_KERNEL records do not serialize kernels (unlike the KERNEL kind) and carry
// start/end in CUPTI's timestamp clock, the clock of PM samples and of cuptiGetTimestamp. CUPTI's activity
// buffers are process-wide (one pair of callbacks per process), hence one process-wide collector, guarded by
// its mutex: global state that CUPTI forces. Each user holds what it needs: the monitor kernels and phases
// (hold()), a measurement busy intervals (hold_intervals()) and, per kernel, how it was launched
// (hold_launches(): grid, block, registers, shared memory; launch_of()); a kind stays enabled while anyone
// holds it.
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/cupti/kernel_names.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// One kernel as the Activity API saw it (times in CUPTI's timestamp clock, ns).
struct kernel_activity {
  std::string name;  // demangled
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0, stream = 0, correlation = 0;
  std::uint64_t phase_id = 0;  // 0: launched outside any napkin::range
  std::uint64_t blocks = 0;    // thread blocks in the grid
  kernel_launch launch;        // how it was launched (launch_of(); the device's facts left empty)
};

// How a kernel record says its kernel was launched. The record's device facts (compute capability, SM
// count) are not in it: the caller that knows the device adds them. Negative sizes in a record read as 0
// dimensions (a launch the occupancy section then refuses), never as huge unsigned numbers.
inline kernel_launch launch_of(const CUpti_ActivityKernel10& k) noexcept {
  const auto dim = [](std::int32_t v) { return v > 0 ? static_cast<std::uint32_t>(v) : 0u; };
  kernel_launch l;
  l.grid = {dim(k.gridX), dim(k.gridY), dim(k.gridZ)};
  l.block = {dim(k.blockX), dim(k.blockY), dim(k.blockZ)};
  l.registers_per_thread = k.registersPerThread;
  l.static_smem_bytes = k.staticSharedMemory;
  l.dynamic_smem_bytes = k.dynamicSharedMemory;
  if (k.sharedMemoryExecuted > 0 && k.sharedMemoryExecuted <= 0x7fffffffu)
    l.smem_config_bytes = static_cast<int>(k.sharedMemoryExecuted);
  if (k.isSharedMemoryCarveoutRequested != 0) l.carveout_requested_pct = k.sharedMemoryCarveoutRequested;
  switch (k.cacheConfig.config.requested) {  // a CUfunc_cache value
    case CU_FUNC_CACHE_PREFER_SHARED: l.cache_requested = cache_preference::prefer_shared; break;
    case CU_FUNC_CACHE_PREFER_L1: l.cache_requested = cache_preference::prefer_l1; break;
    case CU_FUNC_CACHE_PREFER_EQUAL: l.cache_requested = cache_preference::prefer_equal; break;
    default: l.cache_requested = cache_preference::none; break;
  }
  l.dynamic_smem_opted_in = k.shmemLimitConfig == CUPTI_FUNC_SHMEM_LIMIT_OPTIN;
  l.local_memory_per_thread_bytes = k.localMemoryPerThread;
  if (k.clusterX > 0 && k.clusterY > 0 && k.clusterZ > 0) l.cluster = launch_dims{k.clusterX, k.clusterY, k.clusterZ};
  return l;
}

// A stretch of GPU work (a kernel, a memcpy or a memset) on a device, in CUPTI's timestamp clock (ns).
struct busy_interval {
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t device = 0;
  bool kernel = true;  // false: a memcpy or memset
};

// The time covered by at least one of `intervals` that starts in [from, to) (ns), overlaps counted once.
inline std::uint64_t busy_ns_between(std::vector<busy_interval> intervals, std::uint64_t from, std::uint64_t to) {
  intervals.erase(std::remove_if(intervals.begin(), intervals.end(),
                                 [&](const busy_interval& b) { return b.start_ns < from || b.start_ns >= to ||
                                                                      b.end_ns < b.start_ns; }),
                  intervals.end());
  std::sort(intervals.begin(), intervals.end(),
            [](const busy_interval& a, const busy_interval& b) { return a.start_ns < b.start_ns; });
  std::uint64_t busy = 0, covered_to = 0;
  for (const busy_interval& b : intervals) {
    const std::uint64_t start = std::max(b.start_ns, covered_to);
    if (b.end_ns > start) busy += b.end_ns - start;
    covered_to = std::max(covered_to, b.end_ns);
  }
  return busy;
}

class activity_collector {
 public:
  // The process's collector. Never destroyed before its last user: users hold() it.
  static activity_collector& instance() {
    static activity_collector c;
    return c;
  }

  // The monitor's hold: kernels with names and the phases that launched them (released by release()).
  void hold() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (monitor_users_ > 0) {
      ++monitor_users_;
      return;
    }
    enable_kernels();
    monitor_users_ = 1;  // counted once enabled: a refusal above leaves nothing held
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
    // CUPTI emits an external-correlation record for an API call only when that API's records are on.
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
  }
  void release() noexcept {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (monitor_users_ == 0 || --monitor_users_ > 0) return;
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME);
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER);
      disable_kernels();
    }
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const std::lock_guard<std::mutex> lock(mutex_);
    kernels_.clear();
    phase_of_.clear();
  }

  // A measurement's hold: GPU-busy intervals (kernels, memcpy, memset) of every device, kept until taken
  // (release_intervals() drops the rest). No runtime or driver records: they would cost every API call.
  // False, with nothing held, when CUPTI refuses (another activity client, an old driver): the measurement
  // then reports over its range's span and says why, rather than failing.
  bool hold_intervals() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (interval_users_ > 0) {
      ++interval_users_;
      return true;
    }
    if (!try_enable_kernels()) return false;
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS) {
      (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
      disable_kernels();
      return false;
    }
    interval_users_ = 1;
    return true;
  }
  void release_intervals() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (interval_users_ == 0 || --interval_users_ > 0) return;
    (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET);
    disable_kernels();
    intervals_.clear();
  }

  // A measurement's hold on launches: every kernel of every device with its launch (launch_of()), kept until
  // taken (release_launches() drops the rest). False, with nothing held, when CUPTI refuses: the reports then
  // carry no launch.
  bool hold_launches() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (launch_users_ > 0) {
      ++launch_users_;
      return true;
    }
    if (!try_enable_kernels()) return false;
    launch_users_ = 1;
    return true;
  }
  void release_launches() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (launch_users_ == 0 || --launch_users_ > 0) return;
    disable_kernels();
    launches_.clear();
  }
  // Takes the kernels of `device` recorded so far for hold_launches(), in the order CUPTI delivered them.
  std::vector<kernel_activity> take_launches(std::uint32_t device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<kernel_activity> out;
    std::deque<kernel_activity> keep;
    for (auto& k : launches_) {
      if (k.device == device)
        out.push_back(std::move(k));
      else
        keep.push_back(std::move(k));
    }
    launches_.swap(keep);
    return out;
  }

  // Takes the busy intervals of `device` recorded so far (call flush() first for the latest).
  std::vector<busy_interval> take_intervals(std::uint32_t device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<busy_interval> out;
    std::deque<busy_interval> keep;
    for (const busy_interval& b : intervals_) (b.device == device ? out.push_back(b) : keep.push_back(b));
    intervals_.swap(keep);
    return out;
  }

  // Hands CUPTI's filled buffers to the collector (CUPTI calls on_buffer_completed from this thread or its own).
  static void flush() noexcept { (void)cuptiActivityFlushAll(0); }
  // Forced: also the buffers CUPTI is still filling (a measurement's last records).
  static void flush_forced() noexcept { (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

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

  // Under mutex_: the callbacks once per process, CONCURRENT_KERNEL while any user holds it.
  void enable_kernels() {
    if (!registered_) {
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityRegisterCallbacks(&on_buffer_requested, &on_buffer_completed));
      registered_ = true;
    }
    if (kernel_users_ == 0) NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    ++kernel_users_;
  }
  // A measurement's share of the kernel records (under mutex_): false, with nothing taken, when CUPTI refuses.
  bool try_enable_kernels() noexcept {
    if (!registered_) {
      if (cuptiActivityRegisterCallbacks(&on_buffer_requested, &on_buffer_completed) != CUPTI_SUCCESS) return false;
      registered_ = true;
    }
    if (kernel_users_ == 0 && cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) return false;
    ++kernel_users_;
    return true;
  }
  void disable_kernels() noexcept {
    if (kernel_users_ > 0 && --kernel_users_ == 0) (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }

  // CUPTI's range profiler launches a kernel of its own when a user range ends ("WaitNs", 80 us on an H200,
  // on a stream of CUPTI's: benchmarks/device/activity_probe.cu), after the range's work and before its
  // pass is synchronized. It is not the measured work.
  static bool is_range_profiler_kernel(const char* name) noexcept {
    return name != nullptr && std::strcmp(name, "WaitNs") == 0;
  }

  void keep_interval(std::uint64_t start, std::uint64_t end, std::uint32_t device, bool kernel) {
    if (interval_users_ == 0) return;
    if (intervals_.size() >= max_queued_kernels) {
      ++dropped_;
      return;
    }
    intervals_.push_back({start, end, device, kernel});
  }

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
      if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
        const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        keep_interval(c->start, c->end, c->deviceId, false);
      } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
        const auto* s = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        keep_interval(s->start, s->end, s->deviceId, false);
      } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        if (!is_range_profiler_kernel(k->name)) keep_interval(k->start, k->end, k->deviceId, true);
        const bool for_launches = launch_users_ > 0 && !is_range_profiler_kernel(k->name);
        if (monitor_users_ == 0 && !for_launches) continue;  // only busy intervals are wanted: no names
        if (kernels_.size() + launches_.size() >= max_queued_kernels) {
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
        a.launch = launch_of(*k);
        if (k->gridX > 0 && k->gridY > 0 && k->gridZ > 0) a.blocks = a.launch.blocks();
        if (for_launches) launches_.push_back(a);
        if (monitor_users_ > 0) kernels_.push_back(std::move(a));
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
  bool registered_ = false;
  std::size_t monitor_users_ = 0, interval_users_ = 0, kernel_users_ = 0, launch_users_ = 0;
  std::deque<busy_interval> intervals_;
  std::size_t dropped_ = 0;
  std::deque<kernel_activity> kernels_;
  std::deque<kernel_activity> launches_;  // for hold_launches()
  std::unordered_map<std::uint32_t, std::uint64_t> phase_of_;  // correlation id -> phase id
};

}  // namespace detail
NAPKIN_END_NAMESPACE
