// SPDX-License-Identifier: Apache-2.0
// What the PM-sampling probes in benchmarks/device share: a check that exits on the first failure (a probe has
// nothing to recover), the monitor's seven base metrics, and the GPU start and end of every kernel from CUPTI's
// CONCURRENT_KERNEL activity records, by name.
#pragma once

#include <cupti_activity.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "napkin/monitor/pm_sampler.hpp"

#define PROBE_CHECK(x)                                                    \
  do {                                                                    \
    if ((x) != 0) {                                                       \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x); \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

namespace probe {

// The seven metrics every chip's monitor set starts with (the probes' measurements before the SM inputs).
inline std::vector<std::string> base_metrics(const std::string& chip) {
  std::vector<std::string> m = napkin::detail::monitor_metrics(chip);
  m.resize(napkin::detail::monitor_base_metric_count);
  return m;
}

struct kernel_span {
  std::string name;
  std::uint64_t start = 0, end = 0;  // CUPTI's timestamp clock, ns
};

// Every kernel's span, from CUPTI's activity records (enable_kernel_spans(), then flush_kernel_spans()).
class kernel_spans {
 public:
  static kernel_spans& instance() {
    static kernel_spans s;
    return s;
  }
  void enable() {
    PROBE_CHECK(cuptiActivityRegisterCallbacks(&on_request, &on_complete));
    PROBE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  }
  std::vector<kernel_span> flush() {
    PROBE_CHECK(cuptiActivityFlushAll(1));
    const std::lock_guard<std::mutex> lock(mutex_);
    return spans_;
  }

 private:
  static void CUPTIAPI on_request(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *size = std::size_t(8) << 20;
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, *size));
    *max_records = 0;
  }
  static void CUPTIAPI on_complete(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
    CUpti_Activity* r = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
      if (r->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel9*>(r);
      const std::lock_guard<std::mutex> lock(instance().mutex_);
      instance().spans_.push_back({k->name ? k->name : "", k->start, k->end});
    }
    std::free(buffer);
  }
  std::mutex mutex_;
  std::vector<kernel_span> spans_;
};

}  // namespace probe
