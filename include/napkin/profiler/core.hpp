// SPDX-License-Identifier: Apache-2.0
// What every way to measure shares, and the profiler's policies: the device, CUPTI's initialization, the
// metric set compiled for the chip, the enabled CUPTI session kept between measurements (Enable is slow),
// the L2 flush, one measurement at a time, and what a CUDA fault does (it disables the profiler for good).
//
// This is the non-templated half of napkin::profiler (nvbench's measure_cupti_base); the measurements
// themselves are passes (pass.hpp) driven by the front ends (session.hpp, scope.hpp, phase.hpp). A profiler
// is not thread-safe: one thread uses it at a time. Profilers on different devices may run at once on
// different threads (each its own context and CUPTI session); two on one device's context may not (CUPTI's
// range profiler is per context). Every CUDA and CUPTI call here runs under a context_guard (cupti/device.hpp),
// so the profiler measures its own device whatever the calling thread has current.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/check.hpp"
#include "napkin/detail/seconds_since.hpp"
#include "napkin/cupti/device.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/host.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/cupti/pause.hpp"
#include "napkin/cupti/session.hpp"
#include "napkin/document/context_cuda.hpp"
#include "napkin/profiler/l2_flush.hpp"
#include "napkin/profiler/options.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// "device 1 (NVIDIA H200, 0000:19:00.0)": the device in a message.
inline std::string device_words(const report_context& c) {
  std::string words = "device " + (c.device_index ? std::to_string(*c.device_index) : std::string("?"));
  if (c.device_name && c.device_pci_bus_id) words += " (" + *c.device_name + ", " + *c.device_pci_bus_id + ")";
  return words;
}

class profiler_core {
 public:
  profiler_core(metric_set set, const profiler_options& options) : options_(options) {
    if (options_.max_kernels == 0)
      raise_profiler_error("napkin: profiler_options::max_kernels must be at least 1 (per_kernel() records that many)");
    device_ = find_device(options_.device);
    const context_guard current(device_.context);  // the flush buffer and kernel belong to the device
    identity_ = run_context(device_.index);  // the device, and the process's host and rank
    busy_ = busy_policy{options_.busy_wait, device_words(identity_)};
    const monitors_paused paused;  // the counter availability below is refused while PM sampling runs
    cupti_.emplace();
    require_range_profiling(device_, busy_);
    const std::string chip = chip_name(device_);
    config_.emplace(chip, set_for_chip(std::move(set), chip), counter_availability(device_, busy_));
    if (options_.flush_l2) flusher_.emplace(device_.index);
  }
  profiler_core(const profiler_core&) = delete;
  profiler_core& operator=(const profiler_core&) = delete;
  // Releases the device's resources (CUPTI session, flush buffer) with the device's context current, on
  // whichever thread destroys the profiler.
  ~profiler_core() {
    const context_guard current(device_.context, std::nothrow);
    session_.reset();
    flusher_.reset();
    config_.reset();
    cupti_.reset();
  }

  const profiler_options& options() const noexcept { return options_; }
  const metric_config& config() const noexcept { return *config_; }
  // The device measured: its index in this process and its context.
  const profiled_device& device() const noexcept { return device_; }
  // The device's identity as every report carries it (index, name, PCI bus id, UUID).
  const report_context& identity() const noexcept { return identity_; }
  // The device's context current on the calling thread for the guard's life (the caller's restored after).
  context_guard on_device() const { return context_guard(device_.context); }

  // False after a CUDA fault inside measured work: the context is unusable, and so is the profiler.
  bool usable() const noexcept { return disabled_reason_.empty(); }
  const std::string& disabled_reason() const noexcept { return disabled_reason_; }

  // One measurement at a time: `what` holds the profiler until release(). Refused when the profiler is
  // disabled or already held.
  void hold(const std::string& what) {
    if (!usable()) raise_profiler_error("napkin: the profiler is disabled: " + disabled_reason_);
    if (held_by_)
      raise_profiler_error("napkin: the profiler is busy with " + *held_by_ +
                           " (napkin measures one range at a time)");
    held_by_ = what;
    monitors_paused_.emplace();  // napkin::monitor's PM sampling would make CUPTI's Start fail (HARDWARE_BUSY)
  }
  void release() noexcept {
    // A monitor cannot sample while the range profiler stays enabled: give the session back first (the next
    // measurement pays Enable again, ~0.1-0.3 s, only while a monitor runs).
    if (monitors_paused_ && any_monitor_registered()) {
      const context_guard current(device_.context, std::nothrow);
      session_.reset();
    }
    monitors_paused_.reset();
    held_by_.reset();
  }

  // Waits for the device. A failure is raised with the CUDA error; a fault that leaves the context unusable
  // also disables the profiler.
  void sync(const std::string& where) {
    const context_guard current(device_.context);
    const cudaError_t e = cudaDeviceSynchronize();
    if (NAPKIN_DETAIL_LIKELY(e == cudaSuccess)) return;
    std::string note = where;
    // A fault poisons the context: every later CUDA call fails, so profiling cannot continue.
    if (cudaGetLastError() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess) {
      disabled_reason_ = "a CUDA fault " + where + " left the context unusable: " + std::string(napkin::to_string(e)) +
                         " (" + std::string(napkin::describe(e)) + ")";
      note += "; the CUDA context is unusable, so napkin's profiler is now disabled";
    }
    fail_as<profiler_error>(e, "cudaDeviceSynchronize()", source_site{NAPKIN_DETAIL_SITE_ARGS}, note.c_str());
  }

  // After an abandoned pass, whose failure is already on its way: a fault in the work disables the profiler
  // (unless sync() already did, with the CUDA error in its reason).
  void settle() noexcept {
    const context_guard current(device_.context, std::nothrow);
    if (usable() && cudaDeviceSynchronize() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess)
      disabled_reason_ = "a CUDA fault inside measured work left the context unusable";
  }

  // A cold, clean L2 (when profiler_options::flush_l2), the flush finished.
  void flush_l2() {
    const context_guard current(device_.context);
    if (flusher_) flusher_->flush();
    sync("flushing L2");
  }

  // The enabled CUPTI session for `mode`, kept between measurements of the same mode (Enable costs ~0.3 s
  // on H100). Switching between user and auto range enables a new one: reconfiguring one session across the
  // two modes crashed inside CUPTI 13.0 (H100, driver 580). Adds the time Enable took to `enable_s`.
  cupti_session& session(range_mode mode, double& enable_s) {
    const context_guard current(device_.context);
    if (session_ && session_->mode() != mode) session_.reset();
    if (!session_) {
      const auto t0 = std::chrono::steady_clock::now();
      session_ = std::make_unique<cupti_session>(device_.context, mode, busy_);
      enable_s += seconds_since(t0);
    }
    return *session_;
  }
  // Disables CUPTI's range profiler (closing what is open): the next measurement starts from a clean Enable.
  void drop_session() noexcept {
    const context_guard current(device_.context, std::nothrow);
    session_.reset();
  }

 private:
  profiler_options options_;
  profiled_device device_;
  report_context identity_;
  busy_policy busy_;
  std::optional<cupti_initialization> cupti_;  // made before, destroyed after, everything CUPTI below
  std::optional<metric_config> config_;
  std::unique_ptr<cupti_session> session_;
  std::optional<l2_flusher> flusher_;  // none when options_.flush_l2 is false
  std::optional<std::string> held_by_;
  std::optional<monitors_paused> monitors_paused_;
  std::string disabled_reason_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
