// SPDX-License-Identifier: Apache-2.0
// profiler::scope: one range around a scope's work, one pass, no replay; only for sets that fit one pass.
//
//   { auto s = prof.open_scope("step"); step(); napkin::sol_report r = s.stop(); }
//
// A scope is a measurement with one pass open from open_scope() to stop(). Destroyed without stop() (an
// exception unwinding), it closes the range and drops its result. Scopes share the profiler's enabled CUPTI
// session with measure(), so only the first pays Enable. Move-only; the profiler must outlive it.
#pragma once

#include "napkin/config.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "napkin/cupti/errors.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/pass.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

class profiler_scope {
 public:
  // profiler::open_scope(name) makes one.
  profiler_scope(detail::profiler_core& core, std::string name) : name_(std::move(name)) {
    open_ = std::make_unique<open_range>(core, name_);
  }
  profiler_scope(const profiler_scope&) = delete;
  profiler_scope& operator=(const profiler_scope&) = delete;
  profiler_scope(profiler_scope&&) noexcept = default;
  profiler_scope& operator=(profiler_scope&&) = delete;
  ~profiler_scope() = default;

  const std::string& name() const noexcept { return name_; }

  // Ends the range and returns its report. Stops the scope even when it fails.
  sol_report stop() {
    if (!open_) detail::raise_profiler_error("napkin: scope \"" + name_ + "\" was already stopped");
    const std::unique_ptr<open_range> range = std::move(open_);
    if (!range->pass_->end())
      detail::raise_profiler_error("napkin: scope \"" + name_ + "\" needed more than one pass");
    sol_report r = range->measurement_.report(name_, measured_by::scope);
    range->measurement_.keep_session();
    return r;
  }

 private:
  // The measurement and its one pass, from open_scope() to stop(): not movable (the pass refers to the
  // measurement), hence held by pointer.
  struct open_range {
    detail::measurement measurement_;
    std::optional<detail::replay_pass> pass_;  // destroyed first: an open pass is closed before the measurement ends

    open_range(detail::profiler_core& core, const std::string& name)
        : measurement_(core, "scope \"" + name + "\"") {
      const metric_config& config = core.config();
      if (config.passes() != 1)
        detail::raise_profiler_error("napkin: a scope cannot replay its work, but the \"" + config.set().name +
                                     "\" set needs " + std::to_string(config.passes()) + " passes on " +
                                     config.chip() + "; use measure() or the one_pass() set");
      measurement_.configure(detail::user_range_user_replay, 1);
      pass_.emplace(measurement_, name.c_str());
    }
  };

  std::string name_;
  std::unique_ptr<open_range> open_;
};

NAPKIN_END_NAMESPACE
