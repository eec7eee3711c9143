// SPDX-License-Identifier: Apache-2.0
// napkin::profiler measures GPU work in-process with CUPTI's Range Profiler (CUDA >= 12.6u2).
//
//   napkin::profiler prof;                                   // SOL set, current device
//   napkin::profiler on1(set, options);                      // options.device = 1: device 1, from any thread
//   napkin::sol_report r = prof.measure("softmax", [&] { softmax<<<g, b>>>(...); });
//   std::cout << r;                                          // ncu-like section + verdicts
//
// Four ways to measure: measure() (one user range, replayed by napkin once per pass, optional reset between
// passes), per_kernel() (CUPTI auto ranges: every kernel fn launches, by name, replayed either by CUPTI with
// memory saved and restored, or by napkin re-running fn: replay::application, ncu's numbers), scope (RAII,
// one range, only for one-pass sets; scope.hpp), and watch_phase() (the next occurrences of a napkin::range
// of that name, one pass each: profile an annotated phase of a running program without restructuring it;
// phase.hpp).
//
// This file holds the front ends only: each makes a measurement and drives its passes (pass.hpp); what they
// share (the device, CUPTI, the metric set, the fault policy) is the profiler's core (core.hpp).
// A profiler is used by one thread at a time; profilers on different devices may measure at once from
// different threads (docs/profiler.md, "Two devices at once"), never two on one device.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/cupti/session.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/options.hpp"
#include "napkin/profiler/pass.hpp"
#include "napkin/profiler/phase.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/profiler/scope.hpp"
#include "napkin/profiler/sol_fast.hpp"

NAPKIN_BEGIN_NAMESPACE

class profiler {
 public:
  using scope = profiler_scope;
  using phase = profiler_phase;

  explicit profiler(metric_set set = metric_sets::sol_fast(), const profiler_options& options = {})
      : core_(std::move(set), options) {}
  profiler(const profiler&) = delete;
  profiler& operator=(const profiler&) = delete;
  ~profiler() = default;

  const std::string& chip() const noexcept { return core_.config().chip(); }
  // The device measured (profiler_options::device, or the one current when the profiler was made), and its
  // identity as every report carries it (sol_report::context): index, name, PCI bus id, UUID.
  int device() const noexcept { return core_.device().index; }
  const report_context& context() const noexcept { return core_.identity(); }
  const metric_set& metrics() const noexcept { return core_.config().set(); }
  // Replay passes each measure() will run.
  std::size_t passes() const noexcept { return core_.config().passes(); }
  // False after a CUDA fault inside measured work: the context is unusable, and so is the profiler.
  bool usable() const noexcept { return core_.usable(); }
  const std::string& disabled_reason() const noexcept { return core_.disabled_reason(); }

  // Runs fn as one range, once per pass, after one unprofiled warm-up run (profiler_options::warm_up). fn
  // must launch the same work each time; it may use any streams (everything it launched is synchronized
  // before the pass ends). Each pass's duration and kernel launches are recorded (sol_report::pass_samples):
  // when the passes disagree the report says so and gives no verdict.
  template <class Fn>
  sol_report measure(const std::string& name, Fn&& fn) {
    return measure(name, std::forward<Fn>(fn), [] {});
  }

  // As above, calling reset() before every pass (without the warm-up run: before every pass after the first),
  // for work that is not idempotent (in-place updates, accumulations): reset() restores the inputs; it is
  // not measured.
  template <class Fn, class Reset>
  sol_report measure(const std::string& name, Fn&& fn, Reset&& reset) {
    detail::measurement m(core_, "measure(\"" + name + "\")");
    const bool warm_up = core_.options().warm_up;
    auto t0 = std::chrono::steady_clock::now();
    if (warm_up) {
      // One unprofiled run first: one-time work in fn (a library's first call) happens here, not in a pass.
      fn();
      core_.sync("inside " + m.what() + "'s warm-up run");
    }
    m.cost.setup_s += detail::seconds_since(t0);
    m.configure(detail::user_range_user_replay, 1);
    t0 = std::chrono::steady_clock::now();
    detail::pass_recording recording(core_.device().index);
    m.cost.setup_s += detail::seconds_since(t0);
    detail::replay_until_complete(m, name.c_str(), fn, reset, warm_up, &recording);
    const range_activity activity = recording.finish();
    sol_report r = m.report(name, measured_by::user_range);
    r.launch = recording.single_launch();
    adjust_to_busy_time(r, activity, core_.config().set());
    r.pass_samples = recording.take_samples();
    r.passes_disagree = find_pass_disagreement(r.pass_samples);
    m.keep_session();
    return r;
  }

  // Every kernel fn launches, each as its own range (CUPTI's auto range), named by its symbol. Launches are
  // serialized and synchronized one by one: kernels that wait on each other (or on the host) must not be
  // measured so. CUDA graphs are refused: CUPTI 13.0 records only the first kernel node of a graph launch in
  // this mode (measured on H100); measure() covers a whole graph as one range.
  //   per_kernel(fn)                        replay::kernel: fn runs once, CUPTI replays each kernel
  //   per_kernel(fn, replay::application)   napkin runs fn once per pass, cold clean L2 before each
  //   per_kernel(fn, replay::application, reset)   ... calling reset() before every profiled pass
  template <class Fn>
  kernel_reports per_kernel(Fn&& fn, replay how = replay::kernel) {
    if (how == replay::application) {
      auto no_reset = [] {};
      return per_kernel_by_application(fn, no_reset);
    }
    return per_kernel_by_cupti(fn);
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel(Fn&& fn, replay how, Reset&& reset) {
    if (how != replay::application)
      detail::raise_profiler_error(
          "napkin: per_kernel()'s reset callback is for replay::application; CUPTI's kernel "
          "replay restores memory itself and would never call it");
    return per_kernel_by_application(fn, reset);
  }

  // One range around a scope's work, without replay: only for sets that fit one pass (scope.hpp).
  //   { auto s = prof.open_scope("step"); step(); sol_report r = s.stop(); }
  scope open_scope(const std::string& name) { return scope(core_, name); }

  // Profiles an annotated phase of a running program (phase.hpp): the next occurrences of a napkin::range
  // (or NAPKIN_RANGE / NAPKIN_FUNC_RANGE) named `name` in NVTX domain D, opened on this thread, one replay
  // pass each, until the set's passes are done; the report carries the range's name.
  //   auto phase = prof.watch_phase("solve");
  //   while (!phase.done()) step();            // step() opens napkin::range{"solve"} somewhere inside
  //   std::cout << phase.report();
  // Each occurrence must launch the same kernels (like ncu's application replay, different iterations
  // supply different counters). A nested range of the same name belongs to the outer one. Works with NVTX
  // switched off at run time (NAPKIN_NVTX=0), not with ranges compiled out (NAPKIN_NVTX_DISABLE). While a
  // phase is watched the profiler measures nothing else; one phase per thread at a time. The phase's code
  // must run on the profiler's device: unlike measure(), a watch does not make it current for the program.
  template <class D = default_domain>
  phase watch_phase(std::string name) {
    return phase(core_, detail::domain_name_of<D>(), std::move(name));
  }

 private:
  static void refuse_graphs(const detail::launch_log& launches) {
    if (launches.saw_graph())
      detail::raise_profiler_error(
          "napkin: per_kernel() cannot measure kernels inside a CUDA graph (CUPTI's auto range "
          "records only the graph's first kernel); use measure(), which covers the whole graph");
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel_by_application(Fn& fn, Reset& reset) {
    const std::lock_guard<std::mutex> one_device_at_a_time(process_state::auto_range_measurements);
    detail::measurement m(core_, "per_kernel(fn, replay::application)");
    // One unprofiled run first, to name and count fn's kernels: CUPTI's auto range leaves dirty lines in L2
    // in proportion to the ranges its counter image holds (H100: 3 MB for 1 range, 21 MB for 16, 25 MB for
    // 256; benchmarks/device/dirty_l2_probe.cu), which the first kernel of each pass would write back. So
    // the image holds exactly fn's kernels. reset() then runs before every profiled pass.
    const auto t0 = std::chrono::steady_clock::now();
    detail::launch_log names;
    // The counting run's kernel records give each kernel's launch (the passes' runs launch the same).
    detail::launch_recording launches(core_.device().index, /*kernel_replay=*/false);
    {
      detail::kernel_name_recorder recorder(core_.device().context);
      launches.begin();
      fn();
      core_.sync("inside " + m.what() + "'s counting run");
      launches.end();
      names = recorder.log();
    }
    m.cost.setup_s += detail::seconds_since(t0);  // the counting run prepares the passes
    refuse_graphs(names);
    const std::size_t max_kernels = core_.options().max_kernels;
    m.configure(detail::auto_range_user_replay,
                std::clamp<std::size_t>(names.kernel_launches().value_or(max_kernels), 1, max_kernels));
    detail::replay_until_complete(m, nullptr, fn, reset, true);
    kernel_reports out = m.kernel_range_reports(names, measured_by::application_replay, m.passes_run());
    detail::attach_launches(out.kernels, launches.take());
    m.keep_session();
    return out;
  }

  // CUPTI's kernel replay: fn once, in one pass (no L2 flush: CUPTI replays each kernel itself).
  template <class Fn>
  kernel_reports per_kernel_by_cupti(Fn& fn) {
    const std::lock_guard<std::mutex> one_device_at_a_time(process_state::auto_range_measurements);
    detail::measurement m(core_, "per_kernel()");
    m.configure(detail::auto_range_kernel_replay, core_.options().max_kernels);
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<detail::kernel_name_recorder> recorder(std::in_place, core_.device().context);
    detail::launch_recording launches(core_.device().index, /*kernel_replay=*/true);
    m.cost.setup_s += detail::seconds_since(t0);
    {
      detail::replay_pass p(m, nullptr, nullptr, /*clean_l2=*/false);
      launches.begin();
      fn();
      p.end();
      launches.end();
    }
    const detail::launch_log names = recorder->log();
    recorder.reset();
    refuse_graphs(names);
    kernel_reports out = m.kernel_range_reports(names, measured_by::kernel_replay, core_.config().passes());
    detail::attach_launches(out.kernels, launches.take());
    m.keep_session();
    return out;
  }

  detail::profiler_core core_;
};

NAPKIN_END_NAMESPACE
