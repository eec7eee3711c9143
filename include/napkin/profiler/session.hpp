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
// This file declares the front ends; their bodies (session_impl.hpp) make a measurement and drive its passes
// (pass.hpp); what they share (the device, CUPTI, the metric set, the fault policy) is the profiler's core
// (core.hpp), held behind one pointer so that the class is the same header-only and separately compiled
// (NAPKIN_SEPARATE_COMPILATION: this header then includes no CUDA or CUPTI header but cupti_result.h). The
// templates take any callable and hand it on as a detail::callable_ref.
// A profiler is used by one thread at a time; profilers on different devices may measure at once from
// different threads (docs/profiler.md, "Two devices at once"), never two on one device.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "napkin/cupti/metrics.hpp"
#include "napkin/cupti/profiler_error.hpp"
#include "napkin/detail/callable_ref.hpp"
#include "napkin/document/report_context.hpp"
#include "napkin/nvtx/domain.hpp"
#include "napkin/profiler/options.hpp"
#include "napkin/profiler/phase.hpp"
#include "napkin/profiler/scope.hpp"
#include "napkin/profiler/sol_fast.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
class profiler_core;
}  // namespace detail

class profiler {
 public:
  using scope = profiler_scope;
  using phase = profiler_phase;

  explicit profiler(metric_set set = metric_sets::sol_fast(), const profiler_options& options = {});
  profiler(const profiler&) = delete;
  profiler& operator=(const profiler&) = delete;
  ~profiler();

  const std::string& chip() const noexcept;
  // The device measured (profiler_options::device, or the one current when the profiler was made), and its
  // identity as every report carries it (sol_report::context): index, name, PCI bus id, UUID.
  int device() const noexcept;
  const report_context& context() const noexcept;
  const metric_set& metrics() const noexcept;
  // Replay passes each measure() will run.
  std::size_t passes() const noexcept;
  // False after a CUDA fault inside measured work: the context is unusable, and so is the profiler.
  bool usable() const noexcept;
  const std::string& disabled_reason() const noexcept;

  // Runs fn as one range, once per pass, after one unprofiled warm-up run (profiler_options::warm_up). fn
  // must launch the same work each time; it may use any streams (everything it launched is synchronized
  // before the pass ends). Each pass's duration and kernel launches are recorded (sol_report::pass_samples):
  // when the passes disagree the report says so and gives no verdict.
  template <class Fn>
  sol_report measure(const std::string& name, Fn&& fn) {
    auto no_reset = [] {};
    return measure_callable(name, fn, no_reset);
  }

  // As above, calling reset() before every pass (without the warm-up run: before every pass after the first),
  // for work that is not idempotent (in-place updates, accumulations): reset() restores the inputs; it is
  // not measured.
  template <class Fn, class Reset>
  sol_report measure(const std::string& name, Fn&& fn, Reset&& reset) {
    return measure_callable(name, fn, reset);
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
    auto no_reset = [] {};
    return per_kernel_callable(fn, how, no_reset, /*has_reset=*/false);
  }

  template <class Fn, class Reset>
  kernel_reports per_kernel(Fn&& fn, replay how, Reset&& reset) {
    return per_kernel_callable(fn, how, reset, /*has_reset=*/true);
  }

  // One range around a scope's work, without replay: only for sets that fit one pass (scope.hpp).
  //   { auto s = prof.open_scope("step"); step(); sol_report r = s.stop(); }
  scope open_scope(const std::string& name);

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
    return watch_phase_in(detail::domain_name_of<D>(), std::move(name));
  }

 private:
  // The templates' bodies, over the callables they were given (session_impl.hpp).
  sol_report measure_callable(const std::string& name, detail::callable_ref fn, detail::callable_ref reset);
  kernel_reports per_kernel_callable(detail::callable_ref fn, replay how, detail::callable_ref reset,
                                     bool has_reset);
  kernel_reports per_kernel_by_application(detail::callable_ref fn, detail::callable_ref reset);
  // CUPTI's kernel replay: fn once, in one pass (no L2 flush: CUPTI replays each kernel itself).
  kernel_reports per_kernel_by_cupti(detail::callable_ref fn);
  phase watch_phase_in(const char* domain, std::string name);

  std::unique_ptr<detail::profiler_core> core_;
};

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/session_impl.hpp"
#endif
