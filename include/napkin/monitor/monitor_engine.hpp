// SPDX-License-Identifier: Apache-2.0
// detail::monitor_engine: what a napkin::monitor (monitor/monitor.hpp) holds behind its pointer — the CUPTI
// session, the PM sampler, the decode thread, the stores and their locks. The monitor's members forward to it.
// Its own header so that the monitor's declaration stays light: with NAPKIN_SEPARATE_COMPILATION only the one
// file that includes napkin/compiled.hpp compiles this (docs/compile-time.md).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/pause.hpp"
#include "napkin/cupti/session.hpp"
#include "napkin/document/context_cuda.hpp"
#include "napkin/monitor/drain_plan.hpp"
#include "napkin/monitor/exit_report.hpp"
#include "napkin/monitor/kernel_activity.hpp"
#include "napkin/monitor/monitor_costs.hpp"
#include "napkin/monitor/monitor_stores.hpp"
#include "napkin/monitor/pm_sampler.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/monitor/settings.hpp"
#include "napkin/monitor/start_failure.hpp"
#include "napkin/monitor/start_failure_cuda.hpp"
#include "napkin/nvtx/listener.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

class monitor_engine final : private process_state::pausable_sampler {
 public:
  // The calls napkin::monitor forwards; what each does for users is said once, in monitor/monitor.hpp.
  using report_callback = std::function<void(const monitor_report&)>;  // monitor::report_callback

  monitor_engine() {
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
  explicit monitor_engine(const monitor_settings& settings) { start(settings); }
  monitor_engine(const monitor_engine&) = delete;
  monitor_engine& operator=(const monitor_engine&) = delete;
  ~monitor_engine() { shut_down(); }

  bool running() const noexcept { return running_.load(); }
  std::string status() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return status_;
  }

  monitor_report report() {
    drain(steps_per_drain);
    return report_so_far();
  }

  void on_report(report_callback callback) {
    const std::lock_guard<std::mutex> lock(callback_mutex_);
    callback_ = std::move(callback);
  }

  void stop() noexcept {  // idempotent: napkin::monitor's destructor calls it, then this one's shut_down()
    if (thread_.joinable()) {
      {
        const std::lock_guard<std::mutex> lock(wake_mutex_);
        stopping_ = true;
      }
      wake_.notify_all();
      thread_.join();
    }
    const bool was_running = running_.load();
    if (was_running) {
      set_sampling(false);
      drain(SIZE_MAX);  // everything the stopped sampler left
    }
    {  // no more host calls queued for a monitor that no longer drains (also one that turned itself off)
      const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
      if (system_slot_) detail::activity_collector::instance().release_system(*system_slot_);
      system_slot_.reset();
    }
    if (!was_running) return;
    detail::unregister_monitor(this);
    running_ = false;
    stopped_ = true;
  }

  monitor_cpu_use cpu() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return cpu_;
  }
  std::size_t restarts() const noexcept { return restarts_.load(); }

  monitor_decode_wall decode_time() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return wall_;
  }

  std::string diagnostics() const {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    const detail::activity_collector& a = detail::activity_collector::instance();
    return "kernel records " + std::to_string(cpu_.kernels) + ", CUDA calls inside napkin ranges " +
           std::to_string(a.external_records()) + ", kernel records lost " + std::to_string(a.dropped()) +
           ", copy and host-call records lost " + std::to_string(a.system_dropped()) + ", session restarts " +
           std::to_string(restarts_.load()) +
           (last_restart_why_.empty() ? std::string() : " (last: " + last_restart_why_ + ")") +
           ", decode steps that filled the counter-data image (" + std::to_string(samples_per_decode) +
           " samples) " + std::to_string(images_filled_) + ", " + stores_.diagnostics();
  }

 private:
  void start(const monitor_settings& s) {
    settings_ = s;
    if (const std::string bad = validate_monitor_settings(s); !bad.empty()) {
      status_ = "off: " + bad;
      return;
    }
    attribution_options options;
    // Consecutive samples are contiguous on the H200 (one ends where the next starts); 1 us covers rounding.
    // An interval's worth let a kernel shorter than the interval count as complete without any sample.
    options.gap_tolerance_ns = 1000;
    const drain_plan plan = plan_drains(s);
    // A period set by hand past 2^62 ns (146 years) is as good as never; kept in range of the clock's type.
    const std::uint64_t period_ns = std::min<std::uint64_t>(plan.period_ns, std::uint64_t{1} << 62);
    drain_period = std::chrono::nanoseconds(static_cast<std::int64_t>(period_ns));
    samples_per_decode = plan.samples_per_decode;
    device_ = s.device;
    context_.device_index = s.device;
    if (std::optional<std::string> why = monitor_device_precheck(s.device)) {
      status_ = std::move(*why);
      return;
    }
    int sms = 0;  // tells a kernel that fills the SMs, whose windows cannot read them idle (SM dropouts)
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s.device) == cudaSuccess && sms > 0)
      options.sm_count = static_cast<std::uint64_t>(sms);
    stores_.accumulator = monitor_accumulator(options, s.max_samples);
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      const int device = s.device;
      cupti_.emplace();  // before the chip name: cuptiDeviceGetChipName crashed (SIGSEGV) without it
      chip_ = detail::pm_sampling_chip(device);  // makes the device's context first (CUPTI needs one)
      context_ = run_context(device);
      config_.emplace(chip_, detail::monitor_metrics(chip_));
      detail::activity_collector::instance().hold();
      activity_held_ = true;
      if (s.system) {  // copies, memsets and host calls for the system view (docs/system.md)
        system_options so;
        so.device = static_cast<std::uint32_t>(device);
        stores_.system.emplace(so);
        system_slot_ = detail::activity_collector::instance().hold_system(static_cast<std::uint32_t>(device));
      }
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
              duration(static_cast<double>(s.interval_ns) * 1e-9);
    thread_ = std::thread([this] { loop(); });
  }

  void loop() {
    const auto now_ns = detail::steady_now_ns;
    report_schedule periodic(settings_.report_every_ns, now_ns());
    sampling_schedule schedule(settings_, now_ns());
    // Drains on a fixed schedule (next_drain_due): waiting a period after each drain's work let the samples
    // waiting grow with that work until a decode filled its image (drain_plan.hpp).
    const auto period = static_cast<std::uint64_t>(drain_period.count());
    std::uint64_t due = next_drain_due(now_ns(), 0, period);
    std::unique_lock<std::mutex> lock(wake_mutex_);
    while (!stopping_) {
      constexpr auto latest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      using clock = std::chrono::steady_clock;
      const clock::time_point deadline(std::chrono::duration_cast<clock::duration>(
          std::chrono::nanoseconds(static_cast<std::int64_t>(std::min(due, latest)))));
      wake_.wait_until(lock, deadline, [this] { return stopping_; });
      lock.unlock();
      if (!schedule.always()) set_sampling(schedule.on_at(now_ns()));
      if (drain(steps_per_drain)) schedule.kernels_seen(now_ns());
      if (periodic.due(now_ns())) periodic_report();
      due = next_drain_due(due, now_ns(), period);
      lock.lock();
    }
  }

  void periodic_report() noexcept {
    detail::call_catching(
        [&] {
          const monitor_report r = report_so_far();  // what is decoded so far; the drain just ran
          const std::lock_guard<std::mutex> lock(callback_mutex_);
          if (callback_) {
            callback_(r);
          } else if (const std::string why = write_monitor_report(r, settings_); !why.empty()) {
            std::fprintf(stderr, "%s\n", why.c_str());
          }
        },
        [&](const char* what) { refuse(std::string("the periodic report failed: ") + what); });
  }

  // Moves samples and finished kernels into the stores (any thread, one at a time); true if the GPU worked.
  bool drain(std::size_t max_steps) {
    if (!running_.load()) return false;
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    const double cpu0 = detail::thread_cpu_seconds();
    std::vector<pm_sample> fresh;
    bool overflow = false;
    std::size_t images_filled = 0;
    std::string failure;  // why the session was restarted, if it was
    monitor_decode_wall step_wall;
    if (sampler_ && !paused_) {
      detail::call_catching(
          [&] {
            const detail::pm_decode_result decoded = sampler_->decode(
                [&](std::uint64_t t0, std::uint64_t t1, const double* v) {
                  fresh.push_back(detail::monitor_sample(t0, t1, v, config_->metrics().size()));
                },
                max_steps);
            overflow = decoded.overflow;
            images_filled = decoded.images_filled;
            step_wall = {decoded.decode_s, decoded.evaluate_s, decoded.initialize_s};
          },
          [&](const char* what) {  // a dead session (an overflow CUPTI could not recover from): restart it
            overflow = true;
            failure = what;
            restart_after_failure(what);
          });
    }
    if (scheduled_off_ && sampler_ && !sampler_->started()) sampler_.reset();  // decoded: release it (set_sampling)
    const double cpu1 = detail::thread_cpu_seconds();
    detail::activity_collector::flush();
    std::vector<detail::kernel_activity> done = detail::activity_collector::instance().take(static_cast<std::uint32_t>(device_));
    system_records system_batch;
    if (system_slot_)
      detail::call_catching(
          [&] {
            system_batch = detail::activity_collector::instance().take_system(*system_slot_);
            system_batch.work.reserve(system_batch.work.size() + done.size());
            for (const detail::kernel_activity& k : done) system_batch.work.push_back(detail::to_gpu_work(k));
          },
          [&](const char* what) { refuse(std::string("the system view's records: ") + what); });
    const double cpu2 = detail::thread_cpu_seconds();

    const std::lock_guard<std::mutex> lock(data_mutex_);
    struct charge {  // the attribution's CPU time, added when the lock is released
      monitor_engine* m;
      double start;
      ~charge() { m->cpu_.attribute_s += detail::thread_cpu_seconds() - start; }
    } charged{this, cpu2};
    cpu_.decode_s += cpu1 - cpu0;
    wall_ += step_wall;
    cpu_.activity_s += cpu2 - cpu1;
    cpu_.decoded_samples += fresh.size();
    images_filled_ += images_filled;
    if (!failure.empty()) last_restart_why_ = std::move(failure);
    cpu_.kernels += done.size();
    stores_.add(fresh, overflow, done, system_batch, scheduled_off_ && !paused_, detail::cupti_timestamp_now());
    return !done.empty() || std::any_of(fresh.begin(), fresh.end(), [](const pm_sample& x) { return x.busy(); });
  }

  // Starts or stops sampling: sample= stretches (settings.hpp), and stop(). Between stretches the session is
  // released (drain() decodes what it left first): a stopped session's next first sample spans the whole stop,
  // and decoding it cost ~5 % of a core per stopped second on an H100, more than enabling anew (docs/monitor.md).
  void set_sampling(bool on) noexcept {
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    if (scheduled_off_ == !on) return;  // no change
    scheduled_off_ = !on;
    if (paused_ || !running_.load()) return;  // paused: resume_after_profiler follows the schedule
    detail::call_catching(
        [&] { on ? start_sampling() : (sampler_ && sampler_->started() ? sampler_->stop() : void()); },
        [&](const char* what) { refuse(std::string("sampling: ") + what); });
  }
  void start_sampling() {  // under decode_mutex_
    if (!sampler_)
      sampler_.emplace(device_, *config_, settings_.interval_ns, settings_.hardware_buffer_bytes, samples_per_decode);
    sampler_->start();
    const std::lock_guard<std::mutex> lock(data_mutex_);
    stores_.timeline.session_started();
  }

  void restart_after_failure(const std::string& why) noexcept {
    detail::call_catching(
        [&] {
          sampler_.reset();
          sampler_.emplace(device_, *config_, settings_.interval_ns, settings_.hardware_buffer_bytes,
                           samples_per_decode);
          ++restarts_;
          if (!scheduled_off_) start_sampling();
        },
        [&](const char* what) { turn_off("off after a failure: " + why + "; restarting failed: " + what); });
  }

  // pausable_sampler: napkin::profiler measures on this process (called under the registry's mutex).
  void pause_for_profiler() noexcept override {
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    if (paused_ || !running_.load()) return;
    detail::call_catching(
        [&] {
          if (sampler_ && sampler_->started()) sampler_->stop();
          const std::uint64_t now = detail::cupti_timestamp_now();
          const std::lock_guard<std::mutex> lock(data_mutex_);
          stores_.timeline.paused_until(now, stores_.accumulator);  // nothing is sampled while the profiler measures
        },
        [](const char*) {});  // a session that fails to stop is released below all the same
    sampler_.reset();  // the range profiler needs the device's counters: give the session back
    paused_ = true;
  }
  void resume_after_profiler() noexcept override {
    const std::lock_guard<std::mutex> decode_lock(decode_mutex_);
    if (!paused_) return;
    paused_ = false;
    detail::call_catching(
        [&] { if (!scheduled_off_) start_sampling(); },
        [&](const char* what) {
          turn_off(std::string("off: resuming after a profiler measurement failed: ") + what);
        });
  }

  void shut_down() noexcept {
    const bool was_running = running_.load();
    stop();
    if ((was_running || stopped_) && settings_.report_at_exit) {
      detail::call_catching(
          [&] {
            const std::string why = write_monitor_report(report_so_far(), settings_);
            if (!why.empty()) std::fprintf(stderr, "%s\n", why.c_str());
          },
          [](const char* what) { std::fprintf(stderr, "napkin: the monitor's exit report failed: %s\n", what); });
    }
    release_cupti();
  }

  monitor_report report_so_far() {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    return with_context(stores_.report(device_, detail::phase_tracker::instance().path_names(),
                                       detail::activity_collector::instance().system_dropped()));
  }
  // Counts data the monitor refused or a step that failed, for diagnostics().
  void refuse(std::string why) {
    const std::lock_guard<std::mutex> lock(data_mutex_);
    stores_.refuse(std::move(why));
  }
  // Sampling ended for good (from the monitor's thread or a profiler's pause hook).
  void turn_off(std::string why) {
    running_ = false;
    const std::lock_guard<std::mutex> lock(data_mutex_);
    status_ = std::move(why);
  }

  monitor_report with_context(monitor_report r) const {
    r.context = context_;
    r.status = status_;  // callers hold data_mutex_
    return r;
  }

  void release_cupti() noexcept {
    detail::remove_range_listener(&detail::phase_tracker::instance(), detail::listener_slot::monitor);
    sampler_.reset();
    if (system_slot_) detail::activity_collector::instance().release_system(*system_slot_);
    system_slot_.reset();
    if (activity_held_) detail::activity_collector::instance().release();
    activity_held_ = false;
    config_.reset();
  }

  monitor_settings settings_;
  std::string status_;
  std::string chip_;
  int device_ = 0;
  report_context context_;  // where the reports were made (device, host, rank): device_index until start()
  std::atomic<bool> running_{false};
  std::optional<detail::cupti_initialization> cupti_;
  std::optional<detail::pm_sampling_config> config_;
  std::optional<detail::pm_sampler> sampler_;  // empty while paused
  bool activity_held_ = false;
  bool paused_ = false;
  bool scheduled_off_ = false;  // between sample= stretches
  bool stopped_ = false;
  std::atomic<std::size_t> restarts_{0};  // sessions restarted after a failure (an overflow)

  std::chrono::nanoseconds drain_period{std::chrono::milliseconds(100)};  // plan_drains (drain_plan.hpp)
  std::uint32_t samples_per_decode = 32;
  static constexpr std::size_t steps_per_drain = drain_plan::steps_per_drain;

  std::mutex decode_mutex_;  // one drain, pause or resume at a time
  mutable std::mutex data_mutex_;
  detail::monitor_stores stores_;  // under data_mutex_
  std::optional<std::size_t> system_slot_;  // the activity collector's hold_system()
  monitor_cpu_use cpu_;
  monitor_decode_wall wall_;
  std::size_t images_filled_ = 0;  // decode steps that stopped on a full image (samples may be lost there)
  std::string last_restart_why_;   // the failure behind the last session restart

  std::mutex callback_mutex_;
  report_callback callback_;  // the periodic report's receiver; empty: write it like the exit report

  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace detail

NAPKIN_END_NAMESPACE
