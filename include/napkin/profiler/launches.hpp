// SPDX-License-Identifier: Apache-2.0
// Each measured kernel's launch (grid, block, registers, shared memory: napkin::kernel_launch) from CUPTI's
// kernel activity records (cupti/activity.hpp), with the device's compute capability and SM count: recorded
// around the work (launch_recording), put in launch order, and attached to per_kernel()'s reports where they
// line up with the ranges (attach_launches). measure() takes its range's one launch through pass_recording
// (pass.hpp). The occupancy section (profiler/sections/occupancy.hpp) reads them.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/cupti/activity.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/occupancy/compute_capability.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The compute capability and SM count of device `device` into `l` (what the record lacks, occupancy needs).
inline void add_device_facts(kernel_launch& l, int device) noexcept {
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

// The kernels of `records` that started in [from, to), each once (a kernel CUPTI replays may be recorded
// again under the same correlation id), in launch order (correlation ids grow with every API call). Under
// CUPTI's kernel replay every kernel record comes without timestamps (start = end = 0) and without its
// shared-memory configuration (H200, CUDA 13.0: docs/occupancy.md): `untimed_inside` counts those as inside
// (the caller discarded what came before it began); elsewhere they are some earlier kernel replay's, late.
inline std::vector<kernel_activity> launches_between(std::vector<kernel_activity> records, std::uint64_t from,
                                                     std::uint64_t to, bool untimed_inside = false) {
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

// per_kernel(): each report gets the launch of its kernel, the i-th range the i-th launch, where the
// launches line up with the ranges (same name, or a range named "kernel #i" when names were unavailable).
// Reports that do not line up get none: a launch next to the wrong kernel would be a silently wrong number.
inline void attach_launches(std::vector<sol_report>& reports, const std::vector<kernel_activity>& launches) {
  if (launches.size() < reports.size()) return;  // fewer records than ranges: which is missing is unknown
  for (std::size_t i = 0; i < reports.size(); ++i)
    if (reports[i].name != launches[i].name && reports[i].name.rfind("kernel #", 0) != 0) return;
  for (std::size_t i = 0; i < reports.size(); ++i) reports[i].launch = launches[i].launch;
}

// The launches of the kernels started while it records (begin() to end()), from CUPTI's kernel activity
// records, with the device's compute capability and SM count. Nothing when CUPTI refuses the records.
class launch_recording {
 public:
  // `kernel_replay`: CUPTI's kernel replay runs the work (its records come untimed: launches_between).
  launch_recording(int device, bool kernel_replay)
      : device_(device), kernel_replay_(kernel_replay), held_(activity_collector::instance().hold_launches()) {}
  launch_recording(const launch_recording&) = delete;
  launch_recording& operator=(const launch_recording&) = delete;
  ~launch_recording() {
    if (held_) activity_collector::instance().release_launches();
  }
  // Drops the records of earlier work first (a kernel replay's can arrive late).
  void begin() {
    if (held_) {
      activity_collector::flush_forced();
      (void)activity_collector::instance().take_launches(static_cast<std::uint32_t>(device_));
    }
    (void)cuptiGetTimestamp(&from_);
  }
  // After the recorded work was synchronized.
  void end() { (void)cuptiGetTimestamp(&to_); }
  std::vector<kernel_activity> take() {
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

 private:
  int device_;
  bool kernel_replay_;
  bool held_ = false;
  std::uint64_t from_ = 0, to_ = 0;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
