// SPDX-License-Identifier: Apache-2.0
// What the PM-sampling probes in benchmarks/device share: a check that exits on the first failure (a probe has
// nothing to recover), the monitor's seven base metrics, the GPU start and end of every kernel from CUPTI's
// CONCURRENT_KERNEL activity records, by name, and a decoding thread.
#pragma once

#include <cupti_activity.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
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

// Decodes a sampler every `period` on a thread of its own between start() and stop(), handing each sample to
// `on_sample` (t0, t1, the values in the set's order) under one lock; stop() ends the sampler and decodes what it
// left. decode_cpu_s(): the CPU seconds the decodes took.
class background_decoder {
 public:
  using sink = std::function<void(std::uint64_t, std::uint64_t, const double*)>;
  background_decoder(napkin::detail::pm_sampler& sampler, sink on_sample,
                     std::chrono::milliseconds period = std::chrono::milliseconds(20))
      : sampler_(sampler), on_sample_(std::move(on_sample)), period_(period) {}
  background_decoder(const background_decoder&) = delete;
  background_decoder& operator=(const background_decoder&) = delete;
  ~background_decoder() {
    if (thread_.joinable()) stop();
  }
  void start() {
    sampler_.start();
    thread_ = std::thread([this] {
      while (!done_) {
        std::this_thread::sleep_for(period_);
        drain();
      }
    });
  }
  void stop() {
    if (!thread_.joinable()) return;  // never started, or stopped already
    done_ = true;
    thread_.join();
    sampler_.stop();
    drain();
  }
  double decode_cpu_s() const { return decode_cpu_s_; }

 private:
  void drain() {
    const std::lock_guard<std::mutex> lock(mutex_);
    const double c0 = napkin::detail::thread_cpu_seconds();
    sampler_.decode(on_sample_);
    decode_cpu_s_ += napkin::detail::thread_cpu_seconds() - c0;
  }
  napkin::detail::pm_sampler& sampler_;
  sink on_sample_;
  std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::atomic<bool> done_{false};
  std::thread thread_;
  double decode_cpu_s_ = 0;
};

}  // namespace probe
