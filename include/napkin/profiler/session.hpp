// The GPU half: napkin::profiler measures GPU work in-process with CUPTI's Range Profiler (CUDA >= 12.6u2).
//
//   napkin::profiler prof;                                   // SOL set, current device
//   napkin::sol_report r = prof.measure("softmax", [&] { softmax<<<g, b>>>(...); });
//   std::cout << r;                                          // ncu-like section + verdicts
//
// Three ways to measure: measure() (one user range, replayed by napkin once per pass, optional reset between
// passes), per_kernel() (CUPTI auto ranges with kernel replay: every kernel fn launches, by name, with
// memory saved and restored by CUPTI), and scope (RAII, one range, only for one-pass sets).
//
// Never links libcuda: the two driver entry points needed (current context and its device) are reached
// through the runtime's cudaGetDriverEntryPointByVersion. Never changes clocks or device settings.
// Not thread-safe: one profiler per thread and context at a time (CUPTI's range profiler is per context).
#pragma once

#include <cuda.h>  // CUcontext/CUdevice types only
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/errors.hpp"
#include "napkin/profiler/host.hpp"
#include "napkin/profiler/kernel_names.hpp"
#include "napkin/profiler/metrics.hpp"
#include "napkin/profiler/report.hpp"

namespace napkin {

struct profiler_options {
  // Flush L2 before every replay pass (like ncu's default --cache-control all), so that each pass starts
  // from the same cold cache. measure() only; kernel replay is CUPTI's own.
  bool flush_l2 = true;
  // per_kernel(): the most kernels recorded per call; more are dropped and counted.
  std::size_t max_kernels = 256;
  // measure(): stop with an error after this many passes beyond the planned count (a workload whose
  // kernel count changes between passes never completes).
  std::size_t extra_pass_limit = 2;
};

// per_kernel()'s result: one report per kernel, and how many kernels did not fit.
struct kernel_reports {
  std::vector<sol_report> kernels;
  std::size_t dropped = 0;
};

namespace detail {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw profiler_error(std::string("napkin: ") + what + ": " + cudaGetErrorName(e) + " (" +
                         cudaGetErrorString(e) + ")");
}

template <class Fn>
Fn driver_entry_point(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found);
  if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || fn == nullptr)
    throw profiler_error(std::string("napkin: driver entry point ") + symbol + " not found through the runtime");
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
      throw profiler_error(s, what);
    }
    object_ = p.pRangeProfilerObject;
  }
  enabled_range_profiler(const enabled_range_profiler&) = delete;
  enabled_range_profiler& operator=(const enabled_range_profiler&) = delete;
  ~enabled_range_profiler() {
    if (started_) {
      try {
        (void)stop();
      } catch (...) {  // a destructor must not throw; the failure that got us here is already in flight
      }
    }
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
    auto init = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object_;
    init.counterDataSize = image.size();
    init.pCounterData = image.data();
    cupti_check(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    return image;
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
  CUpti_RangeProfiler_Object* object_ = nullptr;
  bool started_ = false;
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

struct device_buffer_deleter {
  void operator()(void* p) const noexcept { (void)cudaFree(p); }
};

}  // namespace detail

class profiler {
 public:
  explicit profiler(metric_set set = metric_sets::sol(), profiler_options options = {}) : options_(options) {
    int device = -1;
    detail::cuda_check(cudaGetDevice(&device), "no usable CUDA device or driver (cudaGetDevice)");
    detail::cuda_check(cudaFree(nullptr), "cannot create the CUDA context (cudaFree(0))");
    using get_ctx_t = CUresult (*)(CUcontext*);
    using get_dev_t = CUresult (*)(CUdevice*);
    if (detail::driver_entry_point<get_ctx_t>("cuCtxGetCurrent")(&ctx_) != 0 || ctx_ == nullptr)
      throw profiler_error("napkin: no current CUDA context");
    CUdevice cu_device = 0;
    if (detail::driver_entry_point<get_dev_t>("cuCtxGetDevice")(&cu_device) != 0)
      throw profiler_error("napkin: cuCtxGetDevice failed");

    cupti_.emplace();

    auto supported = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    supported.cuDevice = cu_device;
    supported.api = CUPTI_PROFILER_RANGE_PROFILING;
    detail::cupti_check(cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      throw profiler_error(CUPTI_ERROR_NOT_SUPPORTED, "napkin: range profiling is not supported on device " +
                                                          std::to_string(device) + ": " + why_unsupported(supported));

    auto chip = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<std::size_t>(device);
    detail::cupti_check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");

    auto avail = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = ctx_;
    detail::cupti_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    detail::cupti_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");

    config_ = std::make_unique<metric_config>(chip.pChipName, std::move(set), availability);

    if (options_.flush_l2) {
      int l2 = 0;
      detail::cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
      void* p = nullptr;
      if (l2 > 0) {
        detail::cuda_check(cudaMalloc(&p, static_cast<std::size_t>(l2) * 2), "cudaMalloc (L2 flush buffer)");
        flush_buffer_.reset(p);
        flush_bytes_ = static_cast<std::size_t>(l2) * 2;
      }
    }
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

  // Runs fn as one range, once per pass. fn must launch the same work each time; it may use any streams
  // (everything it launched is synchronized before the pass ends).
  template <class Fn>
  sol_report measure(const std::string& name, Fn&& fn) {
    return measure(name, std::forward<Fn>(fn), [] {});
  }

  // As above, calling reset() before every pass after the first, for work that is not idempotent
  // (in-place updates, accumulations): reset() restores the inputs; it is not measured.
  template <class Fn, class Reset>
  sol_report measure(const std::string& name, Fn&& fn, Reset&& reset) {
    ensure_usable();
    sync("before measure()");
    try {
      return measure_once(name, fn, reset, enabled(CUPTI_UserRange));
    } catch (...) {
      enabled_.reset();  // disable CUPTI's range profiler: the next measurement starts clean
      throw;
    }
  }

  // Every kernel fn launches, each as its own range, replayed by CUPTI (kernel replay saves and restores
  // the memory a kernel writes, so fn runs once and need not be idempotent). Launches are serialized and
  // synchronized one by one: kernels that wait on each other (or on the host) must not be measured so.
  // CUDA graphs are refused: CUPTI 13.0 records only the first kernel node of a graph launch in this mode
  // (measured on H100); measure() covers a whole graph as one range.
  template <class Fn>
  kernel_reports per_kernel(Fn&& fn) {
    ensure_usable();
    sync("before per_kernel()");
    try {
      return per_kernel_once(fn, enabled(CUPTI_AutoRange));
    } catch (...) {
      enabled_.reset();
      throw;
    }
  }

 private:
  // The enabled range profiler, kept between measurements of the same kind (Enable costs ~0.3 s on H100).
  // Switching between user and auto range re-enables it: reconfiguring one object across the two modes
  // crashed inside CUPTI 13.0 (H100, driver 580).
  detail::enabled_range_profiler& enabled(CUpti_ProfilerRange range) {
    if (enabled_ && enabled_range_ != range) enabled_.reset();
    if (!enabled_) enabled_ = std::make_unique<detail::enabled_range_profiler>(ctx_);
    enabled_range_ = range;
    return *enabled_;
  }

  template <class Fn, class Reset>
  sol_report measure_once(const std::string& name, Fn& fn, Reset& reset, detail::enabled_range_profiler& rp) {
    std::vector<std::uint8_t> data = rp.counter_data(config_->set(), 1);
    rp.set_config(*config_, data, CUPTI_UserRange, CUPTI_UserReplay, 1);
    const std::size_t limit = config_->passes() + options_.extra_pass_limit;
    std::size_t pass = 0;
    for (bool done = false; !done; ++pass) {
      if (pass == limit)
        throw profiler_error("napkin: measure(\"" + name + "\") did not complete after " + std::to_string(pass) +
                             " passes (planned " + std::to_string(config_->passes()) +
                             "): fn must launch the same kernels every time it is called");
      if (pass > 0) {
        reset();
        sync("in measure()'s reset callback");
      }
      flush_l2();
      rp.start();
      rp.push(name.c_str());
      try {
        fn();
      } catch (...) {
        unwind(rp);
        throw;
      }
      try {
        rp.pop();
        done = rp.stop();
      } catch (const profiler_error&) {
        // After a fault inside fn CUPTI fails too (CUPTI_ERROR_UNKNOWN): report the CUDA error first.
        sync(("inside measure(\"" + name + "\")").c_str());
        throw;
      }
      sync(("inside measure(\"" + name + "\")").c_str());
    }
    const std::size_t dropped = rp.decode();
    return finish(name, data, measured_by::user_range, dropped, pass);
  }

  template <class Fn>
  kernel_reports per_kernel_once(Fn& fn, detail::enabled_range_profiler& rp) {
    std::vector<std::uint8_t> data = rp.counter_data(config_->set(), options_.max_kernels);
    rp.set_config(*config_, data, CUPTI_AutoRange, CUPTI_KernelReplay, options_.max_kernels);
    detail::kernel_name_recorder names;
    rp.start();
    try {
      fn();
    } catch (...) {
      unwind(rp);
      throw;
    }
    try {
      rp.stop();
    } catch (const profiler_error&) {
      sync("inside per_kernel()");
      throw;
    }
    sync("inside per_kernel()");
    if (names.saw_graph())
      throw profiler_error("napkin: per_kernel() cannot measure kernels inside a CUDA graph (CUPTI's auto range "
                           "records only the graph's first kernel); use measure(), which covers the whole graph");
    kernel_reports out;
    out.dropped = rp.decode();
    const std::size_t ranges = metric_config::range_count(data);
    // Kernel replay does not count what did not fit: the launch count does (when no graph hides it).
    if (const auto launches = names.kernel_launches(); launches && *launches > ranges)
      out.dropped = std::max(out.dropped, *launches - ranges);
    const std::vector<std::string> kernel_names = names.names_for(ranges);
    for (std::size_t i = 0; i < ranges; ++i) {
      sol_report r = make_report(kernel_names[i], config_->set(), config_->evaluate(data, i));
      r.chip = chip();
      r.passes = config_->passes();
      r.how = measured_by::kernel_replay;
      out.kernels.push_back(std::move(r));
    }
    return out;
  }

 public:
  // One range around a scope's work, without replay: only for sets that fit one pass.
  //   { auto s = prof.open_scope("step"); step(); sol_report r = s.stop(); }
  // A scope destroyed without stop() (an exception unwinding) ends the range and drops its result.
  class scope {
   public:
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    scope(scope&& other) noexcept
        : prof_(std::exchange(other.prof_, nullptr)), name_(std::move(other.name_)), rp_(std::move(other.rp_)),
          data_(std::move(other.data_)) {}
    scope& operator=(scope&&) = delete;
    ~scope() {
      if (prof_ != nullptr && rp_) {
        try {
          prof_->unwind(*rp_);
        } catch (...) {  // a destructor must not throw; the range's result is dropped
        }
        prof_->scope_open_ = false;
      }
    }

    sol_report stop() {
      if (prof_ == nullptr || !rp_) throw profiler_error("napkin: scope \"" + name_ + "\" was already stopped");
      profiler& prof = *prof_;
      prof_ = nullptr;
      prof.scope_open_ = false;
      std::unique_ptr<detail::enabled_range_profiler> rp = std::move(rp_);
      bool complete = false;
      try {
        rp->pop();
        complete = rp->stop();
      } catch (const profiler_error&) {
        prof.sync(("inside scope \"" + name_ + "\"").c_str());
        throw;
      }
      prof.sync(("inside scope \"" + name_ + "\"").c_str());
      if (!complete)
        throw profiler_error("napkin: scope \"" + name_ + "\" needed more than one pass");
      const std::size_t dropped = rp->decode();
      return prof.finish(name_, data_, measured_by::scope, dropped, 1);
    }

   private:
    friend class profiler;
    scope(profiler& prof, std::string name) : prof_(&prof), name_(std::move(name)) {}
    profiler* prof_;
    std::string name_;
    std::unique_ptr<detail::enabled_range_profiler> rp_;
    std::vector<std::uint8_t> data_;
  };

  scope open_scope(const std::string& name) {
    ensure_usable();
    if (config_->passes() != 1)
      throw profiler_error("napkin: a scope cannot replay its work, but the \"" + config_->set().name + "\" set needs " +
                           std::to_string(config_->passes()) + " passes on " + chip() +
                           "; use measure() or the one_pass() set");
    if (scope_open_)
      throw profiler_error("napkin: scope \"" + name + "\" opened while another scope of this profiler is open "
                           "(napkin measures one range at a time)");
    sync("before a scope");
    enabled_.reset();  // the scope enables its own range profiler
    scope s(*this, name);
    s.rp_ = std::make_unique<detail::enabled_range_profiler>(ctx_);
    s.data_ = s.rp_->counter_data(config_->set(), 1);
    s.rp_->set_config(*config_, s.data_, CUPTI_UserRange, CUPTI_UserReplay, 1);
    flush_l2();
    s.rp_->start();
    s.rp_->push(s.name_.c_str());
    scope_open_ = true;
    return s;
  }

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
    if (!usable()) throw profiler_error("napkin: the profiler is disabled: " + disabled_reason_);
  }

  // Synchronizes the device; a fault (sticky error) disables the profiler for good.
  void sync(const char* where) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return;
    const cudaError_t sticky = cudaGetLastError();
    std::string what = std::string("CUDA error ") + where + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    // A fault poisons the context: every later CUDA call fails, so profiling cannot continue.
    if (sticky != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess) {
      disabled_reason_ = what + "; the CUDA context is unusable";
      throw profiler_error(disabled_reason_ + " (napkin's profiler is now disabled)");
    }
    throw profiler_error("napkin: " + what);
  }

  void flush_l2() {
    if (flush_buffer_) {
      ++flush_value_;
      detail::cuda_check(cudaMemsetAsync(flush_buffer_.get(), flush_value_ & 0xff, flush_bytes_, nullptr),
                         "cudaMemsetAsync (L2 flush)");
    }
    sync("flushing L2");
  }

  // Closes an interrupted range and leaves CUPTI clean; errors here are secondary to the one in flight.
  void unwind(detail::enabled_range_profiler& rp) noexcept {
    try {
      rp.pop();
    } catch (...) {
    }
    try {
      (void)rp.stop();
    } catch (...) {
    }
    if (cudaDeviceSynchronize() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess)
      disabled_reason_ = "a CUDA fault inside measured work left the context unusable";
  }

  sol_report finish(const std::string& name, const std::vector<std::uint8_t>& data, measured_by how,
                    std::size_t dropped, std::size_t passes_run) {
    if (dropped != 0)
      throw profiler_error("napkin: CUPTI dropped " + std::to_string(dropped) + " range(s) of \"" + name + "\"");
    const std::size_t ranges = metric_config::range_count(data);
    if (ranges != 1)
      throw profiler_error("napkin: expected one range for \"" + name + "\", CUPTI recorded " +
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
  bool scope_open_ = false;
  std::unique_ptr<metric_config> config_;
  std::unique_ptr<detail::enabled_range_profiler> enabled_;  // kept between measurements (Enable is slow)
  CUpti_ProfilerRange enabled_range_ = CUPTI_UserRange;
  std::unique_ptr<void, detail::device_buffer_deleter> flush_buffer_;
  std::size_t flush_bytes_ = 0;
  unsigned flush_value_ = 0;
  std::string disabled_reason_;
};

}  // namespace napkin
