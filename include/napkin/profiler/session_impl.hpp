// SPDX-License-Identifier: Apache-2.0
// napkin::profiler's member definitions: the front ends over the core (core.hpp) and the passes (pass.hpp).
// Included by profiler/session.hpp (header-only, the default: the members are inline) or, with
// NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/profiler/busy_time.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/launches.hpp"
#include "napkin/profiler/pass.hpp"
#include "napkin/profiler/replay_overhead.hpp"
#include "napkin/profiler/report.hpp"  // header-only, session.hpp brings the renderers as it did
#include "napkin/profiler/session.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC profiler::profiler(metric_set set, const profiler_options& options)
    : core_(std::make_unique<detail::profiler_core>(std::move(set), options)) {}
NAPKIN_DETAIL_FUNC profiler::~profiler() = default;

NAPKIN_DETAIL_FUNC const std::string& profiler::chip() const noexcept { return core_->config().chip(); }
NAPKIN_DETAIL_FUNC int profiler::device() const noexcept { return core_->device().index; }
NAPKIN_DETAIL_FUNC const report_context& profiler::context() const noexcept { return core_->identity(); }
NAPKIN_DETAIL_FUNC const metric_set& profiler::metrics() const noexcept { return core_->config().set(); }
NAPKIN_DETAIL_FUNC std::size_t profiler::passes() const noexcept { return core_->config().passes(); }
NAPKIN_DETAIL_FUNC bool profiler::usable() const noexcept { return core_->usable(); }
NAPKIN_DETAIL_FUNC const std::string& profiler::disabled_reason() const noexcept { return core_->disabled_reason(); }

NAPKIN_DETAIL_FUNC profiler::scope profiler::open_scope(const std::string& name) { return scope(*core_, name); }

NAPKIN_DETAIL_FUNC profiler::phase profiler::watch_phase_in(const char* domain, std::string name) {
  return phase(*core_, domain, std::move(name));
}

NAPKIN_DETAIL_FUNC sol_report profiler::measure_callable(const std::string& name, detail::callable_ref fn,
                                                         detail::callable_ref reset) {
  detail::profiler_core& core = *core_;
  detail::measurement m(core, "measure(\"" + name + "\")");
  const bool warm_up = core.options().warm_up;
  auto t0 = std::chrono::steady_clock::now();
  if (warm_up) {
    // One unprofiled run first: one-time work in fn (a library's first call) happens here, not in a pass.
    fn();
    core.sync("inside " + m.what() + "'s warm-up run");
  }
  m.cost.setup_s += detail::seconds_since(t0);
  m.configure(detail::user_range_user_replay, 1);
  t0 = std::chrono::steady_clock::now();
  detail::pass_recording recording(core.device().index);
  m.cost.setup_s += detail::seconds_since(t0);
  detail::replay_until_complete(m, name.c_str(), fn, reset, warm_up, &recording);
  const range_activity activity = recording.finish();
  sol_report r = m.report(name, measured_by::user_range);
  r.launch = recording.single_launch();
  adjust_to_busy_time(r, activity, core.config().set());
  r.pass_samples = recording.take_samples();
  r.passes_disagree = find_pass_disagreement(r.pass_samples);
  m.keep_session();
  return r;
}

NAPKIN_DETAIL_FUNC kernel_reports profiler::per_kernel_callable(detail::callable_ref fn, replay how,
                                                                detail::callable_ref reset, bool has_reset) {
  if (has_reset && how != replay::application)
    detail::raise_profiler_error(
        "napkin: per_kernel()'s reset callback is for replay::application; CUPTI's kernel "
        "replay restores memory itself and would never call it");
  if (how == replay::application) return per_kernel_by_application(fn, reset);
  return per_kernel_by_cupti(fn);
}

namespace detail {
NAPKIN_DETAIL_FUNC void refuse_graphs(const launch_log& launches) {
  if (launches.saw_graph())
    raise_profiler_error(
        "napkin: per_kernel() cannot measure kernels inside a CUDA graph (CUPTI's auto range "
        "records only the graph's first kernel); use measure(), which covers the whole graph");
}
}  // namespace detail

NAPKIN_DETAIL_FUNC kernel_reports profiler::per_kernel_by_application(detail::callable_ref fn,
                                                                      detail::callable_ref reset) {
  const std::lock_guard<std::mutex> one_device_at_a_time(process_state::auto_range_measurements);
  detail::profiler_core& core = *core_;
  detail::measurement m(core, "per_kernel(fn, replay::application)");
  // One unprofiled run first, to name and count fn's kernels: CUPTI's auto range leaves dirty lines in L2
  // in proportion to the ranges its counter image holds (H100: 3 MB for 1 range, 21 MB for 16, 25 MB for
  // 256; benchmarks/device/dirty_l2_probe.cu), which the first kernel of each pass would write back. So
  // the image holds exactly fn's kernels. reset() then runs before every profiled pass.
  const auto t0 = std::chrono::steady_clock::now();
  detail::launch_log names;
  // The counting run's kernel records give each kernel's launch (the passes' runs launch the same).
  detail::launch_recording launches(core.device().index, /*kernel_replay=*/false);
  {
    detail::kernel_name_recorder recorder(core.device().context);
    launches.begin();
    fn();
    core.sync("inside " + m.what() + "'s counting run");
    launches.end();
    names = recorder.log();
  }
  m.cost.setup_s += detail::seconds_since(t0);  // the counting run prepares the passes
  detail::refuse_graphs(names);
  const std::size_t max_kernels = core.options().max_kernels;
  // The mode's own memory-instruction counts (replay_overhead.hpp): a kernel that executes no memory
  // instruction after fn in every pass, its range the last, when the set counts memory instructions and the
  // ranges have room for it.
  const std::optional<std::size_t> launched = names.kernel_launches();
  const bool counts = std::any_of(core.config().set().metrics.begin(), core.config().set().metrics.end(),
                                  [](const std::string& metric) { return counts_memory_instructions(metric); });
  std::string no_reference;  // why the overhead was not measured
  cudaKernel_t reference = nullptr;
  if (counts && !launched) no_reference = "fn's kernel count is unknown";
  if (counts && launched && *launched + 1 > max_kernels) no_reference = "fn fills profiler_options::max_kernels";
  if (counts && no_reference.empty()) {
    const detail::context_guard current = core.on_device();
    if (const cudaError_t e = detail::load_l2_clean_kernel(reference); e != cudaSuccess)
      no_reference = "its reference kernel did not load: " + std::string(napkin::to_string(e));
  }
  const bool with_reference = reference != nullptr;
  m.configure(detail::auto_range_user_replay,
              with_reference ? *launched + 1 : std::clamp<std::size_t>(launched.value_or(max_kernels), 1, max_kernels));
  auto fn_then_reference = [&] {
    fn();
    NAPKIN_DETAIL_PROFILER_CHECK(detail::launch_no_memory_kernel(reference));
  };
  if (with_reference)
    detail::replay_until_complete(m, nullptr, fn_then_reference, reset, true);
  else
    detail::replay_until_complete(m, nullptr, fn, reset, true);
  kernel_reports out = m.kernel_range_reports(names, measured_by::application_replay, m.passes_run());
  if (with_reference && out.kernels.size() == *launched + 1) {
    const detail::replay_overhead overhead = detail::replay_overhead_of(out.kernels.back());
    out.kernels.pop_back();
    for (sol_report& k : out.kernels) detail::take_out_replay_overhead(k, overhead, "application replay");
  } else {
    if (with_reference) {
      if (out.kernels.size() > *launched) out.kernels.resize(*launched);
      no_reference = "its reference kernel's range was not recorded";
    }
    if (counts)
      for (sol_report& k : out.kernels) detail::replay_overhead_not_measured(k, "application replay", no_reference);
  }
  detail::attach_launches(out.kernels, launches.take());
  m.keep_session();
  return out;
}

NAPKIN_DETAIL_FUNC kernel_reports profiler::per_kernel_by_cupti(detail::callable_ref fn) {
  const std::lock_guard<std::mutex> one_device_at_a_time(process_state::auto_range_measurements);
  detail::profiler_core& core = *core_;
  detail::measurement m(core, "per_kernel()");
  m.configure(detail::auto_range_kernel_replay, core.options().max_kernels);
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<detail::kernel_name_recorder> recorder(std::in_place, core.device().context);
  detail::launch_recording launches(core.device().index, /*kernel_replay=*/true);
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
  detail::refuse_graphs(names);
  kernel_reports out = m.kernel_range_reports(names, measured_by::kernel_replay, core.config().passes());
  detail::attach_launches(out.kernels, launches.take());
  m.keep_session();
  return out;
}

NAPKIN_END_NAMESPACE
