// SPDX-License-Identifier: Apache-2.0
// profiler::scope's members: one measurement with its one pass open. Included by profiler/scope.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "napkin/cupti/errors.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/pass.hpp"
#include "napkin/profiler/scope.hpp"

NAPKIN_BEGIN_NAMESPACE

// Not movable (the pass refers to the measurement), hence held by pointer.
struct profiler_scope::open_range {
  detail::measurement measurement_;
  std::optional<detail::replay_pass> pass_;  // destroyed first: an open pass is closed before the measurement ends

  open_range(detail::profiler_core& core, const std::string& name) : measurement_(core, "scope \"" + name + "\"") {
    const metric_config& config = core.config();
    if (config.passes() != 1)
      detail::raise_profiler_error("napkin: a scope cannot replay its work, but the \"" + config.set().name +
                                   "\" set needs " + std::to_string(config.passes()) + " passes on " +
                                   config.chip() + "; use measure() or the one_pass() set");
    measurement_.configure(detail::user_range_user_replay, 1);
    pass_.emplace(measurement_, name.c_str());
  }
};

NAPKIN_DETAIL_FUNC profiler_scope::profiler_scope(detail::profiler_core& core, std::string name)
    : name_(std::move(name)) {
  open_ = std::make_unique<open_range>(core, name_);
}
NAPKIN_DETAIL_FUNC profiler_scope::profiler_scope(profiler_scope&&) noexcept = default;
// Destroyed without stop() (an exception unwinding), it closes the range and drops its result.
NAPKIN_DETAIL_FUNC profiler_scope::~profiler_scope() = default;

NAPKIN_DETAIL_FUNC sol_report profiler_scope::stop() {
  if (!open_) detail::raise_profiler_error("napkin: scope \"" + name_ + "\" was already stopped");
  const std::unique_ptr<open_range> range = std::move(open_);
  if (!range->pass_->end())
    detail::raise_profiler_error("napkin: scope \"" + name_ + "\" needed more than one pass");
  sol_report r = range->measurement_.report(name_, measured_by::scope);
  range->measurement_.keep_session();
  return r;
}

NAPKIN_END_NAMESPACE
