// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/launches.hpp's kernel launches from CUPTI's activity records: the function bodies. Included by
// launches.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/profiler/launches.hpp"
#include "napkin/cupti/activity.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/occupancy/compute_capability.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

NAPKIN_DETAIL_FUNC void add_device_facts(kernel_launch& l, int device) noexcept {
  int major = 0, minor = 0, sms = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: the launch keeps 0.0 and 0 SMs ("unknown")
    return;
  }
  if (major >= 0 && major <= detail::max_cc_major && minor >= 0 && minor <= 9) l.cc = compute_capability{major, minor};
  l.sm_count = sms;
}

NAPKIN_DETAIL_FUNC std::vector<kernel_activity> launches_between(std::vector<kernel_activity> records,
                                                                 std::uint64_t from, std::uint64_t to,
                                                                 bool untimed_inside) {
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const kernel_activity& k) {
                                 if (k.start_ns == 0 && k.end_ns == 0) return !untimed_inside;
                                 return k.start_ns < from || k.start_ns >= to;
                               }),
                records.end());
  std::stable_sort(records.begin(), records.end(), [](const kernel_activity& a, const kernel_activity& b) {
    return a.correlation < b.correlation;
  });
  records.erase(std::unique(records.begin(), records.end(),
                            [](const kernel_activity& a, const kernel_activity& b) {
                              return a.correlation == b.correlation;
                            }),
                records.end());
  return records;
}

NAPKIN_DETAIL_FUNC void attach_launches(std::vector<sol_report>& reports, const std::vector<kernel_activity>& launches) {
  if (launches.size() < reports.size()) return;  // fewer records than ranges: which is missing is unknown
  for (std::size_t i = 0; i < reports.size(); ++i)
    if (reports[i].name != launches[i].name && reports[i].name.rfind("kernel #", 0) != 0) return;
  for (std::size_t i = 0; i < reports.size(); ++i) reports[i].launch = launches[i].launch;
}

NAPKIN_DETAIL_FUNC launch_recording::launch_recording(int device, bool kernel_replay)
    : device_(device), kernel_replay_(kernel_replay), held_(activity_collector::instance().hold_launches()) {}

NAPKIN_DETAIL_FUNC launch_recording::~launch_recording() {
  if (held_) activity_collector::instance().release_launches();
}

NAPKIN_DETAIL_FUNC void launch_recording::begin() {
  if (held_) {
    activity_collector::flush_forced();
    (void)activity_collector::instance().take_launches(static_cast<std::uint32_t>(device_));
  }
  (void)cuptiGetTimestamp(&from_);
}

NAPKIN_DETAIL_FUNC void launch_recording::end() { (void)cuptiGetTimestamp(&to_); }

NAPKIN_DETAIL_FUNC std::vector<kernel_activity> launch_recording::take() {
  if (!held_) return {};
  activity_collector::flush_forced();
  std::vector<kernel_activity> out =
      launches_between(activity_collector::instance().take_launches(static_cast<std::uint32_t>(device_)), from_, to_,
                       kernel_replay_);
  activity_collector::instance().release_launches();
  held_ = false;
  for (kernel_activity& k : out) add_device_facts(k.launch, device_);
  return out;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
