// The host half of CUPTI's profiler: metric validation, pass planning and counter evaluation.
//
// None of this needs a GPU or a driver (CUPTI's host API only loads libnvperf_host), so a metric list can be
// checked and its cost in replay passes known for any supported chip, in CI or before a run.
#pragma once

#include "napkin/config.hpp"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/errors.hpp"
#include "napkin/profiler/metrics.hpp"

NAPKIN_BEGIN_NAMESPACE

// The chip names this CUPTI can plan for ("GH100" for H100/H200, "GA100" for A100, ...).
inline std::vector<std::string> supported_chips() {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
  detail::cupti_check(cuptiProfilerHostGetSupportedChips(&p), "cuptiProfilerHostGetSupportedChips");
  return {p.ppChipNames, p.ppChipNames + p.numChips};
}

namespace detail {

// One CUPTI host object (chip + optional counter-availability image). Config images accumulate metrics in
// it, so each metric list gets its own.
class host_object {
 public:
  explicit host_object(const std::string& chip, const std::vector<std::uint8_t>& availability = {}) {
    const std::vector<std::string> chips = supported_chips();
    if (std::find(chips.begin(), chips.end(), chip) == chips.end()) {
      std::string list;
      for (const auto& c : chips) list += (list.empty() ? "" : " ") + c;
      throw profiler_error(CUPTI_ERROR_INVALID_CHIP_NAME,
                           "napkin: chip \"" + chip + "\" is not supported by this CUPTI; supported: " + list);
    }
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    cupti_check(cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
    object_ = p.pHostObject;
  }
  host_object(const host_object&) = delete;
  host_object& operator=(const host_object&) = delete;
  ~host_object() {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    p.pHostObject = object_;
    (void)cuptiProfilerHostDeinitialize(&p);  // nothing useful to do with a failure in a destructor
  }
  CUpti_Profiler_Host_Object* get() const noexcept { return object_; }

  bool is_metric(const std::string& name) const {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    p.pHostObject = object_;
    p.pMetricName = name.c_str();
    return cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
  }

  std::set<std::string> base_metrics() const {
    std::set<std::string> all;
    for (CUpti_MetricType t : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
      p.pHostObject = object_;
      p.metricType = t;
      cupti_check(cuptiProfilerHostGetBaseMetrics(&p), "cuptiProfilerHostGetBaseMetrics");
      all.insert(p.ppMetricNames, p.ppMetricNames + p.numMetrics);
    }
    return all;
  }

 private:
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

inline std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  out.reserve(names.size());
  for (const auto& n : names) out.push_back(n.c_str());
  return out;
}

}  // namespace detail

// A metric name the chip does not know, and why.
struct invalid_metric {
  std::string name;
  std::string reason;
};

// Which of `metrics` the chip does not know (empty: all valid). Host-only.
inline std::vector<invalid_metric> check_metrics(const std::string& chip, const std::vector<std::string>& metrics) {
  detail::host_object host(chip);
  std::vector<invalid_metric> bad;
  std::set<std::string> bases;
  for (const auto& m : metrics) {
    if (host.is_metric(m)) continue;
    if (m.rfind("breakdown:", 0) == 0) {
      bad.push_back({m, "breakdown: is an ncu feature, not a CUPTI metric; ask for the sub-metrics instead"});
      continue;
    }
    if (m.rfind("launch__", 0) == 0) {
      bad.push_back({m, "launch__ values are computed by ncu from the launch, not collected by CUPTI"});
      continue;
    }
    if (bases.empty()) bases = host.base_metrics();
    const std::string base = m.substr(0, m.find('.'));
    if (bases.count(base) != 0)
      bad.push_back({m, "\"" + base + "\" exists on " + chip +
                            " but not with this rollup/submetric (counters take .sum/.avg/.min/.max[.submetric], "
                            "ratios .pct/.ratio, throughputs .avg.pct_of_peak_sustained_elapsed)"});
    else
      bad.push_back({m, "no metric \"" + base + "\" on " + chip});
  }
  return bad;
}

// The most hardware metrics one pass can hold on a chip (CUPTI's theoretical bound).
inline std::size_t max_metrics_per_pass(const std::string& chip) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  detail::cupti_check(cuptiProfilerHostGetMaxNumHardwareMetricsPerPass(&p),
                      "cuptiProfilerHostGetMaxNumHardwareMetricsPerPass");
  return p.maxMetricsPerPass;
}

// A metric set compiled for one chip: the config image the GPU side needs, how many replay passes it
// costs, and the evaluation of collected counter data back into metric values.
class metric_config {
 public:
  metric_config(const std::string& chip, metric_set set, const std::vector<std::uint8_t>& availability = {})
      : chip_(chip), set_(std::move(set)), host_(std::make_unique<detail::host_object>(chip, availability)) {
    if (set_.metrics.empty()) throw profiler_error("napkin: metric set \"" + set_.name + "\" has no metrics");
    std::vector<std::string> sorted = set_.metrics;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw profiler_error("napkin: metric set \"" + set_.name + "\" names a metric twice");
    std::string problems;
    for (const auto& m : set_.metrics)
      if (!host_->is_metric(m)) problems += "\n  " + m;
    if (!problems.empty()) {
      // Name every bad metric with its reason, not just CUPTI's first complaint.
      std::string why;
      for (const auto& b : check_metrics(chip, set_.metrics)) why += "\n  " + b.name + ": " + b.reason;
      throw profiler_error(CUPTI_ERROR_INVALID_METRIC_NAME,
                           "napkin: metric set \"" + set_.name + "\" has metrics unknown on " + chip + ":" + why);
    }
    auto names = detail::c_names(set_.metrics);
    auto add = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_->get();
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    detail::cupti_check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
    auto size = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host_->get();
    detail::cupti_check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    image_.resize(size.configImageSize);
    auto get = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    get.pHostObject = host_->get();
    get.configImageSize = image_.size();
    get.pConfigImage = image_.data();
    detail::cupti_check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
    auto num_passes = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    num_passes.configImageSize = image_.size();
    num_passes.pConfigImage = image_.data();
    detail::cupti_check(cuptiProfilerHostGetNumOfPasses(&num_passes), "cuptiProfilerHostGetNumOfPasses");
    passes_ = num_passes.numOfPasses;
  }

  const std::string& chip() const noexcept { return chip_; }
  const metric_set& set() const noexcept { return set_; }
  // Replay passes for one nesting level (napkin uses one).
  std::size_t passes() const noexcept { return passes_; }
  const std::vector<std::uint8_t>& image() const noexcept { return image_; }

  // Ranges recorded in a decoded counter-data image.
  static std::size_t range_count(const std::vector<std::uint8_t>& counter_data) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    detail::cupti_check(cuptiRangeProfilerGetCounterDataInfo(&p), "cuptiRangeProfilerGetCounterDataInfo");
    return p.numTotalRanges;
  }

  static std::string range_name(const std::vector<std::uint8_t>& counter_data, std::size_t index) {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    p.rangeIndex = index;
    p.rangeDelimiter = "/";
    detail::cupti_check(cuptiRangeProfilerCounterDataGetRangeInfo(&p), "cuptiRangeProfilerCounterDataGetRangeInfo");
    return p.rangeName != nullptr ? std::string(p.rangeName) : std::string();
  }

  // The set's metric values for one range, in the set's order.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const {
    auto names = detail::c_names(set_.metrics);
    std::vector<double> values(names.size());
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    p.pHostObject = host_->get();
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    p.rangeIndex = range;
    p.ppMetricNames = names.data();
    p.numMetrics = names.size();
    p.pMetricValues = values.data();
    detail::cupti_check(cuptiProfilerHostEvaluateToGpuValues(&p), "cuptiProfilerHostEvaluateToGpuValues");
    return values;
  }

 private:
  std::string chip_;
  metric_set set_;
  std::unique_ptr<detail::host_object> host_;
  std::vector<std::uint8_t> image_;
  std::size_t passes_ = 0;
};

// What a metric set will cost on a chip, asked in advance (no GPU needed).
struct pass_plan {
  std::string chip;
  std::string set;
  std::size_t metrics = 0;
  std::size_t passes = 0;
};

inline pass_plan plan_passes(const std::string& chip, const metric_set& set) {
  const metric_config config(chip, set);
  return {chip, set.name, set.metrics.size(), config.passes()};
}

NAPKIN_END_NAMESPACE
