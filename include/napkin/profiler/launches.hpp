// SPDX-License-Identifier: Apache-2.0
// Each measured kernel's launch (grid, block, registers, shared memory: napkin::kernel_launch) from CUPTI's
// kernel activity records (cupti/activity.hpp), with the device's compute capability and SM count: recorded
// around the work (launch_recording), put in launch order, and attached to per_kernel()'s reports where they
// line up with the ranges (attach_launches). measure() takes its range's one launch through pass_recording
// (pass.hpp). The occupancy section (profiler/sections/occupancy.hpp) reads them.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <vector>

#include "napkin/cupti/activity_records.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The compute capability and SM count of device `device` into `l` (what the record lacks, occupancy needs).
void add_device_facts(kernel_launch& l, int device) noexcept;

// The kernels of `records` that started in [from, to), each once (a kernel CUPTI replays may be recorded
// again under the same correlation id), in launch order (correlation ids grow with every API call). Under
// CUPTI's kernel replay every kernel record comes without timestamps (start = end = 0) and without its
// shared-memory configuration (H200, CUDA 13.0: docs/occupancy.md): `untimed_inside` counts those as inside
// (the caller discarded what came before it began); elsewhere they are some earlier kernel replay's, late.
std::vector<kernel_activity> launches_between(std::vector<kernel_activity> records, std::uint64_t from,
                                              std::uint64_t to, bool untimed_inside = false);

// per_kernel(): each report gets the launch of its kernel, the i-th range the i-th launch, where the
// launches line up with the ranges (same name, or a range named "kernel #i" when names were unavailable).
// Reports that do not line up get none: a launch next to the wrong kernel would be a silently wrong number.
void attach_launches(std::vector<sol_report>& reports, const std::vector<kernel_activity>& launches);

// The launches of the kernels started while it records (begin() to end()), from CUPTI's kernel activity
// records, with the device's compute capability and SM count. Nothing when CUPTI refuses the records.
class launch_recording {
 public:
  // `kernel_replay`: CUPTI's kernel replay runs the work (its records come untimed: launches_between).
  launch_recording(int device, bool kernel_replay);
  launch_recording(const launch_recording&) = delete;
  launch_recording& operator=(const launch_recording&) = delete;
  ~launch_recording();
  // Drops the records of earlier work first (a kernel replay's can arrive late).
  void begin();
  // After the recorded work was synchronized.
  void end();
  std::vector<kernel_activity> take();

 private:
  int device_;
  bool kernel_replay_;
  bool held_ = false;
  std::uint64_t from_ = 0, to_ = 0;
};

}  // namespace detail
NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/launches_impl.hpp"
#endif
