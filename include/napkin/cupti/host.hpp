// SPDX-License-Identifier: Apache-2.0
// The host half of CUPTI's profiler: metric validation, pass planning and counter evaluation.
//
// None of this needs a GPU or a driver (CUPTI's host API only loads libnvperf_host), so a metric list can be
// checked and its cost in replay passes known for any supported chip, in CI or before a run. Images from
// outside are checked before CUPTI reads them (counter_images.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/cupti/counter_images.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/metrics.hpp"

NAPKIN_BEGIN_NAMESPACE

// The chip names this CUPTI can plan for ("GH100" for H100/H200, "GA100" for A100, ...).
inline std::vector<std::string> supported_chips() {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetSupportedChips(&p));
  return {p.ppChipNames, p.ppChipNames + p.numChips};
}

namespace detail {

// A metric name as it can be printed: control characters (an embedded NUL, say) as \0 or \xNN.
inline std::string printable_metric_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0) {
      out += "\\0";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// One CUPTI host object (chip + optional counter-availability image). Config images accumulate metrics in
// it, so each metric list gets its own.
class host_object {
 public:
  // `type`: the range profiler's configurations (napkin::profiler) or PM sampling's (napkin::monitor).
  explicit host_object(const std::string& chip, const std::vector<std::uint8_t>& availability = {},
                       CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER) {
    if (!availability.empty()) check_counter_availability_image(availability);
    const std::vector<std::string> chips = supported_chips();
    if (std::find(chips.begin(), chips.end(), chip) == chips.end()) {
      std::string list;
      for (const auto& c : chips) list += (list.empty() ? "" : " ") + c;
      raise_profiler_error(CUPTI_ERROR_INVALID_CHIP_NAME, "napkin: chip \"" + printable_metric_name(chip) +
                                                              "\" is not supported by this CUPTI; supported: " + list);
    }
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    p.profilerType = type;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostInitialize(&p));
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

  bool is_metric(const std::string& name) const { return properties(name).has_value(); }

  // The metric's type, when CUPTI knows the name (with or without a rollup).
  std::optional<CUpti_MetricType> properties(const std::string& name) const {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    p.pHostObject = object_;
    p.pMetricName = name.c_str();
    if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS) return std::nullopt;
    return p.metricType;
  }

  std::set<std::string> base_metrics() const {
    std::set<std::string> all;
    for (CUpti_MetricType t : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
      auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
      p.pHostObject = object_;
      p.metricType = t;
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetBaseMetrics(&p));
      all.insert(p.ppMetricNames, p.ppMetricNames + p.numMetrics);
    }
    return all;
  }

  // The rollup/submetric suffixes a base metric takes (".sum", ".avg.pct_of_peak_sustained_elapsed", ...).
  std::vector<std::string> suffixes(const std::string& base, CUpti_MetricType type) const {
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
    p.pHostObject = object_;
    p.metricType = type;
    p.pMetricName = base.c_str();
    if (cuptiProfilerHostGetSubMetrics(&p) != CUPTI_SUCCESS) return {};
    return {p.ppSubMetrics, p.ppSubMetrics + p.numOfSubmetrics};
  }

  // Adds metrics to this object's configuration. A refusal leaves the object unusable (CUPTI answers
  // CUPTI_ERROR_UNKNOWN to every later call), so callers make a new one after a failure.
  CUptiResult add_metrics(std::vector<const char*> names) {
    auto add = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = object_;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&add);
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

// napkin's one call of cuptiProfilerHostEvaluateToGpuValues, for the range profiler (a range of a counter-data
// image) and PM sampling (a decoded sample) alike: the values of `metrics` at `index`, in their order, into
// `values` (metrics.size() of them). `host` is the object the metrics were configured in.
inline void evaluate_to_gpu_values(const host_object& host, const std::uint8_t* counter_data, std::size_t size,
                                   std::size_t index, const std::vector<std::string>& metrics, double* values) {
  auto names = c_names(metrics);
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  p.pHostObject = host.get();
  p.pCounterDataImage = counter_data;
  p.counterDataImageSize = size;
  p.rangeIndex = index;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  p.pMetricValues = values;
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostEvaluateToGpuValues(&p));
}
inline void evaluate_to_gpu_values(const host_object& host, const std::vector<std::uint8_t>& counter_data,
                                   std::size_t index, const std::vector<std::string>& metrics, double* values) {
  evaluate_to_gpu_values(host, counter_data.data(), counter_data.size(), index, metrics, values);
}

// What kind of metric it is, with its article: "a counter".
constexpr std::string_view describe(CUpti_MetricType t) noexcept {
  switch (t) {
    case CUPTI_METRIC_TYPE_COUNTER: return "a counter";
    case CUPTI_METRIC_TYPE_RATIO: return "a ratio";
    case CUPTI_METRIC_TYPE_THROUGHPUT: return "a throughput";
    default: return "a metric";
  }
}

// "e.g. .sum, .avg, .max" from a base metric's suffixes: the plain rollups first.
inline std::string some_suffixes(const std::vector<std::string>& all) {
  std::vector<std::string> shown;
  for (const auto& s : all)
    if (s.find('.', 1) == std::string::npos && shown.size() < 5) shown.push_back(s);
  for (const auto& s : all)
    if (shown.size() < 3 && std::find(shown.begin(), shown.end(), s) == shown.end()) shown.push_back(s);
  std::string out;
  for (const auto& s : shown) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The suffix ncu's sections use for this kind of metric, when the base takes it.
inline std::string preferred_suffix(CUpti_MetricType type, const std::vector<std::string>& all) {
  const char* usual = type == CUPTI_METRIC_TYPE_THROUGHPUT ? ".avg.pct_of_peak_sustained_elapsed"
                      : type == CUPTI_METRIC_TYPE_RATIO    ? ".pct"
                                                           : ".sum";
  if (all.empty() || std::find(all.begin(), all.end(), usual) != all.end()) return usual;
  return all.front();
}

}  // namespace detail

// A metric name the chip does not know, and why.
struct invalid_metric {
  std::string name;
  std::string reason;
};

namespace detail {

// Every name of `metrics` that CUPTI would refuse in a configuration, with the reason. A name passes only
// if CUPTI accepts it in a configuration of its own (on a scratch host object), so whatever passes here also
// plans: CUPTI's metric lookup alone accepts a base name without a rollup ("dram__bytes"), which the
// configuration then refuses with a bare CUPTI_ERROR_INVALID_PARAMETER.
inline std::vector<invalid_metric> find_invalid_metrics(const host_object& host, const std::string& chip,
                                                         const std::vector<std::uint8_t>& availability,
                                                         const std::vector<std::string>& metrics) {
  std::vector<invalid_metric> bad;
  std::set<std::string> bases;  // filled on first need (3,600 names on GH100)
  auto all_bases = [&]() -> const std::set<std::string>& {
    if (bases.empty()) bases = host.base_metrics();
    return bases;
  };
  std::unique_ptr<host_object> scratch;
  std::set<std::string> seen;
  for (const auto& m : metrics) {
    const std::string shown = printable_metric_name(m);
    auto refuse = [&](std::string why) { bad.push_back({m, std::move(why)}); };
    if (m.empty()) {
      refuse("an empty name");
      continue;
    }
    if (const auto nul = m.find('\0'); nul != std::string::npos) {
      refuse("contains a NUL character at byte " + std::to_string(nul) + " (CUPTI would read only \"" +
             m.substr(0, nul) + "\")");
      continue;
    }
    if (const auto ctrl = std::find_if(m.begin(), m.end(),
                                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
        ctrl != m.end()) {
      refuse("contains a control character at byte " + std::to_string(ctrl - m.begin()));
      continue;
    }
    if (!seen.insert(m).second) {
      refuse("named twice (each metric is collected once per set)");
      continue;
    }
    if (m.rfind("breakdown:", 0) == 0) {
      refuse("breakdown: is an ncu feature, not a CUPTI metric; ask for the sub-metrics instead");
      continue;
    }
    if (m.rfind("launch__", 0) == 0) {
      refuse("launch__ values are computed by ncu from the launch, not collected by CUPTI");
      continue;
    }
    const auto type = host.properties(m);
    if (!type) {
      // The longest base metric the name starts with ("SM_A.TriageCompute.l1tex__throughput" has dots inside).
      std::string base;
      for (const auto& b : all_bases())
        if (b.size() > base.size() && m.size() > b.size() && m.compare(0, b.size(), b) == 0 && m[b.size()] == '.')
          base = b;
      if (!base.empty()) {
        const auto base_type = host.properties(base);
        const std::string kind(base_type ? describe(*base_type) : "a metric");
        refuse("\"" + base + "\" exists on " + chip + " but not with the rollup/submetric \"" + m.substr(base.size()) +
               "\" (" + kind + "; it takes " +
               (base_type ? some_suffixes(host.suffixes(base, *base_type)) : std::string(".sum, .avg, ...")) +
               ", ...)");
        continue;
      }
      // A base metric whose name ends with a prefix of m: "TriageCompute.l1tex__throughput.avg..." is
      // "SM_A.TriageCompute.l1tex__throughput" on GH100.
      std::string hint;
      for (std::size_t dot = m.find('.'); dot != std::string::npos && hint.empty(); dot = m.find('.', dot + 1)) {
        const std::string head = m.substr(0, dot);
        for (const auto& b : all_bases())
          if (b.size() > head.size() && b.compare(b.size() - head.size(), head.size(), head) == 0 &&
              b[b.size() - head.size() - 1] == '.') {
            hint = "; did you mean \"" + b + m.substr(dot) + "\"?";
            break;
          }
      }
      refuse("no metric \"" + m.substr(0, m.find('.')) + "\" on " + chip + hint);
      continue;
    }
    // CUPTI knows the name; will a configuration take it?
    if (!scratch) scratch = std::make_unique<host_object>(chip, availability);
    const CUptiResult added = scratch->add_metrics({m.c_str()});
    if (added == CUPTI_SUCCESS) continue;
    scratch.reset();  // a refusal leaves the object unusable
    if (all_bases().count(m) != 0) {
      const auto suffixes = host.suffixes(m, *type);
      const std::string usual = preferred_suffix(*type, suffixes);
      refuse("\"" + m + "\" is " + std::string(describe(*type)) + "'s base name: it needs a rollup suffix such as " +
             usual + " (\"" + m + usual + "\"; it takes " + some_suffixes(suffixes) + ", ...)");
    } else {
      refuse("CUPTI knows the name but refuses it in a configuration (" +
             describe_cupti_failure("cuptiProfilerHostConfigAddMetrics", added) + ")");
    }
  }
  return bad;
}

}  // namespace detail

// Which of `metrics` the chip cannot collect (empty: all valid), each with the reason. What this accepts,
// plan_passes and the profiler accept too. Host-only.
inline std::vector<invalid_metric> check_metrics(const std::string& chip, const std::vector<std::string>& metrics) {
  const detail::host_object host(chip);
  return detail::find_invalid_metrics(host, chip, {}, metrics);
}

// The most hardware metrics one pass can hold on a chip (CUPTI's theoretical bound).
inline std::size_t max_metrics_per_pass(const std::string& chip) {
  auto p = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetMaxNumHardwareMetricsPerPass(&p));
  return p.maxMetricsPerPass;
}

namespace detail {
// The configuration image of a host object's metrics (what the GPU side is given).
inline std::vector<std::uint8_t> config_image(const host_object& host) {
  auto size = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host.get();
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<std::uint8_t> image(size.configImageSize);
  auto get = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  get.pHostObject = host.get();
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetConfigImage(&get));
  return image;
}
// The passes a configuration image needs.
inline std::size_t config_passes(const std::vector<std::uint8_t>& image) {
  auto passes = NAPKIN_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = image.size();
  passes.pConfigImage = const_cast<std::uint8_t*>(image.data());  // CUPTI only reads it
  NAPKIN_DETAIL_PROFILER_CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
  return passes.numOfPasses;
}
}  // namespace detail

// A metric set compiled for one chip: the config image the GPU side needs, how many replay passes it
// costs, and the evaluation of collected counter data back into metric values.
class metric_config {
 public:
  metric_config(const std::string& chip, metric_set set, const std::vector<std::uint8_t>& availability = {})
      : chip_(chip), set_(std::move(set)), host_(std::make_unique<detail::host_object>(chip, availability)) {
    if (set_.metrics.empty())
      detail::raise_profiler_error("napkin: metric set \"" + set_.name + "\" has no metrics");
    // Name every bad metric with its reason, not just CUPTI's first complaint.
    const auto bad = detail::find_invalid_metrics(*host_, chip, availability, set_.metrics);
    if (!bad.empty()) {
      std::string why;
      for (const auto& b : bad) why += "\n  " + detail::printable_metric_name(b.name) + ": " + b.reason;
      detail::raise_profiler_error(CUPTI_ERROR_INVALID_METRIC_NAME, "napkin: metric set \"" + set_.name +
                                                                        "\" has metrics " + chip +
                                                                        " cannot collect:" + why);
    }
    // All at once: CUPTI schedules the passes for the whole list (adding one by one costs more passes).
    if (const CUptiResult s = host_->add_metrics(detail::c_names(set_.metrics)); s != CUPTI_SUCCESS) {
      std::string names;
      for (const auto& m : set_.metrics) names += "\n  " + m;
      detail::raise_profiler_error(s, "napkin: metric set \"" + set_.name + "\": each metric is valid on " + chip +
                                          " alone, but CUPTI refuses them together (" +
                                          describe_cupti_failure("cuptiProfilerHostConfigAddMetrics", s) +
                                          "):" + names);
    }
    image_ = detail::config_image(*host_);
    passes_ = detail::config_passes(image_);
  }

  const std::string& chip() const noexcept { return chip_; }
  const metric_set& set() const noexcept { return set_; }
  // Replay passes for one nesting level (napkin uses one).
  std::size_t passes() const noexcept { return passes_; }
  const std::vector<std::uint8_t>& image() const noexcept { return image_; }

  // Ranges recorded in a decoded counter-data image.
  static std::size_t range_count(const std::vector<std::uint8_t>& counter_data) {
    detail::check_counter_data_image(counter_data, "range_count");
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerGetCounterDataInfo(&p));
    return p.numTotalRanges;
  }

  static std::string range_name(const std::vector<std::uint8_t>& counter_data, std::size_t index) {
    detail::check_counter_data_image(counter_data, "range_name");
    auto p = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    p.rangeIndex = index;
    p.rangeDelimiter = "/";
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiRangeProfilerCounterDataGetRangeInfo(&p));
    return p.rangeName != nullptr ? std::string(p.rangeName) : std::string();
  }

  // The set's metric values for one range, in the set's order. A range past those recorded is refused where
  // CUPTI can count them (with a driver); without one, CUPTI answers NaN for it.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const {
    detail::check_counter_data_image(counter_data, "evaluate");
    auto info = NAPKIN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    if (cuptiRangeProfilerGetCounterDataInfo(&info) == CUPTI_SUCCESS && range >= info.numTotalRanges)
      detail::raise_profiler_error("napkin: evaluate: range " + std::to_string(range) + " of a counter-data image "
                                   "that holds " + std::to_string(info.numTotalRanges) + " range(s)");
    std::vector<double> values(set_.metrics.size());
    detail::evaluate_to_gpu_values(*host_, counter_data, range, set_.metrics, values.data());
    return values;
  }

 private:
  std::string chip_;
  metric_set set_;
  std::unique_ptr<detail::host_object> host_;
  std::vector<std::uint8_t> image_;
  std::size_t passes_ = 0;
};

namespace detail {
// The set that runs on `chip`: the set itself where it applies, else its fallback (metrics.hpp).
inline metric_set set_for_chip(metric_set set, const std::string& chip) {
  if (applies_to(set, chip)) return set;
  if (set.fallback) {
    metric_set fallback = set.fallback();
    if (applies_to(fallback, chip)) return fallback;
  }
  std::string chips;
  for (const auto& c : set.chips) chips += (chips.empty() ? "" : ", ") + c;
  raise_profiler_error("napkin: metric set \"" + set.name + "\" is for " + chips + " only and has no fallback; this GPU is " +
                       chip);
}
}  // namespace detail

// What a metric set will cost on a chip, asked in advance (no GPU needed). `set` names the set that would
// run: a chip-specific set's fallback on other chips (sol_fast on GB100 plans as sol).
struct pass_plan {
  std::string chip;
  std::string set;
  std::size_t metrics = 0;
  std::size_t passes = 0;
};

inline pass_plan plan_passes(const std::string& chip, const metric_set& set) {
  const metric_config config(chip, detail::set_for_chip(set, chip));
  return {chip, config.set().name, config.set().metrics.size(), config.passes()};
}

NAPKIN_END_NAMESPACE
