// SPDX-License-Identifier: Apache-2.0
// A measurement and its passes: the one place the pass sequence is written.
//
//   measurement   one measurement's hold on the profiler (one at a time): its CUPTI session, configured for
//                 the metric set, the passes run, their cost, and the decoded report(s)
//   replay_pass   one replay pass, RAII: made, it flushes L2 and starts CUPTI (user range: start, flush,
//                 push); between making and end() the measured work runs (fn, the code in a scope, an
//                 annotated phase); end() pops, stops and synchronizes. Destroyed before end() (fn threw, a
//                 scope was abandoned), it closes CUPTI's range and pass and drops their result.
//   replay_until_complete   napkin's replay: fn once per pass, reset() between passes, until CUPTI has them all
//
// Every front end (session.hpp: measure, per_kernel; scope.hpp; phase.hpp) only makes a measurement and
// drives passes. The shape is nvbench's measure_cupti (nvbench/detail/measure_cupti.cuh): a non-templated
// base (profiler_core, measurement, replay_pass) and a thin template whose run() is a short loop.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <type_traits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/activity.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/cupti/session.hpp"
#include "napkin/profiler/busy_time.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/launches.hpp"
#include "napkin/profiler/replay_overhead.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// What measure() records of each pass: how long fn took on the host (two clock reads around it: it costs
// the range nothing; fn's launches, any host work it does such as a library's first-call start-up, and GPU
// time where fn waits for its work), and from CUPTI's activity records (cupti/activity.hpp) the kernels, memcpys
// and memsets that started inside the pass and the GPU's busy time. Nothing runs on fn's calls: no CUPTI
// callback (it cost libraries that make many calls up to 140 us per range), only records CUPTI writes to its
// buffers. CUDA events around fn were tried and dropped: recorded inside the range they lengthened every
// single-kernel range measure() reports by ~10 us on an H200 (docs/profiler.md).
class pass_recording {
 public:
  // Records the GPU work of `device` (its index), for the recording's life.
  explicit pass_recording(int device)
      : device_(static_cast<std::uint32_t>(device)), held_(activity_collector::instance().hold_intervals()),
        launches_held_(held_ && activity_collector::instance().hold_launches()) {}
  pass_recording(const pass_recording&) = delete;
  pass_recording& operator=(const pass_recording&) = delete;
  ~pass_recording() {
    if (held_) activity_collector::instance().release_intervals();
    if (launches_held_) activity_collector::instance().release_launches();
  }

  void begin() {
    (void)cuptiGetTimestamp(&window_begin_);
    started_ = std::chrono::steady_clock::now();
  }
  void end() {
    const auto stopped = std::chrono::steady_clock::now();
    duration_ns_ = std::chrono::duration<double, std::nano>(stopped - started_).count();
  }
  // After the pass has been synchronized: every piece of work fn queued has started by now, and the next
  // pass's L2 flush starts later.
  void keep_sample() {
    std::uint64_t synchronized = 0;
    (void)cuptiGetTimestamp(&synchronized);
    windows_.push_back({window_begin_, synchronized});
    samples_.push_back({duration_ns_, std::nullopt});
  }

  // After the last pass: each pass's launches (kernels that started in its window) into its sample, and the
  // mean busy time of the passes.
  range_activity finish() {
    if (!held_) {  // CUPTI refused the records: no busy time, no launch counts (the report says so)
      no_single_launch_ = "CUPTI refused its activity records";
      return {};
    }
    activity_collector::flush_forced();
    const std::vector<busy_interval> work = activity_collector::instance().take_intervals(device_);
    range_activity out;
    double busy_sum = 0;
    for (std::size_t i = 0; i < windows_.size() && i < samples_.size(); ++i) {
      std::size_t kernels = 0;
      for (const busy_interval& b : work)
        if (b.kernel && b.start_ns >= windows_[i].first && b.start_ns < windows_[i].second) ++kernels;
      samples_[i].launches = kernels;
      out.kernels = std::max(out.kernels, kernels);
      busy_sum += static_cast<double>(busy_ns_between(work, windows_[i].first, windows_[i].second));
    }
    out.passes = windows_.size();
    out.busy_ns = out.passes ? busy_sum / static_cast<double>(out.passes) : 0.0;
    activity_collector::instance().release_intervals();
    held_ = false;
    if (launches_held_) {
      find_single_launch(activity_collector::instance().take_launches(device_));
      activity_collector::instance().release_launches();
      launches_held_ = false;
    } else {
      no_single_launch_ = "CUPTI refused its kernel records";
    }
    return out;
  }
  std::vector<pass_sample> take_samples() noexcept { return std::move(samples_); }
  // After finish(): the launch of the range's one kernel, when every pass launched exactly one kernel, the
  // same way (grid, block, registers, shared memory); none otherwise.
  const std::optional<kernel_launch>& single_launch() const noexcept { return single_launch_; }
  // After finish(), when there is no single launch: which pass kept it from being one (for diagnostics).
  const std::string& no_single_launch() const noexcept { return no_single_launch_; }

 private:
  std::uint32_t device_;
  bool held_ = false;
  std::uint64_t window_begin_ = 0;
  std::chrono::steady_clock::time_point started_{};
  double duration_ns_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> windows_;  // CUPTI timestamps: pass began, synchronized
  std::vector<pass_sample> samples_;
  bool launches_held_ = false;
  std::optional<kernel_launch> single_launch_;
  std::string no_single_launch_;

  void find_single_launch(const std::vector<kernel_activity>& records) {
    if (windows_.empty()) no_single_launch_ = "no pass ran";
    std::optional<kernel_launch> first;
    std::size_t pass_index = 0;
    for (const auto& [from, to] : windows_) {
      const std::vector<kernel_activity> pass = launches_between(records, from, to);
      ++pass_index;
      if (pass.size() != 1) {
        no_single_launch_ = describe_window(pass_index, pass, records, from, to);
        return;
      }
      const kernel_launch& l = pass.front().launch;
      if (first && !same_launch(*first, l)) {
        no_single_launch_ = "pass " + std::to_string(pass_index) + " launched another kernel or another way";
        return;
      }
      if (!first) first = l;
      // The shared-memory configuration is a record's, not the launch's: CUPTI leaves it out of some records
      // of one range's passes (after earlier measurements in the process). Kept only where every pass agrees.
      else if (first->smem_config_bytes != l.smem_config_bytes) first->smem_config_bytes.reset();
    }
    if (!first) return;
    add_device_facts(*first, static_cast<int>(device_));
    single_launch_ = first;
  }
  // Why pass `index`'s window [from, to) held no single kernel: its records (one per correlation id, as
  // launches_between() keeps them), each placed in the window (name, start, end, stream, correlation id,
  // grid, block), and how many of all the records lay before or after it, or had no time.
  std::string describe_window(std::size_t index, const std::vector<kernel_activity>& pass,
                              const std::vector<kernel_activity>& records, std::uint64_t from, std::uint64_t to) const {
    std::size_t untimed = 0, before = 0, after = 0;
    for (const kernel_activity& k : records) {
      if (k.start_ns == 0 && k.end_ns == 0)
        ++untimed;
      else if (k.start_ns < from)
        ++before;
      else if (k.start_ns >= to)
        ++after;
    }
    const auto offset = [from](std::uint64_t t) {  // signed: a record may end before the window began
      const double ns = static_cast<double>(t) - static_cast<double>(from);
      return (ns < 0 ? "-" : "+") + duration(std::abs(ns) * 1e-9);
    };
    std::string out = "pass " + std::to_string(index) + " of " + std::to_string(windows_.size()) + ": " +
                      std::to_string(pass.size()) + " kernels in its window of " +
                      duration((static_cast<double>(to) - static_cast<double>(from)) * 1e-9) + "; of all " +
                      std::to_string(records.size()) + " records, " + std::to_string(before) + " before it, " +
                      std::to_string(after) + " after it, " + std::to_string(untimed) + " without a time";
    for (const kernel_activity& k : pass)
      out += "; " + k.name + " from " + offset(k.start_ns) + " to " + offset(k.end_ns) + ", stream " +
             std::to_string(k.stream) + ", correlation " + std::to_string(k.correlation) + ", grid " +
             std::to_string(k.launch.grid.x) + ", block " + std::to_string(k.launch.block.x);
    return out;
  }
  // What the launch asked for: the same kernel launched the same way.
  static bool same_launch(const kernel_launch& a, const kernel_launch& b) noexcept {
    return a.grid == b.grid && a.block == b.block && a.registers_per_thread == b.registers_per_thread &&
           a.static_smem_bytes == b.static_smem_bytes && a.dynamic_smem_bytes == b.dynamic_smem_bytes;
  }
};

class measurement {
 public:
  // Holds the profiler for `what` ("measure(\"copy\")": it names the measurement in messages) and waits
  // for the device, so that no earlier work is measured.
  // `current`: keep the profiler's device current on this thread for the measurement's life, so that the
  // measured work (fn, a scope's code) runs there; the caller's is put back after. A watched phase passes
  // false: it spans the user's program, and only its own calls switch (phase.hpp).
  measurement(profiler_core& core, std::string what, bool current = true)
      : core_(core), what_(std::move(what)), hold_(core, what_) {
    if (current) current_.emplace(core_.device().context);
    core_.sync("before " + what_);
  }
  measurement(const measurement&) = delete;
  measurement& operator=(const measurement&) = delete;
  // Without keep_session() (a failure, or a watched phase), CUPTI's range profiler is disabled, so that the
  // next measurement starts from a clean Enable. Then the profiler is released (hold_).
  ~measurement() {
    if (!keep_) core_.drop_session();
    current_.reset();  // before hold_ releases the profiler
  }

  profiler_core& core() noexcept { return core_; }
  const std::string& what() const noexcept { return what_; }
  cupti_session& session() noexcept { return *session_; }
  std::size_t passes_run() const noexcept { return passes_run_; }
  bool complete() const noexcept { return complete_; }

  // Enables CUPTI's range profiler in `mode` (or reuses the profiler's; `own`: a new one) and configures it
  // for the set with room for `max_ranges` ranges.
  void configure(range_mode mode, std::size_t max_ranges, bool own = false) {
    const context_guard current = core_.on_device();
    if (own) core_.drop_session();
    session_ = &core_.session(mode, cost.enable_s);
    // An enabled auto-range session configured again for more ranges recorded fewer than asked: 1 kernel, then
    // 3 gave 2 ranges and "1 dropped" (CUPTI 13.0, H200: benchmarks/device/range_count_probe.cu, docs/accuracy.md);
    // a new Enable records all 3. So another range count gets a new session (Enable costs microseconds).
    if (const auto ranges = session_->configured_ranges(); !mode.user_range() && ranges && *ranges != max_ranges) {
      core_.drop_session();
      session_ = &core_.session(mode, cost.enable_s);
    }
    const auto t0 = std::chrono::steady_clock::now();
    session_->configure(core_.config(), max_ranges);
    cost.setup_s += seconds_since(t0);
  }

  // A pass has ended; `all` when CUPTI has every pass the set needs.
  void pass_ended(bool all) noexcept {
    ++passes_run_;
    complete_ = all;
  }

  // Refuses one pass more than the planned count and profiler_options::extra_pass_limit allow: work that
  // changes between passes never completes. `hint` says what must not change.
  void refuse_endless_replay(const char* hint) const {
    const std::size_t planned = core_.config().passes();
    if (passes_run_ >= planned + core_.options().extra_pass_limit)
      raise_profiler_error("napkin: " + what_ + " did not complete after " + std::to_string(passes_run_) +
                           " passes (planned " + std::to_string(planned) + "): " + hint);
  }

  // The one range the passes recorded, decoded and evaluated (decode_s), as a report with the cost so far.
  sol_report report(const std::string& name, measured_by how) {
    const context_guard current = core_.on_device();
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t dropped = session_->decode();
    if (dropped != 0)
      raise_profiler_error("napkin: CUPTI dropped " + std::to_string(dropped) + " range(s) of " + what_);
    const std::vector<std::uint8_t>& data = session_->data();
    const std::size_t ranges = metric_config::range_count(data);
    if (ranges != 1)
      raise_profiler_error("napkin: expected one range for " + what_ + ", CUPTI recorded " +
                           std::to_string(ranges) + " (unbalanced ranges inside the measured work?)");
    sol_report r = range_report(name, data, 0, how, passes_run_);
    // User replay counts memory instructions of its own, as application replay does (replay_overhead.hpp),
    // per kernel in the range (an H200, CUPTI 13.0: docs/why.md); a user range has no reference range yet.
    replay_overhead_not_measured(
        r, "user replay", "on an H200 with CUPTI 13.0, 1 global store request and 1 store sector per kernel in the range");
    cost.decode_s = seconds_since(t0);
    r.cost = cost;
    return r;
  }

  // One report per auto range, named from `launches` (launch order = range order), with the cost so far.
  kernel_reports kernel_range_reports(const launch_log& launches, measured_by how, std::size_t passes) {
    const context_guard current = core_.on_device();
    const auto t0 = std::chrono::steady_clock::now();
    kernel_reports out;
    out.dropped = session_->decode();
    const std::vector<std::uint8_t>& data = session_->data();
    const std::size_t ranges = metric_config::range_count(data);
    // Kernel replay does not count what did not fit: the launch count does (when no graph hides it).
    if (const auto launched = launches.kernel_launches(); launched && *launched > ranges)
      out.dropped = std::max(out.dropped, *launched - ranges);
    const std::vector<std::string> names = launches.names_for(ranges);
    for (std::size_t i = 0; i < ranges; ++i) out.kernels.push_back(range_report(names[i], data, i, how, passes));
    cost.decode_s = seconds_since(t0);
    out.cost = cost;
    return out;
  }

  // The measurement succeeded: the profiler keeps its CUPTI session for the next one.
  void keep_session() noexcept { keep_ = true; }

  measurement_cost cost;

 private:
  sol_report range_report(const std::string& name, const std::vector<std::uint8_t>& data, std::size_t range,
                          measured_by how, std::size_t passes) const {
    const metric_config& config = core_.config();
    sol_report r = make_report(name, config.set(), config.evaluate(data, range));
    r.chip = config.chip();
    r.context = core_.identity();
    r.passes = passes;
    r.how = how;
    return r;
  }

  // The profiler held from construction to destruction, a failed construction included.
  struct hold {
    hold(profiler_core& c, const std::string& what) : core(c) { core.hold(what); }
    hold(const hold&) = delete;
    hold& operator=(const hold&) = delete;
    ~hold() { core.release(); }
    profiler_core& core;
  };

  profiler_core& core_;
  std::string what_;
  hold hold_;
  std::optional<context_guard> current_;  // the profiler's device current while the measured work runs
  bool keep_ = false;
  cupti_session* session_ = nullptr;
  std::size_t passes_run_ = 0;
  bool complete_ = false;
};

class replay_pass {
 public:
  // Opens a pass of `m`: a user range named `range`, or (null) CUPTI's auto ranges. `clean_l2`: flush L2
  // first (false for CUPTI's kernel replay, which replays each kernel itself). `recording`: measure()'s
  // per-pass samples.
  replay_pass(measurement& m, const char* range, pass_recording* recording = nullptr, bool clean_l2 = true)
      : replay_pass(opening{}, m, recording) {
    open(range, clean_l2);
  }
  replay_pass(const replay_pass&) = delete;
  replay_pass& operator=(const replay_pass&) = delete;
  ~replay_pass() {
    if (ended_) return;
    m_.session().abandon();
    m_.core().settle();
  }

  // Closes the pass: returns whether CUPTI now has every pass the set needs.
  bool end() {
    using clock = std::chrono::steady_clock;
    const auto t4 = clock::now();
    if (recording_ != nullptr) recording_->end();
    bool all = false;
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      if (pushed_) m_.session().pop();
      all = m_.session().stop();
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const profiler_error&) {
      // After a fault inside the work CUPTI fails too (CUPTI_ERROR_UNKNOWN): report the CUDA error first.
      m_.core().sync(where());
      throw;
    }
#endif
    const auto t5 = clock::now();
    m_.core().sync(where());
    const auto t6 = clock::now();
    ended_ = true;
    if (recording_ != nullptr) recording_->keep_sample();
    measurement_cost& cost = m_.cost;
    cost.flush_s += flush_s_;
    cost.cupti_s += std::chrono::duration<double>((t2_ - t1_) + (t3_ - t2b_) + (t5 - t4)).count();
    cost.work_s += std::chrono::duration<double>((t4 - t3_) + (t6 - t5)).count();
    cost.passes_s = cost.flush_s + cost.cupti_s + cost.work_s;
    m_.pass_ended(all);
    return all;
  }

 private:
  using time_point = std::chrono::steady_clock::time_point;

  // The object exists once this delegated constructor returns: if open() then throws, ~replay_pass() closes
  // whatever it had opened.
  struct opening {};
  replay_pass(opening, measurement& m, pass_recording* recording) noexcept : m_(m), recording_(recording) {}

  void open(const char* range, bool clean_l2) {
    using clock = std::chrono::steady_clock;
    auto flush = [&] {
      const auto f0 = clock::now();
      m_.core().flush_l2();
      flush_s_ = seconds_since(f0);
    };
    if (clean_l2 && range == nullptr) flush();  // auto ranges: any kernel after start would be a range of its own
    t1_ = clock::now();
    m_.session().start();
    t2_ = clock::now();
    if (clean_l2 && range != nullptr) flush();  // user range: after start, whose own writes it cleans away too
    t2b_ = clock::now();
    if (range != nullptr) {
      m_.session().push(range);
      pushed_ = true;
    }
    if (recording_ != nullptr) recording_->begin();
    t3_ = clock::now();
  }

  std::string where() const { return "inside " + m_.what(); }

  measurement& m_;
  pass_recording* recording_;
  bool pushed_ = false;
  bool ended_ = false;
  double flush_s_ = 0;
  time_point t1_{}, t2_{}, t2b_{}, t3_{};  // start called, start returned, push called, work began
};

// napkin's replay: reset() (before every pass but the first, or every pass with `reset_first`), then fn in
// a pass, until CUPTI has every pass the set needs.
template <class Fn, class Reset>
void replay_until_complete(measurement& m, const char* range, Fn& fn, Reset& reset, bool reset_first,
                           pass_recording* recording = nullptr) {
  while (!m.complete()) {
    m.refuse_endless_replay("fn must launch the same kernels every time it is called");
    if (m.passes_run() > 0 || reset_first) {
      reset();
      m.core().sync("in the reset callback");
    }
    replay_pass p(m, range, recording);
    fn();
    p.end();
  }
}

}  // namespace detail
NAPKIN_END_NAMESPACE
