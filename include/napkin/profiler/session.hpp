// The GPU half: napkin::profiler measures GPU work in-process with CUPTI's Range Profiler (CUDA >= 12.6u2).
//
//   napkin::profiler prof;                                   // SOL set, current device
//   napkin::sol_report r = prof.measure("softmax", [&] { softmax<<<g, b>>>(...); });
//   std::cout << r;                                          // ncu-like section + verdicts
//
// Four ways to measure: measure() (one user range, replayed by napkin once per pass, optional reset between
// passes), per_kernel() (CUPTI auto ranges: every kernel fn launches, by name, replayed either by CUPTI with
// memory saved and restored, or by napkin re-running fn: replay::application, ncu's numbers), scope (RAII,
// one range, only for one-pass sets), and watch_phase()
// (the next occurrences of a napkin::range of that name, one pass each: profile an annotated phase of a
// running program without restructuring it).
//
// Never links libcuda: the two driver entry points needed (current context and its device) are reached
// through the runtime's cudaGetDriverEntryPointByVersion. Never changes clocks or device settings.
// Not thread-safe: one profiler per thread and context at a time (CUPTI's range profiler is per context).
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext/CUdevice types only
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "napkin/nvtx.hpp"
#include "napkin/profiler/errors.hpp"
#include "napkin/profiler/host.hpp"
#include "napkin/profiler/kernel_names.hpp"
#include "napkin/profiler/l2_flush.hpp"
#include "napkin/profiler/metrics.hpp"
#include "napkin/profiler/report.hpp"

NAPKIN_BEGIN_NAMESPACE

// Who replays per_kernel()'s kernels for the passes a metric set needs (ncu's --replay-mode names).
enum class replay {
  // CUPTI's kernel replay: fn runs once; CUPTI saves and restores device memory around every pass of every
  // kernel. Its restore leaves dirty lines in L2, so memory-bound kernels read a few microseconds long
  // (docs/profiler.md, "Cache state").
  kernel,
  // napkin runs fn once unprofiled (to count its kernels), then once per pass with a clean, cold L2 before
  // each (like ncu's application replay with --cache-control all): ncu's numbers. fn must launch the same
  // kernels every time, and be idempotent or come with a reset callback (called before every pass). The
  // first kernel of each pass starts cold; later ones see what the earlier ones left in L2, as in the real
  // program.
  application,
};

struct profiler_options {
  // Flush L2 before every replay pass (like ncu's default --cache-control all), so that each pass starts
  // from the same cold, clean cache: measure(), per_kernel(fn, replay::application), scopes and phases.
  // CUPTI's kernel replay (per_kernel's default) does its own thing between passes.
  bool flush_l2 = true;
  // per_kernel(): the most kernels recorded per call; more are dropped and counted. With CUPTI's kernel
  // replay, smaller is also more exact: CUPTI's auto-range image leaves dirty lines in L2 in proportion to
  // the kernels it can hold (H100: 3 MB for 1, 21 MB for 16, 25 MB for 256), which memory-bound kernels
  // write back at their start (a few microseconds). replay::application sizes the image to fn's kernels.
  std::size_t max_kernels = 256;
  // measure(): stop with an error after this many passes beyond the planned count (a workload whose
  // kernel count changes between passes never completes).
  std::size_t extra_pass_limit = 2;
  // measure(): run fn once, unprofiled, before the passes, so that what fn does only the first time in the
  // process (a library's initialization, lazy loading of its kernels, first-touch allocations) is not
  // measured as the work: the first cublasSgemm of a process read 140 ms instead of 2.8 ms without it. With a
  // reset callback, reset() then runs before every pass. Set false for work that must not run more often than
  // the passes (fn then runs exactly passes() times, reset() before every pass after the first); passes that
  // disagree are still reported (sol_report::passes_disagree) and get no verdict.
  bool warm_up = true;
};

// per_kernel()'s result: one report per kernel, how many kernels did not fit, and what the call cost.
struct kernel_reports {
  std::vector<sol_report> kernels;
  std::size_t dropped = 0;
  measurement_cost cost;
};

namespace detail {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    detail::raise_profiler_error(std::string("napkin: ") + what + ": " + cudaGetErrorName(e) + " (" +
                                 cudaGetErrorString(e) + ")");
}

// Two CUDA events on the legacy default stream around fn inside a measure() pass: the legacy stream waits for
// every blocking stream, so their span covers fn's work on any of them (not on non-blocking streams) and any
// host time fn spends between its launches.
class pass_timer {
 public:
  pass_timer() {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate (pass timer)");
    const cudaError_t e = cudaEventCreate(&stop_);
    if (e != cudaSuccess) {
      (void)cudaEventDestroy(start_);
      cuda_check(e, "cudaEventCreate (pass timer)");
    }
  }
  pass_timer(const pass_timer&) = delete;
  pass_timer& operator=(const pass_timer&) = delete;
  ~pass_timer() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  void start() { cuda_check(cudaEventRecord(start_, cudaStreamLegacy), "cudaEventRecord (pass timer)"); }
  void stop() { cuda_check(cudaEventRecord(stop_, cudaStreamLegacy), "cudaEventRecord (pass timer)"); }
  // After the pass has been synchronized.
  double elapsed_ns() const {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime (pass timer)");
    return static_cast<double>(ms) * 1e6;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

template <class Fn>
Fn driver_entry_point(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found);
  if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || fn == nullptr)
    detail::raise_profiler_error(std::string("napkin: driver entry point ") + symbol +
                                 " not found through the runtime");
  return reinterpret_cast<Fn>(fn);
}

// Owns cuptiRangeProfilerEnable/Disable for one measurement, so that any exit path leaves CUPTI clean.
class enabled_range_profiler {
 public:
  explicit enabled_range_profiler(CUcontext ctx) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    p.ctx = ctx;
    const CUptiResult s = cuptiRangeProfilerEnable(&p);
    if (s != CUPTI_SUCCESS) {
      std::string what = describe_cupti_failure("cuptiRangeProfilerEnable", s);
      if (const char* tool = std::getenv("CUDA_INJECTION64_PATH"); tool != nullptr && *tool != '\0')
        what += std::string(" A CUDA tool is injected into this process (CUDA_INJECTION64_PATH=") + tool +
                "): ncu, nsys and napkin cannot profile the same process.";
      detail::raise_profiler_error(s, std::move(what));
    }
    object_ = p.pRangeProfilerObject;
  }
  enabled_range_profiler(const enabled_range_profiler&) = delete;
  enabled_range_profiler& operator=(const enabled_range_profiler&) = delete;
  ~enabled_range_profiler() {
    if (started_) stop_unchecked();  // the failure that got us here is already on its way
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    p.pRangeProfilerObject = object_;
    (void)cuptiRangeProfilerDisable(&p);
  }

  CUpti_RangeProfiler_Object* get() const noexcept { return object_; }

  std::vector<std::uint8_t> counter_data(const metric_set& set, std::size_t max_ranges) {
    auto names = c_names(set.metrics);
    auto size = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object_;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = max_ranges;
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
    cupti_check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    std::vector<std::uint8_t> image(size.counterDataSize);
    initialize(image);
    return image;
  }

  void initialize(std::vector<std::uint8_t>& image) {
    auto init = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object_;
    init.counterDataSize = image.size();
    init.pCounterData = image.data();
    cupti_check(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
  }

  void set_config(const metric_config& config, std::vector<std::uint8_t>& counter_data, CUpti_ProfilerRange range,
                  CUpti_ProfilerReplayMode replay, std::size_t max_ranges) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    p.pRangeProfilerObject = object_;
    p.configSize = config.image().size();
    p.pConfig = config.image().data();
    p.counterDataImageSize = counter_data.size();
    p.pCounterDataImage = counter_data.data();
    p.range = range;
    p.replayMode = replay;
    p.maxRangesPerPass = max_ranges;
    p.numNestingLevels = 1;
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    cupti_check(cuptiRangeProfilerSetConfig(&p), "cuptiRangeProfilerSetConfig");
  }

  // Configures CUPTI for `config` and returns the counter-data image it decodes into (owned here, valid
  // until the next configure()). The same arguments again only re-initialize the image in place: after
  // SetConfig CUPTI reprograms every counter at the next start (H100: ~15 ms even for a one-pass set),
  // while an unchanged configuration reprograms only what differs between passes
  // (benchmarks/device/pass_cost_probe.cu; docs/profiler.md "Where a pass's time goes").
  std::vector<std::uint8_t>& configure(const metric_config& config, CUpti_ProfilerRange range,
                                       CUpti_ProfilerReplayMode replay, std::size_t max_ranges) {
    const configuration wanted{&config, range, replay, max_ranges};
    if (configured_ && *configured_ == wanted) {
      initialize(data_);
      return data_;
    }
    configured_.reset();
    data_ = counter_data(config.set(), max_ranges);
    set_config(config, data_, range, replay, max_ranges);
    configured_ = wanted;
    return data_;
  }

  void start() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    p.pRangeProfilerObject = object_;
    cupti_check(cuptiRangeProfilerStart(&p), "cuptiRangeProfilerStart");
    started_ = true;
  }
  // Returns whether every pass has now been submitted.
  bool stop() {
    started_ = false;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    p.pRangeProfilerObject = object_;
    cupti_check(cuptiRangeProfilerStop(&p), "cuptiRangeProfilerStop");
    return p.isAllPassSubmitted != 0;
  }
  // For unwinding after a failure: the status is secondary to the failure in flight, and ignored.
  void stop_unchecked() noexcept {
    started_ = false;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    p.pRangeProfilerObject = object_;
    (void)cuptiRangeProfilerStop(&p);
  }
  void pop_unchecked() noexcept {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
    p.pRangeProfilerObject = object_;
    (void)cuptiRangeProfilerPopRange(&p);
  }
  void push(const char* name) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
    p.pRangeProfilerObject = object_;
    p.pRangeName = name;
    cupti_check(cuptiRangeProfilerPushRange(&p), "cuptiRangeProfilerPushRange");
  }
  void pop() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
    p.pRangeProfilerObject = object_;
    cupti_check(cuptiRangeProfilerPopRange(&p), "cuptiRangeProfilerPopRange");
  }
  // Decodes the collected passes into the counter-data image; returns the number of dropped ranges.
  std::size_t decode() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    p.pRangeProfilerObject = object_;
    cupti_check(cuptiRangeProfilerDecodeData(&p), "cuptiRangeProfilerDecodeData");
    return p.numOfRangeDropped;
  }

 private:
  struct configuration {
    const metric_config* config;
    CUpti_ProfilerRange range;
    CUpti_ProfilerReplayMode replay;
    std::size_t max_ranges;
    bool operator==(const configuration& o) const noexcept {
      return config == o.config && range == o.range && replay == o.replay && max_ranges == o.max_ranges;
    }
  };
  CUpti_RangeProfiler_Object* object_ = nullptr;
  bool started_ = false;
  std::optional<configuration> configured_;  // what SetConfig was last given, once it succeeded
  std::vector<std::uint8_t> data_;           // the image that SetConfig was given
};

// cuptiProfilerInitialize/DeInitialize, held by each profiler.
class cupti_profiler_initialized {
 public:
  cupti_profiler_initialized() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    cupti_check(cuptiProfilerInitialize(&p), "cuptiProfilerInitialize");
  }
  cupti_profiler_initialized(const cupti_profiler_initialized&) = delete;
  cupti_profiler_initialized& operator=(const cupti_profiler_initialized&) = delete;
  ~cupti_profiler_initialized() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
    (void)cuptiProfilerDeInitialize(&p);
  }
};

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace detail

class profiler {
 public:
  explicit profiler(metric_set set = metric_sets::sol(), const profiler_options& options = {}) : options_(options) {
    if (options_.max_kernels == 0)
      detail::raise_profiler_error(
          "napkin: profiler_options::max_kernels must be at least 1 (per_kernel() records that many)");
    int device = -1;
    detail::cuda_check(cudaGetDevice(&device), "no usable CUDA device or driver (cudaGetDevice)");
    detail::cuda_check(cudaFree(nullptr), "cannot create the CUDA context (cudaFree(0))");
    using get_ctx_t = CUresult (*)(CUcontext*);
    using get_dev_t = CUresult (*)(CUdevice*);
    if (detail::driver_entry_point<get_ctx_t>("cuCtxGetCurrent")(&ctx_) != 0 || ctx_ == nullptr)
      detail::raise_profiler_error("napkin: no current CUDA context");
    CUdevice cu_device = 0;
    if (detail::driver_entry_point<get_dev_t>("cuCtxGetDevice")(&cu_device) != 0)
      detail::raise_profiler_error("napkin: cuCtxGetDevice failed");

    cupti_.emplace();

    auto supported = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    supported.cuDevice = cu_device;
    supported.api = CUPTI_PROFILER_RANGE_PROFILING;
    detail::cupti_check(cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      detail::raise_profiler_error(CUPTI_ERROR_NOT_SUPPORTED, "napkin: range profiling is not supported on device " +
                                                                  std::to_string(device) + ": " +
                                                                  why_unsupported(supported));

    auto chip_name = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip_name.deviceIndex = static_cast<std::size_t>(device);
    detail::cupti_check(cuptiDeviceGetChipName(&chip_name), "cuptiDeviceGetChipName");

    auto avail = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = ctx_;
    detail::cupti_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    detail::cupti_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");

    config_ = std::make_unique<metric_config>(chip_name.pChipName, std::move(set), availability);

    if (options_.flush_l2) flusher_ = std::make_unique<detail::l2_flusher>(device);
  }

  profiler(const profiler&) = delete;
  profiler& operator=(const profiler&) = delete;
  ~profiler() = default;

  const std::string& chip() const noexcept { return config_->chip(); }
  const metric_set& metrics() const noexcept { return config_->set(); }
  // Replay passes each measure() will run.
  std::size_t passes() const noexcept { return config_->passes(); }
  // False after a CUDA fault inside measured work: the context is unusable, and so is the profiler.
  bool usable() const noexcept { return disabled_reason_.empty(); }
  const std::string& disabled_reason() const noexcept { return disabled_reason_; }

  // Runs fn as one range, once per pass, after one unprofiled warm-up run (profiler_options::warm_up). fn
  // must launch the same work each time; it may use any streams (everything it launched is synchronized
  // before the pass ends). Each pass's duration and kernel launches are recorded (sol_report::pass_samples):
  // when the passes disagree the report says so and gives no verdict.
  template <class Fn>
  sol_report measure(const std::string& name, Fn&& fn) {
    return measure(name, std::forward<Fn>(fn), [] {});
  }

  // As above, calling reset() before every pass (without the warm-up run: before every pass after the first),
  // for work that is not idempotent (in-place updates, accumulations): reset() restores the inputs; it is
  // not measured.
  template <class Fn, class Reset>
  sol_report measure(const std::string& name, Fn&& fn, Reset&& reset) {
    ensure_usable();
    sync("before measure()");
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      return measure_once(name, fn, reset);
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      enabled_.reset();  // disable CUPTI's range profiler: the next measurement starts clean
      throw;
    }
#endif
  }

  // Every kernel fn launches, each as its own range (CUPTI's auto range), named by its symbol. Launches are
  // serialized and synchronized one by one: kernels that wait on each other (or on the host) must not be
  // measured so. CUDA graphs are refused: CUPTI 13.0 records only the first kernel node of a graph launch in
  // this mode (measured on H100); measure() covers a whole graph as one range.
  //   per_kernel(fn)                        replay::kernel: fn runs once, CUPTI replays each kernel
  //   per_kernel(fn, replay::application)   napkin runs fn once per pass, cold clean L2 before each
  //   per_kernel(fn, replay::application, reset)   ... calling reset() before every profiled pass
  template <class Fn>
  kernel_reports per_kernel(Fn&& fn, replay how = replay::kernel) {
    auto no_reset = [] {};
    return per_kernel_checked(fn, how, no_reset);
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel(Fn&& fn, replay how, Reset&& reset) {
    if (how != replay::application)
      detail::raise_profiler_error(
          "napkin: per_kernel()'s reset callback is for replay::application; CUPTI's kernel "
          "replay restores memory itself and would never call it");
    return per_kernel_checked(fn, how, reset);
  }

 private:
  // The enabled range profiler, kept between measurements of the same kind (Enable costs ~0.3 s on H100).
  // Switching between user and auto range re-enables it: reconfiguring one object across the two modes
  // crashed inside CUPTI 13.0 (H100, driver 580).
  // Returns the time Enable took (0 when already enabled in this mode).
  double enable(CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay_mode) {
    if (enabled_ && (enabled_range_ != range || enabled_replay_ != replay_mode)) enabled_.reset();
    if (enabled_) return 0.0;
    const auto t0 = std::chrono::steady_clock::now();
    enabled_ = std::make_unique<detail::enabled_range_profiler>(ctx_);
    enabled_range_ = range;
    enabled_replay_ = replay_mode;
    return detail::seconds_since(t0);
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel_checked(Fn& fn, replay how, Reset& reset) {
    ensure_usable();
    sync("before per_kernel()");
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      if (how == replay::application) return per_kernel_by_application(fn, reset);
      return per_kernel_by_cupti(fn);
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      enabled_.reset();
      throw;
    }
#endif
  }

  template <class Fn, class Reset>
  sol_report measure_once(const std::string& name, Fn& fn, Reset& reset) {
    measurement_cost cost;
    auto t0 = std::chrono::steady_clock::now();
    if (options_.warm_up) {
      // One unprofiled run first: one-time work in fn (a library's first call) happens here, not in a pass.
      fn();
      sync(("inside measure(\"" + name + "\")'s warm-up run").c_str());
    }
    cost.setup_s = detail::seconds_since(t0);
    cost.enable_s = enable(CUPTI_UserRange, CUPTI_UserReplay);
    detail::enabled_range_profiler& rp = *enabled_;
    t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t>& data = rp.configure(*config_, CUPTI_UserRange, CUPTI_UserReplay, 1);
    pass_recording recording;
    cost.setup_s += detail::seconds_since(t0);
    const std::size_t passes = replay_passes(rp, "measure(\"" + name + "\")", name.c_str(), fn, reset,
                                             options_.warm_up, cost, &recording);
    t0 = std::chrono::steady_clock::now();
    const std::size_t dropped = rp.decode();
    sol_report r = finish(name, data, measured_by::user_range, dropped, passes);
    r.pass_samples = std::move(recording.samples);
    r.passes_disagree = find_pass_disagreement(r.pass_samples);
    cost.decode_s = detail::seconds_since(t0);
    r.cost = cost;
    return r;
  }

  // What measure() records of each pass: CUDA events around fn, and fn's kernel launches (counted by a CUPTI
  // callback; unknown when another CUPTI client holds the subscription).
  struct pass_recording {
    detail::pass_timer timer;
    detail::kernel_name_recorder launches{false};
    std::vector<pass_sample> samples;
  };

  // napkin's user replay: reset (before every pass after the first, or every pass), flush, start, [push], fn,
  // [pop], stop, synchronize, until CUPTI has every pass. `range` is the user range's name, or null for auto
  // ranges. Returns the passes run.
  template <class Fn, class Reset>
  std::size_t replay_passes(detail::enabled_range_profiler& rp, const std::string& what, const char* range, Fn& fn,
                            Reset& reset, bool reset_first, measurement_cost& cost,
                            pass_recording* recording = nullptr) {
    using clock = std::chrono::steady_clock;
    const std::size_t limit = config_->passes() + options_.extra_pass_limit;
    const std::string where = "inside " + what;
    std::size_t pass = 0;
    for (bool done = false; !done; ++pass) {
      if (pass == limit)
        detail::raise_profiler_error("napkin: " + what + " did not complete after " + std::to_string(pass) +
                                     " passes (planned " + std::to_string(config_->passes()) +
                                     "): fn must launch the same kernels every time it is called");
      if (pass > 0 || reset_first) {
        reset();
        sync("in the reset callback");
      }
      double flush_s = 0;
      auto flush = [&] {
        const auto f0 = clock::now();
        flush_l2();
        flush_s = std::chrono::duration<double>(clock::now() - f0).count();
      };
      if (range == nullptr) flush();  // auto ranges: any kernel after start would be a range of its own
      const auto t1 = clock::now();
      rp.start();
      const auto t2 = clock::now();
      if (range != nullptr) flush();  // user range: after start, whose own writes it cleans away too
      const auto t2b = clock::now();
      if (range != nullptr) rp.push(range);
      std::optional<std::size_t> launched;
      if (recording != nullptr) {
        recording->timer.start();
        launched = recording->launches.count();
      }
      const auto t3 = clock::now();
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        fn();
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {
        unwind(rp, range != nullptr);
        throw;
      }
#endif
      const auto t4 = clock::now();
      if (recording != nullptr) {
        const std::optional<std::size_t> after = recording->launches.count();
        launched = launched && after ? std::optional<std::size_t>(*after - *launched) : std::nullopt;
        recording->timer.stop();
      }
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        if (range != nullptr) rp.pop();
        done = rp.stop();
#if NAPKIN_HAS_EXCEPTIONS
      } catch (const profiler_error&) {
        // After a fault inside fn CUPTI fails too (CUPTI_ERROR_UNKNOWN): report the CUDA error first.
        sync(where.c_str());
        throw;
      }
#endif
      const auto t5 = clock::now();
      sync(where.c_str());
      const auto t6 = clock::now();
      if (recording != nullptr) recording->samples.push_back({recording->timer.elapsed_ns(), launched});
      cost.flush_s += flush_s;
      cost.cupti_s += std::chrono::duration<double>((t2 - t1) + (t3 - t2b) + (t5 - t4)).count();
      cost.work_s += std::chrono::duration<double>((t4 - t3) + (t6 - t5)).count();
    }
    cost.passes_s = cost.flush_s + cost.cupti_s + cost.work_s;
    return pass;
  }

  static void refuse_graphs(const detail::launch_log& launches) {
    if (launches.saw_graph())
      detail::raise_profiler_error(
          "napkin: per_kernel() cannot measure kernels inside a CUDA graph (CUPTI's auto range "
          "records only the graph's first kernel); use measure(), which covers the whole graph");
  }

  // Reports for the auto ranges in `data`, named from `names` (launch order = range order).
  kernel_reports kernel_reports_from(const std::vector<std::uint8_t>& data, std::size_t dropped,
                                     const detail::launch_log& names, measured_by how, std::size_t passes) {
    kernel_reports out;
    out.dropped = dropped;
    const std::size_t ranges = metric_config::range_count(data);
    // Kernel replay does not count what did not fit: the launch count does (when no graph hides it).
    if (const auto launches = names.kernel_launches(); launches && *launches > ranges)
      out.dropped = std::max(out.dropped, *launches - ranges);
    const std::vector<std::string> kernel_names = names.names_for(ranges);
    for (std::size_t i = 0; i < ranges; ++i) {
      sol_report r = make_report(kernel_names[i], config_->set(), config_->evaluate(data, i));
      r.chip = chip();
      r.passes = passes;
      r.how = how;
      out.kernels.push_back(std::move(r));
    }
    return out;
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel_by_application(Fn& fn, Reset& reset) {
    measurement_cost cost;
    // One unprofiled run first, to name and count fn's kernels: CUPTI's auto range leaves dirty lines in L2
    // in proportion to the ranges its counter image holds (H100: 3 MB for 1 range, 21 MB for 16, 25 MB for
    // 256; benchmarks/device/dirty_l2_probe.cu), which the first kernel of each pass would write back. So
    // the image holds exactly fn's kernels. reset() then runs before every profiled pass.
    auto t0 = std::chrono::steady_clock::now();
    detail::launch_log names;
    {
      detail::kernel_name_recorder recorder;
      fn();
      sync("inside per_kernel(fn, replay::application)'s counting run");
      names = recorder.log();
    }
    cost.setup_s = detail::seconds_since(t0);  // the counting run prepares the passes
    refuse_graphs(names);
    const std::size_t ranges =
        std::clamp<std::size_t>(names.kernel_launches().value_or(options_.max_kernels), 1, options_.max_kernels);
    cost.enable_s = enable(CUPTI_AutoRange, CUPTI_UserReplay);
    detail::enabled_range_profiler& rp = *enabled_;
    t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t>& data = rp.configure(*config_, CUPTI_AutoRange, CUPTI_UserReplay, ranges);
    cost.setup_s += detail::seconds_since(t0);
    const std::size_t passes = replay_passes(rp, "per_kernel(fn, replay::application)", nullptr, fn, reset, true, cost);
    t0 = std::chrono::steady_clock::now();
    const std::size_t dropped = rp.decode();
    kernel_reports out = kernel_reports_from(data, dropped, names, measured_by::application_replay, passes);
    cost.decode_s = detail::seconds_since(t0);
    out.cost = cost;
    return out;
  }

  template <class Fn>
  kernel_reports per_kernel_by_cupti(Fn& fn) {
    measurement_cost cost;
    cost.enable_s = enable(CUPTI_AutoRange, CUPTI_KernelReplay);
    detail::enabled_range_profiler& rp = *enabled_;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t>& data = rp.configure(*config_, CUPTI_AutoRange, CUPTI_KernelReplay, options_.max_kernels);
    cost.setup_s = detail::seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    std::optional<detail::kernel_name_recorder> recorder(std::in_place);
    rp.start();
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      fn();
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      unwind(rp, false);
      throw;
    }
    try {
#endif
      rp.stop();
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const profiler_error&) {
      sync("inside per_kernel()");
      throw;
    }
#endif
    sync("inside per_kernel()");
    cost.passes_s = detail::seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const detail::launch_log names = recorder->log();
    recorder.reset();
    refuse_graphs(names);
    const std::size_t dropped = rp.decode();
    kernel_reports out = kernel_reports_from(data, dropped, names, measured_by::kernel_replay, config_->passes());
    cost.decode_s = detail::seconds_since(t0);
    out.cost = cost;
    return out;
  }

 public:
  // One range around a scope's work, without replay: only for sets that fit one pass.
  //   { auto s = prof.open_scope("step"); step(); sol_report r = s.stop(); }
  // A scope destroyed without stop() (an exception unwinding) ends the range and drops its result. Scopes
  // share the profiler's enabled CUPTI range profiler with measure(), so only the first pays Enable.
  class scope {
   public:
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    scope(scope&& other) noexcept
        : prof_(std::exchange(other.prof_, nullptr)), name_(std::move(other.name_)), data_(other.data_),
          cost_(other.cost_), started_(other.started_) {}
    scope& operator=(scope&&) = delete;
    ~scope() {
      if (prof_ == nullptr) return;
      if (prof_->enabled_) prof_->unwind(*prof_->enabled_);  // the range's result is dropped
      prof_->enabled_.reset();  // an abandoned pass: the next measurement starts from a clean Enable
      prof_->busy_ = nullptr;
    }

    sol_report stop() {
      if (prof_ == nullptr) detail::raise_profiler_error("napkin: scope \"" + name_ + "\" was already stopped");
      profiler& prof = *std::exchange(prof_, nullptr);
      prof.busy_ = nullptr;
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        detail::enabled_range_profiler& rp = *prof.enabled_;
        rp.pop();
        const bool complete = rp.stop();
        prof.sync(("inside scope \"" + name_ + "\"").c_str());
        if (!complete) detail::raise_profiler_error("napkin: scope \"" + name_ + "\" needed more than one pass");
        cost_.passes_s = detail::seconds_since(started_);
        const auto t0 = std::chrono::steady_clock::now();
        const std::size_t dropped = rp.decode();
        sol_report r = prof.finish(name_, *data_, measured_by::scope, dropped, 1);
        cost_.decode_s = detail::seconds_since(t0);
        r.cost = cost_;
        return r;
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {
        if (prof.enabled_) prof.unwind(*prof.enabled_);
        prof.enabled_.reset();
        // After a fault inside the scope CUPTI fails too: report the CUDA error first.
        prof.sync(("inside scope \"" + name_ + "\"").c_str());
        throw;
      }
#endif
    }

   private:
    friend class profiler;
    scope(profiler& prof, std::string name) : prof_(&prof), name_(std::move(name)) {}
    profiler* prof_;
    std::string name_;
    const std::vector<std::uint8_t>* data_ = nullptr;  // the enabled range profiler's image
    measurement_cost cost_;
    std::chrono::steady_clock::time_point started_{};
  };

  scope open_scope(const std::string& name) {
    ensure_usable();
    if (config_->passes() != 1)
      detail::raise_profiler_error("napkin: a scope cannot replay its work, but the \"" + config_->set().name +
                                   "\" set needs " + std::to_string(config_->passes()) + " passes on " + chip() +
                                   "; use measure() or the one_pass() set");
    sync("before a scope");
    scope s(*this, name);
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      s.cost_.enable_s = enable(CUPTI_UserRange, CUPTI_UserReplay);
      detail::enabled_range_profiler& rp = *enabled_;
      const auto t0 = std::chrono::steady_clock::now();
      s.data_ = &rp.configure(*config_, CUPTI_UserRange, CUPTI_UserReplay, 1);
      s.cost_.setup_s = detail::seconds_since(t0);
      s.started_ = std::chrono::steady_clock::now();
      rp.start();
      flush_l2();  // after start, whose own writes it cleans away too
      rp.push(s.name_.c_str());
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      s.prof_ = nullptr;  // nothing to unwind through the scope: do it here
      if (enabled_) unwind(*enabled_);
      enabled_.reset();
      throw;
    }
#endif
    busy_ = "a scope";
    return s;
  }

  // Profiles an annotated phase of a running program: the next occurrences of a napkin::range (or
  // NAPKIN_RANGE / NAPKIN_FUNC_RANGE) named `name` in NVTX domain D, opened on this thread, one replay pass
  // each, until the set's passes are done; the report carries the range's name.
  //   auto phase = prof.watch_phase("solve");
  //   while (!phase.done()) step();            // step() opens napkin::range{"solve"} somewhere inside
  //   std::cout << phase.report();
  // Each occurrence must launch the same kernels (like ncu's application replay, different iterations
  // supply different counters). A nested range of the same name belongs to the outer one. Works with NVTX
  // switched off at run time (NAPKIN_NVTX=0), not with ranges compiled out (NAPKIN_NVTX_DISABLE). While a
  // phase is watched the profiler measures nothing else; one phase per process at a time.
  class phase;
  template <class D = default_domain>
  phase watch_phase(std::string name);

 private:
  static std::string why_unsupported(const CUpti_Profiler_DeviceSupported_Params& p) {
    std::string why;
    auto add = [&why](CUpti_Profiler_Support_Level level, const char* text) {
      if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why += (why.empty() ? "" : "; ") + std::string(text);
    };
    add(p.architecture, "architecture too old (compute capability 7.5 or newer needed)");
    add(p.sli, "SLI is enabled");
    add(p.vGpu, p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "vGPU profiling is disabled by the hypervisor"
                                                                : "vGPU not supported");
    add(p.confidentialCompute, "confidential computing is enabled");
    add(p.cmp, "CMP (crypto-mining) device");
    add(p.wsl, "WSL without profiling support (driver >= 525 on Windows 11 needed)");
    return why.empty() ? "reason not reported by CUPTI (MIG or MPS?)" : why;
  }

  void ensure_usable() const {
    if (!usable()) detail::raise_profiler_error("napkin: the profiler is disabled: " + disabled_reason_);
    if (busy_ != nullptr)
      detail::raise_profiler_error(std::string("napkin: the profiler is busy with ") + busy_ +
                                   " (napkin measures one range at a time)");
  }

  // Synchronizes the device; a fault (sticky error) disables the profiler for good.
  void sync(const char* where) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return;
    const cudaError_t sticky = cudaGetLastError();
    std::string what =
        std::string("CUDA error ") + where + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    // A fault poisons the context: every later CUDA call fails, so profiling cannot continue.
    if (sticky != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess) {
      disabled_reason_ = what + "; the CUDA context is unusable";
      detail::raise_profiler_error(disabled_reason_ + " (napkin's profiler is now disabled)");
    }
    detail::raise_profiler_error("napkin: " + what);
  }

  void flush_l2() {
    if (flusher_) flusher_->flush();
    sync("flushing L2");
  }

  // Closes an interrupted range and leaves CUPTI clean; errors here are secondary to the one in flight.
  void unwind(detail::enabled_range_profiler& rp, bool pop = true) noexcept {
    if (pop) rp.pop_unchecked();
    rp.stop_unchecked();
    if (cudaDeviceSynchronize() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess)
      disabled_reason_ = "a CUDA fault inside measured work left the context unusable";
  }

  sol_report finish(const std::string& name, const std::vector<std::uint8_t>& data, measured_by how,
                    std::size_t dropped, std::size_t passes_run) {
    if (dropped != 0)
      detail::raise_profiler_error("napkin: CUPTI dropped " + std::to_string(dropped) + " range(s) of \"" + name +
                                   "\"");
    const std::size_t ranges = metric_config::range_count(data);
    if (ranges != 1)
      detail::raise_profiler_error("napkin: expected one range for \"" + name + "\", CUPTI recorded " +
                                   std::to_string(ranges) + " (unbalanced ranges inside fn?)");
    sol_report r = make_report(name, config_->set(), config_->evaluate(data, 0));
    r.chip = chip();
    r.passes = passes_run;
    r.how = how;
    return r;
  }

  profiler_options options_;
  CUcontext ctx_ = nullptr;
  std::optional<detail::cupti_profiler_initialized> cupti_;  // first member made, last destroyed
  const char* busy_ = nullptr;  // what is open (a scope, a phase watch), or null
  std::unique_ptr<metric_config> config_;
  std::unique_ptr<detail::enabled_range_profiler> enabled_;  // kept between measurements (Enable is slow)
  CUpti_ProfilerRange enabled_range_ = CUPTI_UserRange;
  CUpti_ProfilerReplayMode enabled_replay_ = CUPTI_UserReplay;
  std::unique_ptr<detail::l2_flusher> flusher_;  // null when options_.flush_l2 is false
  std::string disabled_reason_;
};

namespace detail {
// The range listener napkin installs while a phase is watched. Static storage, since a range may hold
// its address past the watch; one mutex around the one watched phase and the thread that watches it.
// Never destroyed through a base pointer (static storage, final), hence no virtual destructor.
class phase_listener final : public range_listener {  // NOLINT(cppcoreguidelines-virtual-class-destructor)
 public:
  class target {
   public:
    virtual bool push(const char* domain, std::string_view name) noexcept = 0;
    // Returns false when the watch is over (report ready or failed): the listener then detaches, so
    // napkin's ranges are back on their fast path while the finished phase object still lives.
    virtual bool pop() noexcept = 0;

   protected:
    target() = default;
    ~target() = default;
    target(const target&) = default;
    target& operator=(const target&) = default;
  };

  static phase_listener& instance() noexcept {
    static phase_listener listener;
    return listener;
  }
  void attach(target* t) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (target_ != nullptr)
      detail::raise_profiler_error("napkin: a phase is already watched in this process (one at a time)");
    target_ = t;
    owner_ = std::this_thread::get_id();
    install_range_listener(this);
  }
  void detach(const target* t) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (target_ != t) return;
    target_ = nullptr;
    remove_range_listener(this);
  }
  bool on_push(const char* domain, std::string_view name) noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (target_ == nullptr || std::this_thread::get_id() != owner_) return false;
    return target_->push(domain, name);
  }
  void on_pop() noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    // Pops from other threads belong to ranges an earlier watch accepted there: not ours.
    if (target_ != nullptr && std::this_thread::get_id() == owner_ && !target_->pop()) {
      target_ = nullptr;
      remove_range_listener(this);
    }
  }

 private:
  phase_listener() = default;
  std::mutex mutex_;
  target* target_ = nullptr;
  std::thread::id owner_;
};
}  // namespace detail

// A watched phase (profiler::watch_phase). Move-only; the profiler must outlive it. Destroying it stops
// the watch; a pass still open (the phase's range not yet closed) is closed and dropped.
class profiler::phase {
 public:
  phase(const phase&) = delete;
  phase& operator=(const phase&) = delete;
  phase(phase&&) noexcept = default;
  phase& operator=(phase&&) = delete;
  ~phase() {
    if (!state_) return;
    detail::phase_listener::instance().detach(state_.get());
    state_->finish_watch();
  }

  // True once the report is ready, or the watch failed (report() then throws why).
  bool done() const noexcept { return state_->done || !state_->error.empty(); }
  std::size_t passes_done() const noexcept { return state_->pass; }
  std::size_t passes_needed() const noexcept { return state_->prof->passes(); }
  const std::string& name() const noexcept { return state_->name; }

  sol_report report() const {
    if (!state_->error.empty()) detail::raise_profiler_error(state_->error);
    if (!state_->done)
      detail::raise_profiler_error("napkin: phase \"" + state_->name + "\" has run " + std::to_string(state_->pass) +
                                   " of " + std::to_string(state_->prof->passes()) +
                                   " passes: the report is ready when done() is true");
    return *state_->result;
  }

 private:
  friend class profiler;
  // Owned by unique_ptr<state> (never deleted as a target), hence no virtual destructor.
  struct state final : detail::phase_listener::target {  // NOLINT(cppcoreguidelines-virtual-class-destructor)
    profiler* prof = nullptr;
    std::string domain, name;
    std::unique_ptr<detail::enabled_range_profiler> rp;
    const std::vector<std::uint8_t>* data = nullptr;  // rp's image
    std::size_t pass = 0;
    bool in_pass = false;
    bool done = false;
    std::string error;
    std::optional<sol_report> result;
    measurement_cost cost;
    std::chrono::steady_clock::time_point pass_start{};

    bool push(const char* d, std::string_view n) noexcept override {
      if (in_pass || done || !error.empty() || !rp || d != domain || n != name) return false;
      // Called from a range's constructor (noexcept): a failure becomes the watch's error. Without exceptions
      // a failure here ends the process (napkin's failure policy: print and abort, or the handler).
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        pass_start = std::chrono::steady_clock::now();
        rp->start();
        in_pass = true;
        prof->flush_l2();  // after start, whose own writes it cleans away too
        rp->push(name.c_str());
        return true;
#if NAPKIN_HAS_EXCEPTIONS
      } catch (const std::exception& e) {
        fail(e.what());
        return false;
      }
#endif
    }
    bool pop() noexcept override {
      if (!in_pass) return !done && error.empty();
      in_pass = false;
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        rp->pop();
        const bool all = rp->stop();
        prof->sync(("inside phase \"" + name + "\"").c_str());
        ++pass;
        cost.passes_s += detail::seconds_since(pass_start);
        if (all) {
          const auto t0 = std::chrono::steady_clock::now();
          const std::size_t dropped = rp->decode();
          result = prof->finish(name, *data, measured_by::phase, dropped, pass);
          cost.decode_s = detail::seconds_since(t0);
          result->cost = cost;
          done = true;
          finish_watch();
        } else if (pass >= prof->passes() + prof->options_.extra_pass_limit) {
          detail::raise_profiler_error("napkin: phase \"" + name + "\" did not complete after " + std::to_string(pass) +
                                       " passes: each occurrence must launch the same kernels");
        }
#if NAPKIN_HAS_EXCEPTIONS
      } catch (const std::exception& e) {
        fail(e.what());
      }
#endif
      return !done && error.empty();
    }
    void fail(const char* what) noexcept {
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        error = what;
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {
        error = "napkin: phase failed";
      }
#endif
      finish_watch();
    }
    // Ends CUPTI's part (closing an open pass) and frees the profiler for other measurements.
    void finish_watch() noexcept {
      if (rp) {
        if (in_pass) prof->unwind(*rp);
        in_pass = false;
        rp.reset();
        prof->busy_ = nullptr;
      }
    }
  };
  explicit phase(std::unique_ptr<state> s) : state_(std::move(s)) {}
  std::unique_ptr<state> state_;
};

template <class D>
profiler::phase profiler::watch_phase(std::string name) {
  ensure_usable();
  sync("before watch_phase()");
  enabled_.reset();  // the phase enables its own range profiler
  auto s = std::make_unique<phase::state>();
  s->prof = this;
  s->domain = detail::domain_name_of<D>();
  s->name = std::move(name);
  const auto t0 = std::chrono::steady_clock::now();
  s->rp = std::make_unique<detail::enabled_range_profiler>(ctx_);
  s->cost.enable_s = detail::seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  s->data = &s->rp->configure(*config_, CUPTI_UserRange, CUPTI_UserReplay, 1);
  s->cost.setup_s = detail::seconds_since(t1);
  detail::phase_listener::instance().attach(s.get());
  busy_ = "a phase watch";
  return phase(std::move(s));
}

NAPKIN_END_NAMESPACE
