// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/drain_plan.hpp — how often the monitor's thread empties PM sampling's hardware buffer, on
// what schedule, and how many samples its counter-data image holds, from the settings. Plain C++17; compiles
// without CUDA.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "napkin/monitor/settings.hpp"

NAPKIN_BEGIN_NAMESPACE

struct drain_plan {
  // A sample of the monitor's set takes at least ~128 KiB of the hardware buffer on an H200
  // (docs/monitor.md), so the buffer's fill time is its size over that, times the interval.
  static constexpr std::uint64_t buffer_bytes_per_sample = 128u << 10;
  static constexpr std::size_t steps_per_drain = 16;  // a drain decodes at most this many images
  static constexpr std::uint64_t max_samples_per_drain = 50;
  static constexpr std::uint64_t min_samples_per_decode = 16, max_samples_per_decode = 4096;  // one image
  // Windows older than this are attributed (a kernel's record arrives after it ends, within a drain or two).
  static constexpr std::uint64_t settle_lag_ns = 2'000'000'000;

  std::uint64_t period_ns = 100'000'000;  // between drains
  std::uint32_t samples_per_decode = 32;  // the counter-data image's capacity in samples (decodes append)
};

// Drains come every max_samples_per_drain samples, at most every 100 ms and at least 2 ms apart, and sooner
// when a quarter of the buffer's fill time is shorter; settings.drain_period_ns overrides it. Why the sample
// count: on an H200 (CUDA 13.0), PM sampling returned runs of samples without a usable time when a drain
// found more than ~100 samples waiting (25 and 100 ms drains at 200 us samples: 67-68 such samples per
// accuracy run, SGEMM and a reduction unread) and next to none at 10 ms (50 samples: 1-7, every kernel
// read); docs/monitor.md.
//
// The counter-data image holds what the hardware buffer holds at ~128 KiB a sample (`buffer / 128 KiB + 1`,
// 16-4,096 samples), and decodes append to it (pm_sampler.hpp). Why: a decode that fills its image loses
// samples (on an H200 a decode of 3,313 waiting samples into one image kept all of them; into 256-sample
// images, 355), and a decoder that falls behind (CUPTI's decode and evaluation cost 0.2-0.3 ms of CPU a
// sample there at 200 us, more at longer intervals) finds up to what the buffer holds. An image takes ~92 KB
// a sample on an H200 (23.7 MB for the default 32 MiB buffer's 257; 379 MB for 4,096) and is initialized
// again only when what waits might not fit in its room. Records can be smaller than 128 KiB (a 512 MiB
// buffer held 6,118 samples of 200 us, ~88 KB each; the default 32 MiB then holds ~380), so a decoder more
// than the image behind (a quarter second at the default 1 ms) can still fill it: the trade of host memory
// for that case. Such a decode is counted (diagnostics()) and its missing samples become dropped windows
// (sample_timeline.hpp). Drains come on a fixed schedule (next_drain_due), so one that keeps up finds a
// period's samples. `s` must be valid (validate_monitor_settings).
inline drain_plan plan_drains(const monitor_settings& s) {
  drain_plan plan;
  const double fill_ns = static_cast<double>(s.hardware_buffer_bytes) /
                         static_cast<double>(drain_plan::buffer_bytes_per_sample) * static_cast<double>(s.interval_ns);
  const double by_count = static_cast<double>(drain_plan::max_samples_per_drain) * static_cast<double>(s.interval_ns);
  plan.period_ns = static_cast<std::uint64_t>(std::clamp(std::min(fill_ns / 4, by_count), 2e6, 100e6));
  if (s.drain_period_ns > 0) plan.period_ns = s.drain_period_ns;
  const std::uint64_t buffer_samples = s.hardware_buffer_bytes / drain_plan::buffer_bytes_per_sample + 1;
  plan.samples_per_decode =
      static_cast<std::uint32_t>(std::clamp<std::uint64_t>(buffer_samples, drain_plan::min_samples_per_decode,
                                                           drain_plan::max_samples_per_decode));
  return plan;
}

// The next drain's deadline after one that was due at `due_ns` and finished at `now_ns`: a period after the
// last deadline, so the drains' own work does not stretch the period (and with it the samples a drain
// finds). A drain that ran past its successor's deadline is followed at once and the schedule restarts from
// there: a decoder slower than the sampling then drains back to back on one core, which is what keeps the
// hardware buffer from overflowing; sleeping would only let it fill. The sum saturates (a period set by hand
// near 2^64 ns must not wrap into the past).
constexpr std::uint64_t next_drain_due(std::uint64_t due_ns, std::uint64_t now_ns, std::uint64_t period_ns) noexcept {
  const std::uint64_t next = period_ns > UINT64_MAX - due_ns ? UINT64_MAX : due_ns + period_ns;
  return next >= now_ns ? next : now_ns;
}

namespace detail {
inline std::uint64_t steady_now_ns() noexcept {  // the clock of the monitor's schedules
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
}  // namespace detail

// When the monitor samples under settings.sample_for_ns / sample_every_ns: the first `for` of every `every`,
// counted from the first kernel the monitor sees (kernels_seen), so that a program's start-up (CUDA's and its
// libraries' initialization, often longer than a stretch) does not take the first stretch; until a kernel is
// seen, only the first `for` after the start. Always when both are 0. The monitor's thread asks at each drain
// and starts or stops the sampler when the answer changes, so a stretch begins and ends within a drain period.
class sampling_schedule {
 public:
  sampling_schedule() = default;
  sampling_schedule(const monitor_settings& s, std::uint64_t start_ns)
      : for_(s.sample_for_ns), every_(s.sample_every_ns), start_(start_ns) {}
  bool always() const noexcept { return every_ == 0; }
  bool anchored() const noexcept { return anchored_ || always(); }
  // The first call anchors the schedule at `now_ns`; later calls change nothing.
  void kernels_seen(std::uint64_t now_ns) noexcept {
    if (!anchored_) start_ = std::max(start_, now_ns);
    anchored_ = true;
  }
  bool on_at(std::uint64_t now_ns) const noexcept {
    if (always() || now_ns < start_) return true;
    if (!anchored_) return now_ns - start_ < for_;
    return (now_ns - start_) % every_ < for_;
  }

 private:
  std::uint64_t for_ = 0, every_ = 0, start_ = 0;
  bool anchored_ = false;
};

NAPKIN_END_NAMESPACE
