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
// (hold_launches(): grid, block, registers, shared memory; launch_of()), and the system view copies, memsets
// and host calls with their phases (hold_system(), napkin/system/); a kind stays enabled while anyone holds
// it. The records' own types and conversions: cupti/activity_records.hpp; the system view's queues:
// cupti/system_queues.hpp.
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/activity_records.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/cupti/system_queues.hpp"
#include "napkin/system/cuda_calls.hpp"
#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

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
    skip_state_queries();  // after the kinds: enabling a kind resets CUPTI's per-call choices
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
    if (!try_enable_kind(CUPTI_ACTIVITY_KIND_MEMCPY)) {
      disable_kernels();
      return false;
    }
    if (!try_enable_kind(CUPTI_ACTIVITY_KIND_MEMSET)) {
      disable_kind(CUPTI_ACTIVITY_KIND_MEMCPY);
      disable_kernels();
      return false;
    }
    interval_users_ = 1;
    return true;
  }
  void release_intervals() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (interval_users_ == 0 || --interval_users_ > 0) return;
    disable_kind(CUPTI_ACTIVITY_KIND_MEMCPY);
    disable_kind(CUPTI_ACTIVITY_KIND_MEMSET);
    disable_kernels();
    intervals_.clear();
  }

  // The system view's hold (a monitor's, beside hold()): copies and memsets of `device` and every runtime and
  // driver call, each with its launch's phase, for take_system(slot). Returns the holder's slot: each holder
  // gets every host call (a process with a monitor per device has one host).
  std::size_t hold_system(std::uint32_t device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    enable_kind(CUPTI_ACTIVITY_KIND_MEMCPY);
    enable_kind(CUPTI_ACTIVITY_KIND_MEMCPY2);  // peer copies
    enable_kind(CUPTI_ACTIVITY_KIND_MEMSET);
    return system_.hold(device);
  }
  void release_system(std::size_t slot) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!system_.release(slot)) return;
    disable_kind(CUPTI_ACTIVITY_KIND_MEMCPY);
    disable_kind(CUPTI_ACTIVITY_KIND_MEMCPY2);
    disable_kind(CUPTI_ACTIVITY_KIND_MEMSET);
  }
  // Takes the copies and memsets of the slot's device and the host calls it has not seen, with their phases.
  system_records take_system(std::size_t slot) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return system_.take(slot, [this](std::uint32_t correlation, std::uint32_t& phase, std::uint64_t& instance) {
      if (const std::uint64_t* external = phase_of_.find(correlation)) {
        phase = phase_path_of(*external);
        instance = phase_instance_of(*external);
      }
    });
  }
  // Copies and host calls the bounded queues refused.
  std::size_t system_dropped() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return system_.dropped();
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
      // Not erased: a graph's kernels share their launch's correlation id (phase_of_ is bounded instead).
      if (const std::uint64_t* external = phase_of_.find(k.correlation)) k.phase_id = *external;
      out.push_back(std::move(k));
    }
    kernels_.swap(keep);
    return out;
  }

  // External-correlation records seen (CUDA calls made inside a napkin::range), for diagnostics.
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

  // Under mutex_: an activity kind stays enabled while any user holds it.
  void enable_kind(CUpti_ActivityKind kind) {
    if (kind_users_[kind] == 0) NAPKIN_DETAIL_PROFILER_CHECK(cuptiActivityEnable(kind));
    ++kind_users_[kind];
  }
  bool try_enable_kind(CUpti_ActivityKind kind) noexcept {
    if (kind_users_[kind] == 0 && cuptiActivityEnable(kind) != CUPTI_SUCCESS) return false;
    ++kind_users_[kind];
    return true;
  }
  void disable_kind(CUpti_ActivityKind kind) noexcept {
    if (kind_users_[kind] > 0 && --kind_users_[kind] == 0) (void)cuptiActivityDisable(kind);
  }

  // No API records for the calls that only read state (is_state_query, cuda_calls.hpp): no phase or system
  // view needs them, and a program that checks each launch with cudaGetLastError makes one per kernel. Best
  // effort: where CUPTI refuses, the records come and system_queues leaves them out all the same.
  static void skip_state_queries() noexcept {
    struct api {
      CUpti_CallbackDomain domain;
      std::uint32_t callbacks;
    };
    const api apis[2] = {api{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                         api{CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}};
    for (const api& a : apis)
      for (std::uint32_t cbid = 1; cbid < a.callbacks; ++cbid) {
        const CUpti_CallbackDomain domain = a.domain;
        const char* name = nullptr;
        if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr || !is_state_query(name))
          continue;
        (void)(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? cuptiActivityEnableRuntimeApi(cbid, 0)
                                                     : cuptiActivityEnableDriverApi(cbid, 0));
      }
  }

  // CUPTI's range profiler launches a kernel of its own when a user range ends ("WaitNs", 80 us on an H200,
  // on a stream of CUPTI's: benchmarks/device/activity_probe.cu), after the range's work and before its
  // pass is synchronized. It is not the measured work.
  static bool is_range_profiler_kernel(const char* name) noexcept {
    return name != nullptr && std::strcmp(name, "WaitNs") == 0;
  }

  static void fill_work(gpu_work& w, std::uint64_t start, std::uint64_t end, std::uint32_t device,
                        std::uint32_t stream, std::uint32_t correlation, std::uint32_t graph) noexcept {
    w.start_ns = start;
    w.end_ns = end;
    w.device = device;
    w.stream = stream;
    w.correlation = correlation;
    w.graph = graph;
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
        gpu_work w;
        w.kind = gpu_work_kind::copy;
        w.direction = copy_direction_of(c->copyKind);
        w.memory = copy_host_memory(w.direction, c->srcKind, c->dstKind);
        w.bytes = c->bytes;
        fill_work(w, c->start, c->end, c->deviceId, c->streamId, c->correlationId, c->graphId);
        system_.keep_copy(std::move(w));
      } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY2) {
        const auto* c = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
        gpu_work w;
        w.kind = gpu_work_kind::copy;
        w.direction = copy_direction::peer;
        w.bytes = c->bytes;
        fill_work(w, c->start, c->end, c->deviceId, c->streamId, c->correlationId, c->graphId);
        system_.keep_copy(std::move(w));
      } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
        const auto* s = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        keep_interval(s->start, s->end, s->deviceId, false);
        gpu_work w;
        w.kind = gpu_work_kind::memset;
        w.bytes = s->bytes;
        fill_work(w, s->start, s->end, s->deviceId, s->streamId, s->correlationId, s->graphId);
        system_.keep_copy(std::move(w));
      } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME || record->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
        system_.keep_call(*reinterpret_cast<const CUpti_ActivityAPI*>(record), record->kind == CUPTI_ACTIVITY_KIND_RUNTIME);
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
        a.name = names_.of(k->name);
        a.start_ns = k->start;
        a.end_ns = k->end;
        a.device = k->deviceId;
        a.stream = k->streamId;
        a.correlation = k->correlationId;
        a.graph = k->graphId;
        a.launch = launch_of(*k);
        if (k->gridX > 0 && k->gridY > 0 && k->gridZ > 0) a.blocks = a.launch.blocks();
        if (for_launches) launches_.push_back(a);
        if (monitor_users_ > 0) kernels_.push_back(std::move(a));
      } else if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
        const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
        ++external_records_;
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) phase_of_.remember(e->correlationId, e->externalId);
      }
    }
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      ++dropped_;
    }
#endif
  }

  mutable std::mutex mutex_;
  readable_name_cache names_;  // mangled -> readable, by the name's address first
  std::size_t external_records_ = 0;
  bool registered_ = false;
  std::size_t monitor_users_ = 0, interval_users_ = 0, kernel_users_ = 0, launch_users_ = 0;
  std::deque<busy_interval> intervals_;
  std::size_t dropped_ = 0;
  std::deque<kernel_activity> kernels_;
  std::deque<kernel_activity> launches_;  // for hold_launches()
  correlation_phases phase_of_;                                  // correlation id -> external id (phase_external_id)
  std::map<CUpti_ActivityKind, std::size_t> kind_users_;         // enable_kind()
  system_queues system_{max_queued_kernels};                      // hold_system(): copies, memsets, host calls
};

}  // namespace detail
NAPKIN_END_NAMESPACE
