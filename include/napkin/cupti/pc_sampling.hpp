// SPDX-License-Identifier: Apache-2.0
// CUPTI's PC Sampling API as RAII verbs: enable on a context, the stall-reason table, configure continuous
// collection with start/stop control (no replay, kernels not serialized), start, stop, drain the records,
// disable.
//
// The calls and their order are those of NVIDIA's CUPTI documentation ("CUPTI PC Sampling API", and CUDA
// 13.0's cupti_pcsampling.h): cuptiPCSamplingEnable; cuptiPCSamplingGetNumStallReasons and
// cuptiPCSamplingGetStallReasons (names at most CUPTI_STALL_REASON_STRING_SIZE); one
// cuptiPCSamplingSetConfigurationAttribute with every attribute; cuptiPCSamplingStart / Stop around the work;
// cuptiPCSamplingGetData until it returns no PC and none remain; cuptiPCSamplingDisable. CUPTI writes the
// records into a buffer the client allocates (CUpti_PCSamplingData with `collectNumPcs` CUpti_PCSamplingPCData,
// each with room for every stall reason). Function names in the records are CUPTI's allocations, which "might
// be shared across all the records" (the header's words): CUPTI hands the same pointer again in a later
// sampling on the same context (seen on an H200 with CUDA 13.0: freeing it after one sampling corrupted the
// heap in the next), so napkin copies the names and leaves the strings to CUPTI (a few bytes per function).
//
// Failures go through the profiler's check path (napkin/cupti/errors.hpp); a busy answer at enable is retried
// like the profiler's (napkin/cupti/busy.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext (a type only)
#include <cupti_pcsampling.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/busy.hpp"
#include "napkin/cupti/errors.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// A zeroed PC-sampling parameter struct with its `size` set (these structs name the field `size`, not
// `structSize`, and their size macros are `<Type>Size`).
template <class Params>
Params pc_sampling_params(std::size_t size, CUcontext context) noexcept {
  Params p{};
  p.size = size;
  p.ctx = context;
  return p;
}
#define NAPKIN_DETAIL_PC_PARAMS(type, context) /* NOLINT(cppcoreguidelines-macro-usage) */ \
  ::napkin::detail::pc_sampling_params<type>(type##Size, (context))

// The device's stall reasons: CUPTI's index of each and its name.
struct stall_reason_table {
  std::vector<std::uint32_t> index;
  std::vector<std::string> name;
  // The name of reason `id` (a CUpti_PCSamplingStallReason's index); "reason <id>" if the table lacks it.
  std::string name_of(std::uint32_t id) const {
    for (std::size_t i = 0; i < index.size(); ++i)
      if (index[i] == id) return name[i];
    return "reason " + std::to_string(id);
  }
};

inline stall_reason_table read_stall_reasons(CUcontext context) {
  std::size_t count = 0;
  auto n = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingGetNumStallReasonsParams, context);
  n.numStallReasons = &count;
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiPCSamplingGetNumStallReasons(&n));
  stall_reason_table t;
  t.index.resize(count);
  std::vector<std::vector<char>> storage(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, '\0'));
  std::vector<char*> names(count);
  for (std::size_t i = 0; i < count; ++i) names[i] = storage[i].data();
  auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingGetStallReasonsParams, context);
  p.numStallReasons = count;
  p.stallReasonIndex = t.index.data();
  p.stallReasons = names.data();
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiPCSamplingGetStallReasons(&p));
  for (std::size_t i = 0; i < count; ++i) {
    storage[i].back() = '\0';
    t.name.emplace_back(storage[i].data());
  }
  return t;
}

// What a pc_sampling session is configured with. 0 leaves CUPTI's default (period: chosen by CUPTI from the
// SM count; scratch buffer 1 MB; hardware buffer 512 MB; worker sleep 100 ms).
struct pc_sampling_settings {
  std::uint32_t period_log2 = 0;          // 5..31: a sample every 2^n cycles per SM sub-partition
  std::size_t scratch_buffer_bytes = 0;
  std::size_t hardware_buffer_bytes = 0;
  std::uint32_t worker_sleep_ms = 0;
  std::size_t buffer_pcs = 10000;         // PC records per drain
  std::chrono::milliseconds busy_wait{0};  // how long enable retries while the counters are busy
};

// One drained PC, its stall counts by CUPTI's reason name.
struct drained_pc {
  std::string symbol;
  std::uint64_t pc_offset = 0;
  std::uint64_t cubin_crc = 0;
  std::vector<std::pair<std::string, std::uint64_t>> stalls;
};

// CUpti_PCSamplingData's totals, summed over drains.
struct drained_totals {
  std::uint64_t total_samples = 0;
  std::uint64_t dropped_samples = 0;
  std::uint64_t non_user_samples = 0;
  std::uint64_t pc_records = 0;
  std::size_t drains = 0;
  bool hardware_buffer_full = false;
};

// PC sampling on one context, continuous mode with start/stop control, from construction (enable +
// configure) to destruction (disable). Not copyable: CUPTI holds a pointer to its buffer.
class pc_sampling {
 public:
  pc_sampling(CUcontext context, const pc_sampling_settings& settings) : context_(context) {
    auto enable = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingEnableParams, context);
    const busy_outcome o = retry_while_busy([&] { return cuptiPCSamplingEnable(&enable); }, settings.busy_wait);
    const std::string busy = busy_note(o, "the device", settings.busy_wait);
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(o.status, busy.empty() ? nullptr : busy.c_str());
    enabled_.context = context;  // from here a failure disables again (enabled_ is destroyed first)
    reasons_ = read_stall_reasons(context);
    allocate(settings.buffer_pcs == 0 ? 1 : settings.buffer_pcs, reasons_.index.size());

    std::vector<CUpti_PCSamplingConfigurationInfo> info;
    const auto add = [&info](CUpti_PCSamplingConfigurationAttributeType type) -> CUpti_PCSamplingConfigurationInfo& {
      CUpti_PCSamplingConfigurationInfo i{};
      i.attributeType = type;
      info.push_back(i);
      return info.back();
    };
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE).attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL)
        .attributeData.enableStartStopControlData.enableStartStopControl = 1;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT).attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    auto& stall = add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON).attributeData.stallReasonData;
    stall.stallReasonCount = reasons_.index.size();
    stall.pStallReasonIndex = reasons_.index.data();
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER)
        .attributeData.samplingDataBufferData.samplingDataBuffer = &data_;
    if (settings.period_log2 != 0)
      add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD).attributeData.samplingPeriodData.samplingPeriod =
          settings.period_log2;
    if (settings.scratch_buffer_bytes != 0)
      add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE)
          .attributeData.scratchBufferSizeData.scratchBufferSize = settings.scratch_buffer_bytes;
    if (settings.hardware_buffer_bytes != 0)
      add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE)
          .attributeData.hardwareBufferSizeData.hardwareBufferSize = settings.hardware_buffer_bytes;
    if (settings.worker_sleep_ms != 0)
      add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN)
          .attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan = settings.worker_sleep_ms;
    auto config = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingConfigurationInfoParams, context);
    config.numAttributes = info.size();
    config.pPCSamplingConfigurationInfo = info.data();
    const CUptiResult s = cuptiPCSamplingSetConfigurationAttribute(&config);
    if (s != CUPTI_SUCCESS) {
      // Name the attribute CUPTI refused, when it says which.
      std::string note = "configuring PC sampling";
      for (const auto& i : info)
        if (i.attributeStatus != CUPTI_SUCCESS)
          note += "; attribute " + std::to_string(static_cast<int>(i.attributeType)) + " refused (" +
                  describe_cupti_failure("", i.attributeStatus) + ")";
      NAPKIN_DETAIL_PROFILER_CHECK_NOTE(s, note.c_str());
    }
    period_log2_ = read_period();
  }
  pc_sampling(const pc_sampling&) = delete;
  pc_sampling& operator=(const pc_sampling&) = delete;
  ~pc_sampling() {
    if (running_) {
      auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingStopParams, context_);
      (void)cuptiPCSamplingStop(&p);
    }
    enabled_.disable();
  }

  const stall_reason_table& stall_reasons() const noexcept { return reasons_; }
  // The sampling period in effect, 2^n cycles (0 when CUPTI would not say).
  std::uint32_t period_log2() const noexcept { return period_log2_; }

  void start() {
    auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingStartParams, context_);
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPCSamplingStart(&p));
    running_ = true;
  }
  void stop() {
    auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingStopParams, context_);
    running_ = false;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPCSamplingStop(&p));
  }

  // Every record CUPTI holds, appended to `out`. stop() has already flushed the range into the configured
  // buffer (cupti_pcsampling.h: the data is flushed "after every range end i.e. cuptiPCSamplingStop()"), so
  // that buffer is read first; then cuptiPCSamplingGetData once, and again while CUPTI says PCs remain.
  void drain(std::vector<drained_pc>& out, drained_totals& totals) {
    (void)take(out, totals);
    // Bounded: a CUPTI that kept saying "more remain" without handing any over must not hang the caller.
    for (int round = 0, empty = 0; empty < 100; ++round) {
      if (round > 0 && data_.remainingNumPcs == 0) break;
      auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingGetDataParams, context_);
      p.pcSamplingData = &data_;
      const CUptiResult s = cuptiPCSamplingGetData(&p);
      if (s == CUPTI_ERROR_OUT_OF_MEMORY) totals.hardware_buffer_full = true;
      else NAPKIN_DETAIL_PROFILER_CHECK(s);
      if (!take(out, totals)) ++empty;
    }
  }

  // Disables sampling (CUPTI copies what it still holds into the buffer, which is then read) and appends
  // those last records. Idempotent; the destructor calls it quietly.
  void disable(std::vector<drained_pc>& out, drained_totals& totals) {
    if (enabled_.context == nullptr) return;
    auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingDisableParams, context_);
    enabled_.context = nullptr;
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiPCSamplingDisable(&p));
    (void)take(out, totals);
  }

 private:
  void allocate(std::size_t pcs, std::size_t reasons) {
    pc_data_.assign(pcs, CUpti_PCSamplingPCData{});
    stall_data_.assign(pcs * (reasons == 0 ? 1 : reasons), CUpti_PCSamplingStallReason{});
    for (std::size_t i = 0; i < pcs; ++i) {
      pc_data_[i].size = sizeof(CUpti_PCSamplingPCData);
      pc_data_[i].stallReason = stall_data_.data() + i * (reasons == 0 ? 1 : reasons);
    }
    data_ = CUpti_PCSamplingData{};
    data_.size = sizeof(CUpti_PCSamplingData);
    data_.collectNumPcs = pcs;
    data_.pPcData = pc_data_.data();
  }

  // Copies the buffer's records out; false when it held none.
  bool take(std::vector<drained_pc>& out, drained_totals& totals) {
    totals.total_samples += data_.totalSamples;
    totals.dropped_samples += data_.droppedSamples;
    totals.non_user_samples += data_.nonUsrKernelsTotalSamples;
    if (data_.hardwareBufferFull != 0) totals.hardware_buffer_full = true;
    const std::size_t n = data_.totalNumPcs;
    for (std::size_t i = 0; i < n && i < pc_data_.size(); ++i) {
      const CUpti_PCSamplingPCData& pc = pc_data_[i];
      drained_pc d;
      if (pc.functionName != nullptr) d.symbol = pc.functionName;
      d.pc_offset = pc.pcOffset;
      d.cubin_crc = pc.cubinCrc;
      for (std::size_t k = 0; k < pc.stallReasonCount; ++k)
      {
        // Copies of the packed fields (CUPTI's structs are packed: no reference may bind to them).
        const std::uint32_t index = pc.stallReason[k].pcSamplingStallReasonIndex;
        const std::uint64_t samples = pc.stallReason[k].samples;
        d.stalls.emplace_back(reasons_.name_of(index), samples);
      }
      out.push_back(std::move(d));
    }
    totals.pc_records += n;
    if (n > 0) ++totals.drains;
    data_.totalNumPcs = 0;
    data_.totalSamples = data_.droppedSamples = data_.nonUsrKernelsTotalSamples = 0;
    data_.hardwareBufferFull = 0;
    return n > 0;
  }

  std::uint32_t read_period() noexcept {
    CUpti_PCSamplingConfigurationInfo i{};
    i.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingConfigurationInfoParams, context_);
    p.numAttributes = 1;
    p.pPCSamplingConfigurationInfo = &i;
    if (cuptiPCSamplingGetConfigurationAttribute(&p) != CUPTI_SUCCESS) return 0;
    return i.attributeData.samplingPeriodData.samplingPeriod;
  }

  // Disables sampling when destroyed while still enabled. Declared last, so destroyed first: CUPTI's
  // disable writes its last records into the buffer, which must still exist.
  struct enabled_guard {
    CUcontext context = nullptr;
    enabled_guard() = default;
    enabled_guard(const enabled_guard&) = delete;
    enabled_guard& operator=(const enabled_guard&) = delete;
    ~enabled_guard() { disable(); }
    void disable() noexcept {
      if (context == nullptr) return;
      auto p = NAPKIN_DETAIL_PC_PARAMS(CUpti_PCSamplingDisableParams, context);
      context = nullptr;
      (void)cuptiPCSamplingDisable(&p);  // nothing useful to do with a failure in a destructor
    }
  };

  CUcontext context_ = nullptr;
  bool running_ = false;
  std::uint32_t period_log2_ = 0;
  stall_reason_table reasons_;
  std::vector<CUpti_PCSamplingPCData> pc_data_;
  std::vector<CUpti_PCSamplingStallReason> stall_data_;
  CUpti_PCSamplingData data_{};
  enabled_guard enabled_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE

#undef NAPKIN_DETAIL_PC_PARAMS
