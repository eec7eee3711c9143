// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/sample_timeline.hpp — puts decoded PM samples on the timeline, in the order CUPTI decodes
// them, before they reach the accumulator: the first sample after a session (re)start is dropped (it spans
// the setup), an overflow or a hole between two timed samples leaves a dropped stretch counted in samples,
// and samples CUPTI returns without a usable time are placed in the gap they leave when their elapsed cycles
// account for it, else counted as lost.
//
// Why the placing, and why only then: on an H200 with CUDA 13.0, CUPTI returned runs of samples that were
// zero-length and all stamped with one stale time (the session's start), more of them the more samples a
// drain found waiting (docs/monitor.md). Their counter values are whole samples; only their times are
// wrong. Each sample carries gpc__cycles_elapsed.max (the GPU clocks it spans). On a busy device (a
// 10-minute soak at 1 ms samples) every run's cycles, at the clock rate of the good samples around it,
// spanned the stretch it left within 0.2 % (4.000 ms: 3.998 ms; 6.000 ms: 5.994 ms), so the run is laid end
// to end over the stretch, each sample as long as its share of the cycles. With idle time in the stretch
// (the accuracy run's gaps between kernels) the cycles spanned only the kernels' busy time (13.4 ms in a
// 49.2 ms stretch): where each sample lay cannot be told, so such a run is lost, with the stretch as a
// dropped window. A run is placed only when its cycles fill the stretch within `placement_tolerance`.
// (A later probe, docs/monitor.md "What those samples are", found such runs to be the survivors of a stretch
// whose other samples were lost, each one interval long: they came only after a decode had filled a
// counter-data image. That is also why their cycles could not fill the stretch.)
//
// Samples can also be missing with no trace: a decode that filled its image lost up to hundreds of samples
// with neither an overflow flag nor an untimed survivor (the same probe). Consecutive samples are
// contiguous (one ends where the next starts, on an H200 and an H100), so a hole of at least half a sample
// between two timed samples is such a loss: a dropped window, its samples counted as the hole over a
// sample's length. A sample's length is the shorter of the last two timed ones (a session's first sample
// spans its setup, ~0.4 s). Any dropped stretch (an overflow, a lost untimed run) counts its samples the
// same way, at least as many as the run it stands for.
//
// Plain C++17; compiles without CUDA and with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/monitor/accumulator.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

// What the timeline did with the samples that had no usable time (for monitor::diagnostics()).
struct timeline_counts {
  std::size_t untimed = 0;  // samples that began before the previous one ended
  std::size_t placed = 0;   // of those, placed in the gap they left by their elapsed cycles
  std::size_t lost = 0;     // of those, lost (a dropped window stands for them)
  std::size_t missing = 0;  // samples absent between two timed ones, beyond the untimed runs lost (holes,
                            // overflows: a dropped window stands for them)
  std::string examples;     // the first three runs, each "N samples at T in a gap of G ns: placed|lost (why)"
};

class sample_timeline {
 public:
  // How far the cycles of a run may miss the gap it left (a fraction of the gap) and still be placed: the
  // measured runs missed by at most 0.2 %, the refused ones by far more (see above).
  static constexpr double placement_tolerance = 0.02;
  // The longest untimed run kept waiting for its gap (a longer one is lost: bounded memory).
  static constexpr std::size_t max_run = 4096;

  // The next sample spans a session's setup (the monitor (re)started sampling): it becomes a dropped window.
  void session_started() noexcept { setup_next_ = true; }

  // Samples were lost before the next one (the hardware buffer overflowed): the stretch between the last
  // sample and the next becomes a dropped window, and no untimed run is placed across it.
  void samples_lost() noexcept { overflow_ = true; }

  // Nothing was sampled until `t` (sampling paused): an untimed run waiting for its gap is lost.
  void paused_until(std::uint64_t t, monitor_accumulator& into) {
    lose_run("sampling paused");
    if (t > last_end_) {
      into.skip_until(t);
      last_end_ = t;
    }
  }

  // One decoded sample, in CUPTI's order. Samples with a usable time go to `into` (add_sample or
  // add_dropped) in time order; an untimed one waits for the next timed one, which tells the gap.
  void push(const pm_sample& s, monitor_accumulator& into) {
    // A session restarted after sampling stopped (monitor_settings::sample_for_ns) reports its first sample
    // from the stop, over time paused_until() already closed: the part after it is the setup sample.
    if (setup_next_ && last_end_ != 0 && s.start_ns < last_end_ && s.end_ns > last_end_ && run_.empty()) {
      into.add_dropped({last_end_, s.end_ns, 1});
      setup_next_ = false;
      last_end_ = s.end_ns;
      return;
    }
    if (last_end_ != 0 && s.start_ns < last_end_) {  // no usable time: wait for the gap
      ++counts_.untimed;
      if (run_.size() == max_run) lose_run("more than max_run in a row");  // memory stays bounded
      run_.push_back(s);
      return;
    }
    if (last_end_ != 0 && (!run_.empty() || overflow_)) {
      settle_gap(s, into);
    } else if (!setup_next_) {
      note_hole(s, into);
    }
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
  // The stretch [last_end_, next.start_ns): the untimed run placed in it, or a dropped window.
  void settle_gap(const pm_sample& next, monitor_accumulator& into) {
    const std::uint64_t gap_start = last_end_;
    const std::uint64_t gap = next.start_ns > gap_start ? next.start_ns - gap_start : 0;
    const std::size_t n = run_.size();
    std::string why;
    if (overflow_) {
      why = "the buffer overflowed";
    } else if (gap == 0) {
      why = "no gap to hold them";
    } else {
      why = fit(gap);
    }
    if (n > 0) note_example(n, gap, why);
    if (why.empty()) {
      place(gap_start, gap, into);
      counts_.placed += n;
    } else {
      counts_.lost += n;
      // The stretch's samples by its length: an untimed run is what survived of a larger loss.
      const std::uint64_t by_length = samples_in(gap);
      counts_.missing += static_cast<std::size_t>(by_length > n ? by_length - n : 0);
      if (gap > 0) into.add_dropped({gap_start, next.start_ns, std::max<std::uint64_t>({n, by_length, 1})});
    }
    run_.clear();
    overflow_ = false;
  }

  // A hole between the last timed sample and `next` (no untimed run, no overflow flag): samples lost without
  // a trace. Holes shorter than half a sample are rounding, not loss.
  void note_hole(const pm_sample& next, monitor_accumulator& into) {
    const std::uint64_t length = sample_length();
    if (last_end_ == 0 || length == 0 || next.start_ns <= last_end_) return;
    const std::uint64_t hole = next.start_ns - last_end_;
    if (hole < length - length / 2) return;  // under half a sample
    const std::uint64_t n = samples_in(hole);
    counts_.missing += static_cast<std::size_t>(n);
    into.add_dropped({last_end_, next.start_ns, n});
  }

  // A sample's length: the shorter of the last two timed samples (0 before two were seen).
  std::uint64_t sample_length() const noexcept {
    return last_length_ > 0 && previous_length_ > 0 ? std::min(last_length_, previous_length_) : 0;
  }
  // The samples a stretch of `ns` held: its length over a sample's, rounded, at least 1 (0 without a length).
  std::uint64_t samples_in(std::uint64_t ns) const noexcept {
    const std::uint64_t length = sample_length();
    if (length == 0) return 0;
    return std::max<std::uint64_t>(1, ns / length + (ns % length >= length - length / 2 ? 1 : 0));
  }

  // Empty when the run's cycles fill `gap` at the good samples' clock rate; else why not.
  std::string fit(std::uint64_t gap) const {
    if (cycles_per_ns_ <= 0) return "no clock rate yet";
    double cycles = 0;
    for (const pm_sample& s : run_) {
      if (!s.elapsed_cycles || !(*s.elapsed_cycles > 0)) return "a sample without elapsed cycles";
      cycles += *s.elapsed_cycles;
    }
    const double ns = cycles / cycles_per_ns_;
    const double g = static_cast<double>(gap);
    if (std::fabs(ns - g) > placement_tolerance * g)
      return "their cycles span " + std::to_string(static_cast<std::uint64_t>(ns)) + " ns";
    if (gap < run_.size()) return "a gap shorter than one ns per sample";
    return {};
  }

  // Lays the run end to end over [start, start + gap), each sample's share by its cycles; the last one
  // ends exactly at the gap's end.
  void place(std::uint64_t start, std::uint64_t gap, monitor_accumulator& into) {
    double total = 0;
    for (const pm_sample& s : run_) total += *s.elapsed_cycles;
    double before = 0;
    std::uint64_t t = start;
    for (std::size_t i = 0; i < run_.size(); ++i) {
      before += *run_[i].elapsed_cycles;
      std::uint64_t end = i + 1 == run_.size() ? start + gap
                                               : start + static_cast<std::uint64_t>(std::llround(
                                                             static_cast<double>(gap) * before / total));
      // at least 1 ns each (fit() made sure the gap allows it)
      const std::uint64_t room_after = static_cast<std::uint64_t>(run_.size() - i - 1);
      end = std::min(std::max(end, t + 1), start + gap - room_after);
      pm_sample placed = run_[i];
      placed.start_ns = t;
      placed.end_ns = end;
      if (setup_next_) {  // a run right after a restart: its first sample is the setup one
        into.add_dropped({placed.start_ns, placed.end_ns, 1});
        setup_next_ = false;
      } else {
        into.add_sample(placed);
      }
      t = end;
    }
  }

  void lose_run(const char* why) {
    if (run_.empty()) return;
    note_example(run_.size(), 0, why);
    counts_.lost += run_.size();
    run_.clear();
  }

  // The clock rate of the good samples (elapsed cycles per ns), to turn a run's cycles into time.
  void note_rate(const pm_sample& s) {
    previous_length_ = last_length_;
    last_length_ = s.end_ns > s.start_ns ? s.end_ns - s.start_ns : 0;
    if (s.elapsed_cycles && *s.elapsed_cycles > 0 && s.end_ns > s.start_ns)
      cycles_per_ns_ = *s.elapsed_cycles / static_cast<double>(s.end_ns - s.start_ns);
  }

  void note_example(std::size_t n, std::uint64_t gap, const std::string& why) {
    if (examples_++ >= 3) return;
    counts_.examples += " [" + std::to_string(n) + " at " + std::to_string(run_.empty() ? 0 : run_.front().start_ns) +
                        " in a gap of " + std::to_string(gap) + " ns: " + (why.empty() ? "placed" : "lost, " + why) +
                        "]";
  }

  std::uint64_t last_end_ = 0;
  bool setup_next_ = false;
  bool overflow_ = false;
  double cycles_per_ns_ = 0;
  std::uint64_t last_length_ = 0, previous_length_ = 0;  // the last two timed samples' lengths (sample_length)
  std::vector<pm_sample> run_;  // untimed samples waiting for the gap they left
  timeline_counts counts_;
  std::size_t examples_ = 0;
};

NAPKIN_END_NAMESPACE
