// SPDX-License-Identifier: Apache-2.0
// profiler::phase: an annotated phase of a running program, measured where it runs (profiler::watch_phase).
//
// The next occurrences of a napkin::range (or NAPKIN_RANGE / NAPKIN_FUNC_RANGE) of the phase's name, in its
// NVTX domain, opened on the watching thread, are one replay pass each: the range's push opens a pass, its
// pop ends it, until the set's passes are done. A range listener (napkin/nvtx.hpp) delivers the pushes and
// pops; a failure inside them (they are noexcept) becomes the phase's error, reported by report(). The
// listener and the members are phase_impl.hpp (NAPKIN_SEPARATE_COMPILATION compiles them once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <memory>
#include <string>

#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
class profiler_core;
}  // namespace detail

// A watched phase. Move-only; the profiler must outlive it. Destroying it stops the watch; a pass still
// open (the phase's range not yet closed) is closed and dropped.
class profiler_phase {
 public:
  // profiler::watch_phase<D>(name) makes one: `domain` is D's NVTX domain name.
  profiler_phase(detail::profiler_core& core, const char* domain, std::string name);
  profiler_phase(const profiler_phase&) = delete;
  profiler_phase& operator=(const profiler_phase&) = delete;
  profiler_phase(profiler_phase&&) noexcept;
  profiler_phase& operator=(profiler_phase&&) = delete;
  ~profiler_phase();

  // True once the report is ready, or the watch failed (report() then throws why).
  bool done() const noexcept;
  std::size_t passes_done() const noexcept;
  std::size_t passes_needed() const noexcept;
  const std::string& name() const noexcept;

  sol_report report() const;

 private:
  // What the listener drives (phase_impl.hpp).
  struct state;

  std::unique_ptr<state> state_;
};

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/phase_impl.hpp"
#endif
