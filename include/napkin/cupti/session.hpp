// SPDX-License-Identifier: Apache-2.0
// CUPTI's range profiler as a few verbs: napkin's only contact with cuptiRangeProfiler*.
//
//   cupti_initialization   cuptiProfilerInitialize / DeInitialize, held by each profiler
//   cupti_session          one enabled range profiler (Enable / Disable, RAII) in one mode, and its verbs:
//                          configure, start, push, pop, stop, decode; abandon() closes what is open
//
// The shape is nvbench's cupti_profiler (nvbench/cupti_profiler.cuh): the state machine of CUPTI behind a
// small API, so that the code that measures (profiler/pass.hpp) reads as the sequence it is. Every call is checked
// through the profiler's check (errors.hpp); a session destroyed while open closes what it opened.
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext (a type only: napkin never links libcuda)
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <mutex>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/busy.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/host.hpp"
#include "napkin/cupti/metrics.hpp"

// How many napkin objects hold CUPTI's profiler API initialized (profilers, monitors): the first initializes
// it, the last de-initializes it, so a profiler destroyed while a monitor samples leaves the monitor's CUPTI
// state alone. Process-wide because CUPTI's initialization is.
NAPKIN_BEGIN_PROCESS_STATE
inline std::mutex cupti_profiler_users_mutex;
inline unsigned cupti_profiler_users = 0;

// per_kernel() measures one device at a time in a process: with two auto-range sessions on two devices at
// once (two threads, two H200s, CUPTI 13.0), one device's kernels read SM % 0 with application replay and
// one kernel was lost with kernel replay (docs/profiler.md, "Two devices at once"); one at a time they agree
// with each device measured alone. measure(), scopes and phases (user ranges) run concurrently.
inline std::mutex auto_range_measurements;
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// cuptiProfilerInitialize/DeInitialize, held by each profiler and monitor (counted: see above).
class cupti_initialization {
 public:
  cupti_initialization() {
    const std::lock_guard<std::mutex> lock(process_state::cupti_profiler_users_mutex);
    if (process_state::cupti_profiler_users == 0) {
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerInitialize(&p));
    }
    ++process_state::cupti_profiler_users;
  }
  cupti_initialization(const cupti_initialization&) = delete;
  cupti_initialization& operator=(const cupti_initialization&) = delete;
  ~cupti_initialization() {
    const std::lock_guard<std::mutex> lock(process_state::cupti_profiler_users_mutex);
    if (--process_state::cupti_profiler_users > 0) return;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
    (void)cuptiProfilerDeInitialize(&p);  // nothing useful to do with a failure in a destructor
  }
};

// What ranges CUPTI makes and who replays them: fixed for a session's life.
struct range_mode {
  CUpti_ProfilerRange range = CUPTI_UserRange;
  CUpti_ProfilerReplayMode replay = CUPTI_UserReplay;

  bool user_range() const noexcept { return range == CUPTI_UserRange; }
  bool operator==(const range_mode& o) const noexcept { return range == o.range && replay == o.replay; }
  bool operator!=(const range_mode& o) const noexcept { return !(*this == o); }
};
inline constexpr range_mode user_range_user_replay{CUPTI_UserRange, CUPTI_UserReplay};     // measure, scope, phase
inline constexpr range_mode auto_range_user_replay{CUPTI_AutoRange, CUPTI_UserReplay};     // application replay
inline constexpr range_mode auto_range_kernel_replay{CUPTI_AutoRange, CUPTI_KernelReplay};  // CUPTI's kernel replay

// Why Enable may have failed, when a CUDA tool is injected into this process; empty otherwise.
inline std::string injected_tool_note() {
  const char* tool = std::getenv("CUDA_INJECTION64_PATH");  // NOLINT(concurrency-mt-unsafe): read-only use
  if (tool == nullptr || *tool == '\0') return {};
  return std::string("a CUDA tool is injected into this process (CUDA_INJECTION64_PATH=") + tool +
         "): ncu, nsys and napkin cannot profile the same process";
}

// One enabled range profiler (cuptiRangeProfilerEnable ... Disable) in one mode.
class cupti_session {
 public:
  // `busy`: how long Enable and start() wait for counters another client holds (busy.hpp).
  cupti_session(CUcontext ctx, range_mode mode, busy_policy busy = {}) : mode_(mode), busy_(std::move(busy)) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    p.ctx = ctx;
    const busy_outcome o = retry_while_busy([&p] { return cuptiRangeProfilerEnable(&p); }, busy_.wait);
    std::string note = busy_note(o, busy_.device, busy_.wait);
    if (const std::string tool = injected_tool_note(); !tool.empty()) note += (note.empty() ? "" : "; ") + tool;
    check_as<profiler_error>(o.status, "cuptiRangeProfilerEnable(&p)", NAPKIN_DETAIL_SITE_ARGS, note.c_str());
    object_ = p.pRangeProfilerObject;
  }
  cupti_session(const cupti_session&) = delete;
  cupti_session& operator=(const cupti_session&) = delete;
  ~cupti_session() {
    abandon();  // the failure that got us here is already on its way
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    p.pRangeProfilerObject = object_;
    (void)cuptiRangeProfilerDisable(&p);
  }

  range_mode mode() const noexcept { return mode_; }
  // The range count the last successful configure() set up, if any.
  std::optional<std::size_t> configured_ranges() const noexcept {
    return configured_ ? std::optional<std::size_t>(configured_->max_ranges) : std::nullopt;
  }
  // The counter-data image the last configure() set up; the passes are decoded into it.
  const std::vector<std::uint8_t>& data() const noexcept { return data_; }

  // Configures CUPTI for `config` with room for `max_ranges` ranges. The same arguments again only
  // re-initialize the image in place: after SetConfig CUPTI reprograms every counter at the next start
  // (H100: ~15 ms even for a one-pass set), while an unchanged configuration reprograms only what differs
  // between passes (benchmarks/device/pass_cost_probe.cu; docs/profiler.md "Where a pass's time goes").
  void configure(const metric_config& config, std::size_t max_ranges) {
    if (configured_ && *configured_ == configuration{&config, max_ranges}) {
      initialize_image();
      return;
    }
    set_config(config, max_ranges);
  }

  // The two halves of configure(), for the probes that time them: a new counter-data image and
  // cuptiRangeProfilerSetConfig, always; and the image re-initialized in place for another replay.
  void set_config(const metric_config& config, std::size_t max_ranges) {
    configured_.reset();
    auto names = c_names(config.set().metrics);
    auto size = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object_;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = max_ranges;
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
    data_ = std::vector<std::uint8_t>(size.counterDataSize);
    initialize_image();
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    p.pRangeProfilerObject = object_;
    p.configSize = config.image().size();
    p.pConfig = config.image().data();
    p.counterDataImageSize = data_.size();
    p.pCounterDataImage = data_.data();
    p.range = mode_.range;
    p.replayMode = mode_.replay;
    p.maxRangesPerPass = max_ranges;
    p.numNestingLevels = 1;
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerSetConfig(&p));
    configured_ = configuration{&config, max_ranges};
  }
  void initialize_image() {
    auto init = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object_;
    init.counterDataSize = data_.size();
    init.pCounterData = data_.data();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));
  }

  // Waits for busy counters as busy_wait says: a monitor or another process may take them between passes.
  void start() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    p.pRangeProfilerObject = object_;
    const busy_outcome o = retry_while_busy([&p] { return cuptiRangeProfilerStart(&p); }, busy_.wait);
    const std::string note = busy_note(o, busy_.device, busy_.wait);
    check_as<profiler_error>(o.status, "cuptiRangeProfilerStart(&p)", NAPKIN_DETAIL_SITE_ARGS, note.c_str());
    started_ = true;
  }
  void push(const char* name) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
    p.pRangeProfilerObject = object_;
    p.pRangeName = name;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerPushRange(&p));
    pushed_ = true;
  }
  void pop() {
    pushed_ = false;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
    p.pRangeProfilerObject = object_;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerPopRange(&p));
  }
  // Returns whether every pass the configuration needs has now been submitted.
  bool stop() {
    started_ = false;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    p.pRangeProfilerObject = object_;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerStop(&p));
    return p.isAllPassSubmitted != 0;
  }
  // Decodes the collected passes into data(); returns the number of ranges CUPTI dropped.
  std::size_t decode() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    p.pRangeProfilerObject = object_;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerDecodeData(&p));
    return p.numOfRangeDropped;
  }
  // Closes an open range and pass without a result, for unwinding after a failure: CUPTI's statuses here
  // are secondary to the failure in flight, and ignored.
  void abandon() noexcept {
    if (pushed_) {
      pushed_ = false;
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
      p.pRangeProfilerObject = object_;
      (void)cuptiRangeProfilerPopRange(&p);
    }
    if (started_) {
      started_ = false;
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
      p.pRangeProfilerObject = object_;
      (void)cuptiRangeProfilerStop(&p);
    }
  }

 private:
  struct configuration {
    const metric_config* config;
    std::size_t max_ranges;
    bool operator==(const configuration& o) const noexcept {
      return config == o.config && max_ranges == o.max_ranges;
    }
  };

  range_mode mode_;
  busy_policy busy_;
  CUpti_RangeProfiler_Object* object_ = nullptr;
  bool started_ = false;
  bool pushed_ = false;
  std::optional<configuration> configured_;  // what SetConfig was last given, once it succeeded
  std::vector<std::uint8_t> data_;           // the image SetConfig was given
};

}  // namespace detail
NAPKIN_END_NAMESPACE
