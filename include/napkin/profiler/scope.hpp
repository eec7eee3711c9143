// SPDX-License-Identifier: Apache-2.0
// profiler::scope: one range around a scope's work, one pass, no replay; only for sets that fit one pass.
//
//   { auto s = prof.open_scope("step"); step(); napkin::sol_report r = s.stop(); }
//
// A scope is a measurement with one pass open from open_scope() to stop(). Destroyed without stop() (an
// exception unwinding), it closes the range and drops its result. Scopes share the profiler's enabled CUPTI
// session with measure(), so only the first pays Enable. Move-only; the profiler must outlive it. Its members are
// scope_impl.hpp (NAPKIN_SEPARATE_COMPILATION compiles them once).
#pragma once

#include "napkin/config.hpp"

#include <memory>
#include <string>

#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
class profiler_core;
}  // namespace detail

class profiler_scope {
 public:
  // profiler::open_scope(name) makes one.
  profiler_scope(detail::profiler_core& core, std::string name);
  profiler_scope(const profiler_scope&) = delete;
  profiler_scope& operator=(const profiler_scope&) = delete;
  profiler_scope(profiler_scope&&) noexcept;
  profiler_scope& operator=(profiler_scope&&) = delete;
  ~profiler_scope();

  const std::string& name() const noexcept { return name_; }

  // Ends the range and returns its report. Stops the scope even when it fails.
  sol_report stop();

 private:
  // The measurement and its one pass, from open_scope() to stop() (scope_impl.hpp).
  struct open_range;

  std::string name_;
  std::unique_ptr<open_range> open_;
};

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/scope_impl.hpp"
#endif
