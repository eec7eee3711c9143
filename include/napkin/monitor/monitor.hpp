// SPDX-License-Identifier: Apache-2.0
// napkin::monitor: the GPU's Speed-Of-Light readings per napkin::range phase and per kernel, continuously,
// from the running program — CUPTI PM sampling (pm_sampler.hpp) plus kernel activity records
// (kernel_activity.hpp), attributed on demand (attribution.hpp, monitor_report.hpp).
//
//   int main() {
//     napkin::monitor mon;          // NAPKIN_MONITOR=on (or settings) turns it on; off by default
//     ... the application, with napkin::range phases ...
//     std::cout << mon.report();    // per phase and per kernel: time, SM %, DRAM %, L1 %, L2 slices %, verdict
//   }
//
// The monitor never stops the program: a GPU it cannot sample (another tool holds the counters, no
// permission, MIG, a chip without the one-pass set) leaves it off with one message in status(). It samples on
// the GPU, decodes on its own thread (drain_period), keeps at most settings.max_samples samples and
// max_kernels kernel records (older ones are folded away and counted), and pauses while napkin::profiler
// measures (pause.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "napkin/monitor/attribution.hpp"
#include "napkin/monitor/exit_report.hpp"
#include "napkin/monitor/kernel_activity.hpp"
#include "napkin/monitor/monitor_costs.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/pause.hpp"
#include "napkin/monitor/pm_sampler.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/monitor/settings.hpp"
#include "napkin/monitor/start_failure.hpp"
#include "napkin/monitor/start_failure_cuda.hpp"
#include "napkin/nvtx/listener.hpp"
#include "napkin/profiler/cupti_session.hpp"
#include "napkin/profiler/device.hpp"
#include "napkin/profiler/errors.hpp"
#include "napkin/report/context_cuda.hpp"

NAPKIN_BEGIN_NAMESPACE

class monitor final : private process_state::pausable_sampler {
 public:
  // Reads NAPKIN_MONITOR (settings.hpp); a malformed value leaves the monitor off and says why in status().
  monitor() {
    const monitor_settings_result from_env = try_monitor_settings_from_env();
    if (!from_env.ok()) {
      status_ = "off: " + from_env.error;
      return;
    }
    if (!from_env.settings.enabled) {
      status_ = "off (NAPKIN_MONITOR is not set to on)";
      return;
    }
    start(from_env.settings);
  }
  explicit monitor(const monitor_settings& settings) { start(settings); }
  monitor(const monitor&) = delete;
  monitor& operator=(const monitor&) = delete;
  ~monitor() { shut_down(); }

  // Whether the monitor samples; status() says what it does or why it does not.
  bool running() const noexcept { return running_.load(); }
  const std::string& status() const noexcept { return status_; }

  // Everything collected so far, attributed: per kernel name, per phase and path, and device-wide.
  monitor_report report() {
    drain(steps_per_drain);
    const std::lock_guard<std::mutex> lock(data_mutex_);
    monitor_accumulator all = accumulator_;  // a copy: windows still waiting for late kernels stay open
    all.finish();
    return with_context(make_monitor_report(all, device_));
  }

  // The periodic report (settings.report_every_ns, NAPKIN_MONITOR's every=): the monitor's thread calls
  // `callback` with a fresh report that often. Without one, it writes the report as the exit report would
  // (format=, file=: the file then always holds the latest report). The callback must not throw (what it
  // throws is counted in diagnostics() and otherwise ignored) and must not destroy the monitor.
  using report_callback = std::function<void(const monitor_report&)>;
  void on_report(report_callback callback) {
    const std::lock_guard<std::mutex> lock(callback_mutex_);
    callback_ = std::move(callback);
  }

  // Stops sampling and the decode thread, and decodes what is left; report() still answers afterwards (the
  // destructor does this too). For a measurement with a defined end: stop(), then report().
  void stop() noexcept {
    if (thread_.joinable()) {
      {
        const std::lock_guard<std::mutex> lock(wake_mutex_);
        stopping_ = true;
      }
      wake_.notify_all();
      thread_.join();
    }
    if (!running_.load()) return;
    {
      const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
      if (sampler_ && sampler_->started()) {
#if NAPKIN_HAS_EXCEPTIONS
        try {
#endif
          sampler_->stop();
#if NAPKIN_HAS_EXCEPTIONS
        } catch (...) {
        }
#endif
      }
    }
    drain(SIZE_MAX);  // everything the stopped sampler left
    detail::unregister_monitor(this);
    running_ = false;
    stopped_ = true;
  }

  // What the monitor cost so far in CPU time (whichever thread drained: mostly its own), by part.
  using cpu_use = monitor_cpu_use;
  cpu_use cpu() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return cpu_;
  }
  double cpu_seconds() const { return cpu().total_s(); }

  // Sessions restarted after a failure (a hardware-buffer overflow that killed the session).
  std::size_t restarts() const noexcept { return restarts_.load(); }

  // Wall time inside the sampler's decode steps, by CUPTI call group, for docs/monitor.md.
  using decode_wall = monitor_decode_wall;
  decode_wall decode_time() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return wall_;
  }

  // Counts that explain an odd report: kernels and phases CUPTI reported, data the attribution refused.
  std::string diagnostics() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return "kernel records " + std::to_string(cpu_.kernels) + ", launches inside napkin ranges " +
           std::to_string(detail::activity_collector::instance().external_records()) + ", kernel records lost " +
           std::to_string(detail::activity_collector::instance().dropped()) + ", session restarts " +
           std::to_string(restarts_.load()) + ", samples without a usable time (lost) " + std::to_string(skipped_samples_) +
           skipped_examples_ + ", refused data " + std::to_string(rejected_) +
           (last_error_.empty() ? std::string() : " (last: " + last_error_ + ")");
  }

 private:
  void start(const monitor_settings& s) {
    settings_ = s;
    if (const std::string bad = validate_monitor_settings(s); !bad.empty()) {
      status_ = "off: " + bad;
      return;
    }
    attribution_options options;
    options.gap_tolerance_ns = s.interval_ns;  // consecutive samples may leave a sliver of time between them
    accumulator_ = monitor_accumulator(options, s.max_samples);
    // One counter-data image holds a drain period's samples with room to spare (each costs ~100 KB decoded:
    // the image is re-initialized per step, so a bigger one costs more per step).
    const double fill_ns = static_cast<double>(s.hardware_buffer_bytes) / buffer_bytes_per_sample *
                           static_cast<double>(s.interval_ns);
    // A quarter of the fill time, at most 100 ms: longer drains (320 ms at 5 ms samples) overflowed the
    // buffer on an H200 (docs/monitor.md), so the per-sample size above is a lower bound.
    drain_period = std::chrono::nanoseconds(static_cast<std::int64_t>(std::clamp(fill_ns / 4, 10e6, 100e6)));
    if (s.drain_period_ns > 0) drain_period = std::chrono::nanoseconds(static_cast<std::int64_t>(s.drain_period_ns));
    const std::uint64_t per_drain = static_cast<std::uint64_t>(drain_period.count()) / s.interval_ns + 1;
    samples_per_decode = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(per_drain * 3 / 2, 8, 256));
    device_ = s.device;
    context_.device_index = s.device;
    if (std::optional<std::string> why = monitor_device_precheck(s.device)) {
      status_ = std::move(*why);
      return;
    }
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      const int device = s.device;
      int current = 0;  // a context on the monitored device (CUPTI needs one), the caller's device kept
      NAPKIN_DETAIL_PROFILER_CHECK(cudaGetDevice(&current));
      NAPKIN_DETAIL_PROFILER_CHECK(cudaSetDevice(device));
      NAPKIN_DETAIL_PROFILER_CHECK(cudaFree(nullptr));
      NAPKIN_DETAIL_PROFILER_CHECK(cudaSetDevice(current));
      cupti_.emplace();
      auto chip_params = NAPKIN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
      chip_params.deviceIndex = static_cast<std::size_t>(device);
      NAPKIN_DETAIL_PROFILER_CHECK(cuptiDeviceGetChipName(&chip_params));
      chip_ = chip_params.pChipName;
      context_ = run_context(device);
      config_.emplace(chip_, detail::monitor_metrics());
      detail::activity_collector::instance().hold();
      activity_held_ = true;
      detail::install_range_listener(&detail::phase_tracker::instance(), detail::listener_slot::monitor);
      // Started during a napkin::profiler measurement (it holds the counters): registered paused, the
      // sampler made when the measurement ends (resume_after_profiler). The registry's mutex keeps a
      // measurement from starting or ending between the check and the registration.
      const std::lock_guard<std::recursive_mutex> registry(process_state::running_monitors_mutex);
      if (detail::measurement_under_way()) {
        paused_ = true;
      } else {
        sampler_.emplace(device, *config_, s.interval_ns, s.hardware_buffer_bytes, samples_per_decode);
        sampler_->start();
      }
      if (!detail::register_monitor(this))
        detail::raise_profiler_error("napkin: more monitors than napkin can pause for the profiler");
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const profiler_error& e) {
      status_ = monitor_start_message(monitor_start_failure_of(e.status()), s.device, -1, e.what());
      release_cupti();
      return;
    } catch (const std::exception& e) {
      status_ = monitor_start_message(monitor_start_failure::other, s.device, -1, e.what());
      release_cupti();
      return;
    }
#endif
    running_ = true;
    status_ = "sampling " + chip_ + " (device " + std::to_string(device_) + ") every " +
              detail::duration(static_cast<double>(s.interval_ns) * 1e-9);
    thread_ = std::thread([this] { loop(); });
  }

  void loop() {
    const auto now_ns = [] {
      return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                            std::chrono::steady_clock::now().time_since_epoch())
                                            .count());
    };
    report_schedule periodic(settings_.report_every_ns, now_ns());
    std::unique_lock<std::mutex> lock(wake_mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, drain_period, [this] { return stopping_; });
      lock.unlock();
      drain(steps_per_drain);
      if (periodic.due(now_ns())) periodic_report();
      lock.lock();
    }
  }

  void periodic_report() noexcept {
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      const monitor_report r = report_so_far();  // what is decoded so far; the drain just ran
      const std::lock_guard<std::mutex> lock(callback_mutex_);
      if (callback_) {
        callback_(r);
      } else if (const std::string why = write_monitor_report(r, settings_); !why.empty()) {
        std::fprintf(stderr, "%s\n", why.c_str());
      }
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const std::exception& e) {
      const std::lock_guard<std::mutex> lock(data_mutex_);
      ++rejected_;
      last_error_ = std::string("the periodic report callback threw: ") + e.what();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(data_mutex_);
      ++rejected_;
      last_error_ = "the periodic report callback threw";
    }
#endif
  }

  // Moves decoded samples and finished kernels into the bounded stores (any thread; one at a time).
  void drain(std::size_t max_steps) {
    if (!running_.load()) return;
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    const double cpu0 = detail::thread_cpu_seconds();
    std::vector<pm_sample> fresh;
    bool overflow = false;
    decode_wall step_wall;
    if (sampler_ && !paused_) {
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        const detail::pm_decode_result decoded = sampler_->decode([&](std::uint64_t t0, std::uint64_t t1, const double* v) {
                     pm_sample s;
                     s.start_ns = t0;
                     s.end_ns = t1;
                     s.sm_pct = v[0];
                     s.l1tex_pct = v[1];
                     s.l2_slices_pct = v[2];
                     s.dram_pct = v[3];
                     s.dram_read_bytes = v[4];
                     s.dram_write_bytes = v[5];
                     fresh.push_back(s);
                   }, max_steps);
        overflow = decoded.overflow;
        step_wall = {decoded.decode_s, decoded.evaluate_s, decoded.initialize_s};
#if NAPKIN_HAS_EXCEPTIONS
      } catch (const std::exception& e) {
        // A dead session (an overflow CUPTI could not recover from): restart it, count what was lost.
        overflow = true;
        restart_after_failure(e.what());
      }
#endif
    }
    const double cpu1 = detail::thread_cpu_seconds();
    detail::activity_collector::flush();
    std::vector<detail::kernel_activity> done = detail::activity_collector::instance().take(static_cast<std::uint32_t>(device_));
    const double cpu2 = detail::thread_cpu_seconds();

    const std::lock_guard<std::mutex> lock(data_mutex_);
    struct charge {  // the attribution's CPU time, added when the lock is released
      monitor* m;
      double start;
      ~charge() { m->cpu_.attribute_s += detail::thread_cpu_seconds() - start; }
    } charged{this, cpu2};
    cpu_.decode_s += cpu1 - cpu0;
    wall_.decode_s += step_wall.decode_s;
    wall_.evaluate_s += step_wall.evaluate_s;
    wall_.initialize_s += step_wall.initialize_s;
    cpu_.activity_s += cpu2 - cpu1;
    cpu_.decoded_samples += fresh.size();
    cpu_.kernels += done.size();
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      if (overflow && !fresh.empty() && last_sample_end_ != 0 && fresh.front().start_ns > last_sample_end_)
        accumulator_.add_dropped({last_sample_end_, fresh.front().start_ns, 1});
      for (const pm_sample& sample : fresh) {
        // A sample that begins before the previous one ended has no usable time: on an H200, CUPTI returned
        // runs of zero-length samples with one stale timestamp during some kernels (docs/monitor.md). They
        // are counted as lost, with the stretch until the next good sample.
        if (last_sample_end_ != 0 && sample.start_ns < last_sample_end_) {
          if (skipped_samples_++ < 3)
            skipped_examples_ += " [" + std::to_string(sample.start_ns) + ", " + std::to_string(sample.end_ns) +
                                 ") after one ending at " + std::to_string(last_sample_end_) + ";";
          ++unplaced_samples_;
          continue;
        }
        if (unplaced_samples_ > 0 && sample.start_ns > last_sample_end_)
          accumulator_.add_dropped({last_sample_end_, sample.start_ns, unplaced_samples_});
        unplaced_samples_ = 0;
        if (restarted_) {  // the first sample after a resume spans the session's setup
          accumulator_.add_dropped({sample.start_ns, sample.end_ns, 1});
          restarted_ = false;
        } else {
          accumulator_.add_sample(sample);
        }
        last_sample_end_ = sample.end_ns;
      }
      for (auto& k : done) {
        kernel_record r;
        r.name = std::move(k.name);
        r.start_ns = k.start_ns;
        r.end_ns = k.end_ns;
        r.device = static_cast<int>(k.device);
        r.stream_id = k.stream;
        r.correlation_id = k.correlation;
        r.phase = detail::phase_tracker::instance().path(k.phase_id);
        accumulator_.add_kernel(r);
      }
      // Windows older than the settle lag cannot get more kernels in practice (a kernel's record arrives
      // after it ends, within a drain or two): attribute them and fold their kernels, so memory stays bounded.
      if (last_sample_end_ > settle_lag_ns) accumulator_.settle(last_sample_end_ - settle_lag_ns);
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const std::exception& e) {
      ++rejected_;  // data CUPTI gave that the attribution refuses (e.g. overlapping windows): never fatal
      last_error_ = e.what();
    }
#endif
  }

  void restart_after_failure(const std::string& why) noexcept {
#if NAPKIN_HAS_EXCEPTIONS
    try {
      sampler_.reset();
      sampler_.emplace(device_, *config_, settings_.interval_ns, settings_.hardware_buffer_bytes,
                       samples_per_decode);
      sampler_->start();
      restarted_ = true;
      ++restarts_;
    } catch (const std::exception& e) {
      running_ = false;
      status_ = "off after a failure: " + why + "; restarting failed: " + e.what();
    }
#else
    (void)why;
#endif
  }

  // pausable_sampler: napkin::profiler measures on this process (called under the registry's mutex).
  void pause_for_profiler() noexcept override {
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    if (!sampler_ || paused_) return;
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      sampler_->stop();
      std::uint64_t now = 0;
      (void)cuptiGetTimestamp(&now);
      const std::lock_guard<std::mutex> lock(data_mutex_);
      if (now > last_sample_end_) {
        accumulator_.skip_until(now);  // nothing is sampled while the profiler measures
        last_sample_end_ = now;
      }
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
    }
#endif
    sampler_.reset();  // the range profiler needs the device's counters: give the session back
    paused_ = true;
  }
  void resume_after_profiler() noexcept override {
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    if (!paused_) return;
    paused_ = false;
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      sampler_.emplace(device_, *config_, settings_.interval_ns, settings_.hardware_buffer_bytes,
                       samples_per_decode);
      sampler_->start();
      const std::lock_guard<std::mutex> lock(data_mutex_);
      restarted_ = true;
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const std::exception& e) {
      running_ = false;
      status_ = std::string("off: resuming after a profiler measurement failed: ") + e.what();
    }
#endif
  }

  void shut_down() noexcept {
    const bool was_running = running_.load();
    stop();
    if (was_running || stopped_) {
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        if (settings_.report_at_exit) {
          const std::string why = write_monitor_report(report_so_far(), settings_);
          if (!why.empty()) std::fprintf(stderr, "%s\n", why.c_str());
        }
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {
      }
#endif
    }
    release_cupti();
  }

  monitor_report report_so_far() {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    monitor_accumulator all = accumulator_;
    all.finish();
    return with_context(make_monitor_report(all, device_));
  }

  // Where the reports were made: the device (index, name, PCI bus id, UUID) and the process (host, rank),
  // read once at start.
  monitor_report with_context(monitor_report r) const {
    r.context = context_;
    return r;
  }

  void release_cupti() noexcept {
    detail::remove_range_listener(&detail::phase_tracker::instance(), detail::listener_slot::monitor);
    sampler_.reset();
    if (activity_held_) detail::activity_collector::instance().release();
    activity_held_ = false;
    config_.reset();
  }

  monitor_settings settings_;
  std::string status_;
  std::string chip_;
  int device_ = 0;
  report_context context_;  // device_index only until start() reads the rest
  std::atomic<bool> running_{false};
  std::optional<detail::cupti_initialization> cupti_;
  std::optional<detail::pm_sampling_config> config_;
  std::optional<detail::pm_sampler> sampler_;  // empty while paused
  bool activity_held_ = false;
  bool paused_ = false;
  bool stopped_ = false;
  std::atomic<std::size_t> restarts_{0};  // sessions restarted after a failure (an overflow)

  // How often the decode thread empties the hardware buffer: when it is about a quarter full, 10-100 ms. A
  // sample of this set takes at least ~128 KB of the buffer on an H200 (docs/monitor.md).
  static constexpr std::uint64_t buffer_bytes_per_sample = 128u << 10;
  std::chrono::nanoseconds drain_period{std::chrono::milliseconds(100)};
  static constexpr std::size_t steps_per_drain = 16;  // a drain decodes at most this many images
  std::uint32_t samples_per_decode = 32;  // set from the interval in start()
  static constexpr std::uint64_t settle_lag_ns = 2'000'000'000;  // windows older than 2 s are attributed

  std::mutex decode_mutex_;  // one drain, pause or resume at a time
  mutable std::mutex data_mutex_;
  monitor_accumulator accumulator_;
  std::uint64_t last_sample_end_ = 0;
  bool restarted_ = false;
  std::size_t rejected_ = 0;
  std::size_t skipped_samples_ = 0;  // samples that began before the previous one ended (not attributed)
  std::string skipped_examples_;     // the first three, for diagnostics()
  std::uint64_t unplaced_samples_ = 0;  // skipped since the last good sample: lost with the gap after it
  std::string last_error_;
  cpu_use cpu_;
  decode_wall wall_;

  std::mutex callback_mutex_;
  report_callback callback_;  // the periodic report's receiver; empty: write it like the exit report

  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

NAPKIN_END_NAMESPACE
