// SPDX-License-Identifier: Apache-2.0
// One CUPTI PM-sampling session on one device (cupti_pmsampling.h, CUDA >= 12.6): the GPU samples a one-pass
// set of counters every `interval` into a hardware buffer; decode() moves what is there into a counter-data
// image and evaluates each completed sample. No replay, no serialization of the application's work.
//
// CUPTI's rules this class keeps (CUPTI documentation, "PM Sampling"; each also seen on an H200):
//   - only configurations that fit one pass are accepted (SetConfig answers NOT_SUPPORTED otherwise);
//   - one session per device; while it samples, the range profiler's Start answers HARDWARE_BUSY, so
//     napkin::profiler pauses the monitor around its measurements (monitor_engine.hpp);
//   - a hardware buffer that fills up is fatal to the session (DecodeData answers OUT_OF_MEMORY and later
//     Starts fail): decode before it is full (the monitor sizes the buffer and the drain period together);
//   - the counter-data image holds `max_samples` samples. A decode appends to what the image holds (on an
//     H200: three decodes into one image, the first's samples unchanged, every sample abutting the one
//     before), and stops when it is full. A decode that fills an image loses samples without an overflow
//     flag: on an H200 (CUDA 13.0) every run of samples without a usable time came after a decode's first
//     image, the survivors of a stretch whose other samples were gone, and other fills lost hundreds of
//     samples with no trace at all (docs/monitor.md). So the image is as large as the hardware buffer's
//     samples (drain_plan.hpp), decodes append to it, and it is initialized again only when the samples the
//     clock says wait might not fit in its room: samples are contiguous, one interval each, so about
//     (now - the last sample's end) / interval wait. Initializing costs by the image's size and asking CUPTI
//     for the size ~3-4 ms a call (an H200), so neither is done per decode.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <climits>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/host.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// The one-pass PM-sampling set, in pm_sample's order: seven metrics on every chip napkin monitors, then, where
// napkin knows what TriageCompute.sm__throughput is the maximum of, those inputs, sm__cycles_active, the L1's
// two data-pipe wavefront rates (a bound on the SM % inputs the pass lacks) and the LSU pipe's instruction rate.
// On GH100 (H100, H200) the sampled SM % equals, in every kernel's own windows, the largest of the first eight
// inputs below (benchmarks/device/pm_sm_inputs_probe.cu on an H100, docs/monitor.md). The pass has room for one
// more of ncu's SM % inputs, whichever: the LSU pipe's leads ncu's SM % where the eight miss it most
// (shared-memory and shuffle kernels) and reads ncu's within 0.3 points (an H200, docs/monitor.md, "The LSU
// pipe"). CUPTI's host planner puts all nineteen metrics in one pass, and refuses a twentieth of ncu's inputs
// (the pass test, tests/monitor). GB100 names its FMA counters differently and was never measured: it keeps the
// seven. Checked against ncu on an H200 and an H100 (docs/monitor.md).
inline std::vector<std::string> monitor_metrics(const std::string& chip) {
  std::vector<std::string> m = {"TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                                "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed",
                                "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                "dram__bytes_read.sum",
                                "dram__bytes_write.sum",
                                "gpc__cycles_elapsed.max"};
  if (chip == "GH100") {
    for (const char* input : {"TPC.TriageCompute.sm__inst_executed_realtime",  // in sm_input_names' order
                              "TPC.TriageCompute.sm__inst_executed_pipe_alu_realtime",
                              "TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime",
                              "TPC.TriageCompute.sm__inst_executed_pipe_fmaheavy_realtime",
                              "TPC.TriageCompute.sm__pipe_fp64_cycles_active_realtime",
                              "TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime",
                              "SM_A.TriageCompute.sm__inst_executed_pipe_uniform_realtime",
                              "SM_A.TriageCompute.sm__inst_executed_pipe_xu_realtime",
                              "TPC.TriageCompute.sm__cycles_active",
                              "SM_A.TriageCompute.l1tex__data_pipe_lsu_wavefronts",  // pm_sample::l1_wavefronts
                              "SM_A.TriageCompute.l1tex__data_pipe_tex_wavefronts",
                              "sm__inst_executed_pipe_lsu"})  // pm_sample::sm_inputs' ninth
      m.push_back(std::string(input) + ".avg.pct_of_peak_sustained_elapsed");
  }
  return m;
}
inline constexpr std::size_t monitor_base_metric_count = 7;

// One sample of monitor_metrics(chip), its `count` values in that order (7; 16 with the first eight SM inputs;
// 18 with the L1 wavefront rates; 19 with the LSU pipe). Each step appends, so a shorter set reads as before.
inline pm_sample monitor_sample(std::uint64_t start_ns, std::uint64_t end_ns, const double* v,
                                std::size_t count = monitor_base_metric_count) {
  pm_sample s;
  s.start_ns = start_ns;
  s.end_ns = end_ns;
  s.sm_pct = v[0];
  s.l1tex_pct = v[1];
  s.l2_slices_pct = v[2];
  s.dram_pct = v[3];
  s.dram_read_bytes = v[4];
  s.dram_write_bytes = v[5];
  s.elapsed_cycles = v[6];
  constexpr std::size_t triage_inputs = sm_input_count - 1;  // all but the LSU pipe, which comes last
  constexpr std::size_t active = monitor_base_metric_count + triage_inputs, waves = active + 1;
  constexpr std::size_t lsu = waves + l1_wavefront_count;
  if (count > active) {
    for (std::size_t i = 0; i < triage_inputs; ++i) s.sm_inputs[i] = v[monitor_base_metric_count + i];
    s.sm_active_pct = v[active];
  }
  if (count >= waves + l1_wavefront_count)
    for (std::size_t i = 0; i < l1_wavefront_count; ++i) s.l1_wavefronts[i] = v[waves + i];
  if (count > lsu) s.sm_inputs[triage_inputs] = v[lsu];
  return s;
}
inline double thread_cpu_seconds() noexcept {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The CUPTI chip name of `device` ("GH100"), after making its primary context (CUPTI needs one, and its profiler
// API initialized first: cupti_initialization; without it CUPTI 13.0 crashed here); the calling
// thread's current device is kept.
inline std::string pm_sampling_chip(int device) {
  int current = 0;
  NAPKIN_DETAIL_PROFILER_CHECK(cudaGetDevice(&current));
  NAPKIN_DETAIL_PROFILER_CHECK(cudaSetDevice(device));
  NAPKIN_DETAIL_PROFILER_CHECK(cudaFree(nullptr));
  NAPKIN_DETAIL_PROFILER_CHECK(cudaSetDevice(current));
  auto chip_params = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip_params.deviceIndex = static_cast<std::size_t>(device);
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiDeviceGetChipName(&chip_params));
  return chip_params.pChipName;
}

// CUPTI's timestamp now, the clock of PM samples (0 when CUPTI cannot say).
inline std::uint64_t cupti_timestamp_now() noexcept {
  std::uint64_t now = 0;
  (void)cuptiGetTimestamp(&now);
  return now;
}
}  // namespace detail
namespace detail {

// A one-pass PM-sampling configuration for a chip (no GPU needed: CUPTI's host API).
class pm_sampling_config {
 public:
  pm_sampling_config(const std::string& chip, std::vector<std::string> metrics,
                     const std::vector<std::uint8_t>& availability = {})
      : metrics_(std::move(metrics)),
        host_(std::make_unique<host_object>(chip, availability, CUPTI_PROFILER_TYPE_PM_SAMPLING)) {
    if (const CUptiResult s = host_->add_metrics(c_names(metrics_)); s != CUPTI_SUCCESS) {
      std::string names;
      for (const auto& m : metrics_) names += "\n  " + printable_metric_name(m);
      raise_profiler_error(s, "napkin: PM sampling on " + chip + " refuses these metrics (" +
                                  describe_cupti_failure("cuptiProfilerHostConfigAddMetrics", s) + "):" + names);
    }
    image_ = config_image(*host_);
    passes_ = config_passes(image_);
  }

  // PM sampling takes one pass only: more means the set cannot be sampled on this chip.
  std::size_t passes() const noexcept { return passes_; }
  const std::vector<std::string>& metrics() const noexcept { return metrics_; }
  const std::vector<std::uint8_t>& image() const noexcept { return image_; }

  // The metrics' values for one sample of a decoded counter-data image (its first `size` bytes), in the
  // metrics' order.
  void evaluate(const std::uint8_t* counter_data, std::size_t size, std::size_t sample, double* values) const {
    evaluate_to_gpu_values(*host_, counter_data, size, sample, metrics_, values);
  }

 private:
  std::vector<std::string> metrics_;
  std::unique_ptr<host_object> host_;
  std::vector<std::uint8_t> image_;
  std::size_t passes_ = 0;
};

// What one decode() found.
struct pm_decode_result {
  std::size_t samples = 0;  // completed samples evaluated and handed to the callback
  bool overflow = false;    // the hardware buffer overflowed since the last decode: samples were lost
  bool more = false;        // stopped after max_steps with records left in the hardware buffer
  std::size_t images_filled = 0;       // steps that stopped on a full image: samples may have been lost there
  std::size_t images_initialized = 0;  // times the image was emptied (initialized) for this decode
  std::size_t image_samples = 0;       // the image's capacity in samples (CUPTI's numTotalSamples)
  // Where the host time went (seconds): CUPTI's decode, sample info + evaluation, image re-initialization.
  double decode_s = 0, evaluate_s = 0, initialize_s = 0;
};

class pm_sampler {
 public:
  // Enables PM sampling on `device_index` with `config`, sampling every `interval_ns` nanoseconds of GPU
  // time into a hardware buffer of `buffer_bytes`; the counter-data image holds `image_samples` samples.
  // `trigger`: GPU time (the interval in ns, the monitor's choice) or SYS clock cycles (the interval in
  // cycles: the samples waiting cannot be told from the clock, so every decode starts on an empty image).
  pm_sampler(int device_index, const pm_sampling_config& config, std::uint64_t interval_ns, std::size_t buffer_bytes,
             std::uint32_t image_samples,
             CUpti_PmSampling_TriggerMode trigger = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL)
      : config_(config),
        interval_ns_(trigger == CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL ? interval_ns : 0) {
    if (config.passes() != 1)
      raise_profiler_error(CUPTI_ERROR_NOT_SUPPORTED, "napkin: PM sampling needs a one-pass set; this one needs " +
                                                          std::to_string(config.passes()) + " passes");
    auto enable = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = static_cast<std::size_t>(device_index);
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingEnable(&enable));
    object_ = enable.pPmSamplingObject;
    try_or_disable([&] {
      auto set = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
      set.pPmSamplingObject = object_;
      set.configSize = config.image().size();
      set.pConfig = config.image().data();
      set.hardwareBufferSize = buffer_bytes;
      set.samplingInterval = interval_ns;
      set.triggerMode = trigger;
      set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingSetConfig(&set));
      auto names = c_names(config.metrics());
      auto size = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
      size.pPmSamplingObject = object_;
      size.pMetricNames = names.data();
      size.numMetrics = names.size();
      size.maxSamples = image_samples > 0 ? image_samples : 1;
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingGetCounterDataSize(&size));
      counter_data_.resize(size.counterDataSize);
      initialize_counter_data();
    });
  }
  pm_sampler(const pm_sampler&) = delete;
  pm_sampler& operator=(const pm_sampler&) = delete;
  ~pm_sampler() {
    if (started_) {
      auto stop = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
      stop.pPmSamplingObject = object_;
      (void)cuptiPmSamplingStop(&stop);  // nothing useful to do with a failure in a destructor
    }
    disable();
  }

  void start() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    p.pPmSamplingObject = object_;
    const std::uint64_t now = cupti_timestamp_now();
    // A session started again begins on an empty image: appending across a stop was never measured.
    if (populated_ > 0) initialize_counter_data();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingStart(&p));
    started_ = true;
    if (last_end_ns_ == 0) last_end_ns_ = now;  // the first sample spans the setup before this: one sample
  }
  void stop() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
    p.pPmSamplingObject = object_;
    started_ = false;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingStop(&p));
  }
  bool started() const noexcept { return started_; }

  // Empties the hardware buffer, in at most `max_steps` steps (a sampler that produces faster than the host
  // decodes must not hold the caller forever): each completed sample goes to on_sample(start_ns, end_ns,
  // values), values in the config's metric order (valid during the call). Each step appends to the image;
  // the first empties it first when the samples waiting (waiting_samples) might not fit in what is left of
  // it, a later one always (the step before filled it); an image that holds nothing is not emptied again.
  template <class OnSample>
  pm_decode_result decode(OnSample&& on_sample, std::size_t max_steps = SIZE_MAX) {
    pm_decode_result result;
    std::vector<double> values(config_.metrics().size());
    for (std::size_t step = 0;; ++step) {
      if (step == max_steps) {
        result.more = true;
        break;
      }
      const auto t0 = std::chrono::steady_clock::now();
      if (populated_ > 0 && (step > 0 || !room_for(waiting_samples()))) {
        initialize_counter_data();
        ++result.images_initialized;
      }
      const auto t1 = std::chrono::steady_clock::now();
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
      p.pPmSamplingObject = object_;
      p.pCounterDataImage = counter_data_.data();
      p.counterDataImageSize = counter_data_.size();
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingDecodeData(&p));
      const auto t2 = std::chrono::steady_clock::now();
      result.overflow = result.overflow || p.overflow != 0;
      const std::size_t completed = read_counts();
      result.image_samples = total_;
      if (completed < evaluated_)  // appending never takes samples back: not an image napkin knows
        raise_profiler_error(CUPTI_ERROR_UNKNOWN, "napkin: PM sampling's image went from " + std::to_string(evaluated_) +
                                                      " completed samples to " +
                                                      std::to_string(completed));
      for (std::size_t i = evaluated_; i < completed; ++i) {
        auto sample = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
        sample.pPmSamplingObject = object_;
        sample.pCounterDataImage = counter_data_.data();
        sample.counterDataImageSize = counter_data_.size();
        sample.sampleIndex = i;
        NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingCounterDataGetSampleInfo(&sample));
        config_.evaluate(counter_data_.data(), counter_data_.size(), i, values.data());
        if (sample.endTimestamp > sample.startTimestamp) last_end_ns_ = std::max(last_end_ns_, sample.endTimestamp);
        evaluated_ = i + 1;  // handed out, whatever on_sample does
        on_sample(sample.startTimestamp, sample.endTimestamp, static_cast<const double*>(values.data()));
        ++result.samples;
      }
      const auto t3 = std::chrono::steady_clock::now();
      result.initialize_s += std::chrono::duration<double>(t1 - t0).count();
      result.decode_s += std::chrono::duration<double>(t2 - t1).count();
      result.evaluate_s += std::chrono::duration<double>(t3 - t2).count();
      if (p.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
      ++result.images_filled;
    }
    return result;
  }

  // The samples the clock says wait: (now - the last decoded sample's end) / interval, plus the one under
  // way; "more than any image holds" when the interval is not in time (SYS clock trigger) or there is no
  // clock.
  std::uint64_t waiting_samples() const noexcept {
    constexpr std::uint64_t unknown = std::numeric_limits<std::uint64_t>::max();
    if (interval_ns_ == 0) return unknown;
    const std::uint64_t now = cupti_timestamp_now();
    if (now == 0) return unknown;
    return (now > last_end_ns_ ? (now - last_end_ns_) / interval_ns_ : 0) + 1;
  }

  // Whether `waiting` samples fit in what is left of the image, with a quarter more and 8 for the clock's
  // error and samples completed while the decode runs.
  bool room_for(std::uint64_t waiting) const noexcept {
    const std::uint64_t room = populated_ < total_ ? total_ - populated_ : 0;
    if (waiting >= room) return false;
    return waiting + waiting / 4 + 8 <= room;
  }

  // The counter-data image's memory in bytes.
  std::size_t image_bytes() const noexcept { return counter_data_.size(); }

 private:
  template <class F>
  void try_or_disable(F&& f) {
#if NAPKIN_HAS_EXCEPTIONS
    try {
      f();
    } catch (...) {
      disable();
      throw;
    }
#else
    f();  // a failure ends in the handler, which does not return
#endif
  }
  void initialize_counter_data() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    p.pPmSamplingObject = object_;
    p.counterDataSize = counter_data_.size();
    p.pCounterData = counter_data_.data();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingCounterDataImageInitialize(&p));
    read_counts();
    evaluated_ = 0;
  }
  // CUPTI's counts for the image: keeps its capacity and populated samples, returns its completed ones.
  std::size_t read_counts() {
    auto info = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data_.data();
    info.counterDataImageSize = counter_data_.size();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPmSamplingGetCounterDataInfo(&info));
    total_ = info.numTotalSamples;
    populated_ = info.numPopulatedSamples;
    return info.numCompletedSamples;
  }
  void disable() noexcept {
    if (object_ == nullptr) return;
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
    p.pPmSamplingObject = object_;
    (void)cuptiPmSamplingDisable(&p);
    object_ = nullptr;
  }

  const pm_sampling_config& config_;
  std::uint64_t interval_ns_ = 0;  // 0: not a time interval
  CUpti_PmSampling_Object* object_ = nullptr;
  std::vector<std::uint8_t> counter_data_;
  std::size_t total_ = 0, populated_ = 0;  // the image's capacity and the samples in it (CUPTI's counts)
  std::size_t evaluated_ = 0;              // samples of the image already handed to on_sample
  std::uint64_t last_end_ns_ = 0;          // the last timed sample's end (CUPTI's clock); start() sets it first
  bool started_ = false;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
