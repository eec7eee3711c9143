// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/sample_timeline.hpp — puts decoded PM samples on the timeline, in the order CUPTI decodes
// them, before they reach the accumulator: the first sample after a session (re)start is dropped (it spans
// the setup), an overflow leaves a dropped stretch, and samples CUPTI returns without a usable time are
// lost, with the stretch they leave as a dropped window.
//
// Samples without a usable time: on an H200 with CUDA 13.0, CUPTI returned runs of samples that were
// zero-length and all stamped with one stale time during some kernels. Their elapsed cycles
// (gpc__cycles_elapsed.max) added up to the busy time of the kernels in the stretch, not to the stretch
// (docs/monitor.md): where each sample lay cannot be told, so nothing is attributed to them, and the run's
// size, the stretch and the time its cycles span are recorded for diagnostics().
//
// Plain C++17; compiles without CUDA and with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "napkin/monitor/accumulator.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

// The samples that had no usable time (for monitor::diagnostics()).
struct timeline_counts {
  std::size_t untimed = 0;  // samples that began before the previous one ended: lost
  std::string examples;     // the first three runs: "[N at T in a gap of G ns, their cycles span C ns]"
};

class sample_timeline {
 public:
  // The next sample spans a session's setup (the monitor (re)started sampling): it becomes a dropped window.
  void session_started() noexcept { setup_next_ = true; }

  // Samples were lost before the next one (the hardware buffer overflowed): the stretch between the last
  // sample and the next becomes a dropped window.
  void samples_lost() noexcept { overflow_ = true; }

  // Nothing was sampled until `t` (sampling paused): an untimed run waiting for its stretch ends there.
  void paused_until(std::uint64_t t, monitor_accumulator& into) {
    end_run(0);
    if (t > last_end_) {
      into.skip_until(t);
      last_end_ = t;
    }
  }

  // One decoded sample, in CUPTI's order. Samples with a usable time go to `into` (add_sample or
  // add_dropped) in time order; an untimed one is lost, and the stretch until the next timed one dropped.
  void push(const pm_sample& s, monitor_accumulator& into) {
    if (last_end_ != 0 && s.start_ns < last_end_) {  // no usable time
      ++counts_.untimed;
      ++run_samples_;
      if (s.elapsed_cycles && *s.elapsed_cycles > 0) run_cycles_ += *s.elapsed_cycles;
      if (run_start_stamp_ == 0) run_start_stamp_ = s.start_ns;
      return;
    }
    if (last_end_ != 0 && (run_samples_ > 0 || overflow_)) drop_stretch(s, into);
    overflow_ = false;
    if (setup_next_) {
      into.add_dropped({s.start_ns, s.end_ns, 1});
      setup_next_ = false;
    } else {
      into.add_sample(s);
      note_rate(s);
    }
    last_end_ = s.end_ns;
  }

  std::uint64_t last_end() const noexcept { return last_end_; }
  const timeline_counts& counts() const noexcept { return counts_; }

 private:
  // The stretch [last_end_, next.start_ns) becomes a dropped window standing for the untimed run's samples
  // (at least one: an overflow lost some).
  void drop_stretch(const pm_sample& next, monitor_accumulator& into) {
    const std::uint64_t gap = next.start_ns > last_end_ ? next.start_ns - last_end_ : 0;
    const std::uint64_t samples = std::max<std::uint64_t>(run_samples_, 1);
    end_run(gap);
    if (gap > 0) into.add_dropped({last_end_, next.start_ns, samples});
  }

  // Records the run that just ended (its size, the stretch it left and the time its cycles span).
  void end_run(std::uint64_t gap) {
    if (run_samples_ > 0 && examples_++ < 3) {
      counts_.examples += " [" + std::to_string(run_samples_) + " at " + std::to_string(run_start_stamp_) +
                          " in a gap of " + std::to_string(gap) + " ns";
      if (cycles_per_ns_ > 0)
        counts_.examples +=
            ", their cycles span " + std::to_string(static_cast<std::uint64_t>(run_cycles_ / cycles_per_ns_)) + " ns";
      counts_.examples += "]";
    }
    run_samples_ = 0;
    run_cycles_ = 0;
    run_start_stamp_ = 0;
  }

  // The clock rate of the good samples (elapsed cycles per ns), to tell the time a run's cycles span.
  void note_rate(const pm_sample& s) {
    if (s.elapsed_cycles && *s.elapsed_cycles > 0 && s.end_ns > s.start_ns)
      cycles_per_ns_ = *s.elapsed_cycles / static_cast<double>(s.end_ns - s.start_ns);
  }

  std::uint64_t last_end_ = 0;
  bool setup_next_ = false;
  bool overflow_ = false;
  double cycles_per_ns_ = 0;
  std::uint64_t run_samples_ = 0;  // the current untimed run: its size, its cycles, its (stale) stamp
  double run_cycles_ = 0;
  std::uint64_t run_start_stamp_ = 0;
  timeline_counts counts_;
  std::size_t examples_ = 0;
};

NAPKIN_END_NAMESPACE
