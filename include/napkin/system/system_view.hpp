// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_view.hpp — the system view: GPU work and host calls (system/records.hpp) to the
// system_report (system/system_report.hpp), per phase and for the run, like Nsight Systems' `nsys analyze`
// and `gpukernsum` in-process. Records come in any order and batch size (add); settle(t) analyzes those
// that ended by t and keeps only sums, so memory stays bounded; report() settles the rest on a copy.
// Plain C++17; no CUDA, no exceptions. It is over 450 lines because the chunked analysis is one class: its
// histories, open projections and stream and graph state change together at every settle.
//
// Definitions (docs/system.md is written from them). Times are [start, end) ns on one clock.
// - Projection: an instance's projection is [min start, max end] of the GPU work (kernels, copies,
//   memsets) launched inside it (gpu_work::instance), as Nsight Systems projects NVTX ranges onto the GPU.
//   Work outside any instance (instance 0: phase 0, outside every range) projects by stretches: the work
//   of one phase, by start, until work of another phase or instance starts (a program without ranges: one
//   stretch, the run's span; setup and teardown around ranges: two). system_phase::instances counts range
//   openings with work, not stretches.
// - A phase's span is the union of its instances' projections (overlapping instances counted once), so
//   two instances separated by another phase's work leave that work out. busy_ns: the time in the span
//   covered by any GPU work of the device (any phase's, any stream); idle_ns = span - busy.
// - The run row ("(run)"): span = [first start, last end] of all the device's work, continuous across
//   settles (the time between settled chunks is idle); busy = the time covered by any work; idle = span -
//   busy. Its counts and sums (kernels, copies, calls, histograms, instances) are the totals over all
//   phases, phase 0 included.
// - idle_by_host: every idle ns (of a phase's span or the run's) is split by what the host was doing,
//   by priority over all host threads: some thread in a blocking call (blocks_host) -> host_waiting; else
//   in a launch or graph launch -> host_launching; else in another call -> host_other_api; else
//   host_outside. The four add up to idle_ns exactly.
// - Kernels of a phase (the record's phase: the innermost range): kernels, kernel_ns, communication_ns
//   (is_communication_kernel), kernel_durations. stream_gaps: per stream, kernels (any phase) by start;
//   a kernel's gap is its start - the latest end of the kernels before it on the stream, counted in its
//   phase when >= 0 (negative gaps: concurrent or late records, left out); the last end of each stream is
//   carried across settles.
// - Copies of a phase: by direction and host memory (count, GPU ns, bytes); copy_overlapped_ns: copy time
//   covered by at least one kernel of the device (any phase); copies_on_kernel_streams: copies on a stream
//   that ran kernels of the same phase in the same chunk; memsets.
// - Host calls of a phase: by kind (count, ns); host_blocked_ns: the summed durations of blocking calls.
//   synchronous_copies: synchronous copy calls except host-to-device copies of <= 64 KiB
//   (system_thresholds::sync_copy_small_h2d_bytes), the call joined to its GPU copy by correlation id in
//   its chunk or the chunk before (a call whose copy is not found is kept, with 0 bytes).
// - Graphs: an execution is the kernels with graph != 0 sharing (graph, correlation), in the phase of
//   its first kernel; its span is max end - min start (graph_spans); graph_launches counts executions;
//   graph_gaps: consecutive executions of one graph by start, next start - previous end when >= 0. An
//   execution stays open across settles until the graph's next one starts (or report()).
// - Chunks: settle(t) analyzes the pending records with end_ns <= t as one chunk and folds it into the
//   sums. A record that arrives with end_ns <= the latest settle time is counted in late_records and
//   analyzed in a later chunk. An instance split across chunks keeps one projection (its pieces and the
//   time between them joined) when it is the phase's instance whose projection ended last in the phase's
//   previous chunk, and a stretch when the next chunk starts with work of its phase outside any instance;
//   otherwise each chunk's piece is a projection of its own (and counts as an instance again). Busy and
//   span time already counted are not counted again (the latest 4096 intervals of busy time and of each
//   span are kept for that). Work and calls still pending at the cut that started before t (running
//   then) count as busy / host time up to t in that chunk. The time between an instance's pieces is
//   joined only where the kept busy and host histories still reach back to it; older, the pieces are
//   projected apart (the gap left out of the span, not read as idle). Work that arrives after its chunk
//   was settled is not seen by that chunk. Idle time is split by the host calls of its chunk and the
//   latest 4096 intervals of each class of the earlier ones'.
// - Refused: a record with start_ns or end_ns 0, or end_ns < start_ns (records_refused); GPU work of
//   another device is ignored (records_other_device); beyond max_pending_records pending GPU records, or
//   as many pending host calls (bounded apart), a record is dropped (records_dropped); kernel names beyond max_kernel_names fold into "(other kernels)".
//   Host calls carry no device: every thread's calls count (a process that drives several GPUs included).
// One thread at a time: a system_view is not synchronized.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/system/communication.hpp"
#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/graph_executions.hpp"
#include "napkin/system/host_activity.hpp"
#include "napkin/system/intervals.hpp"
#include "napkin/system/kernel_table.hpp"
#include "napkin/system/phase_counts.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/system/system_rules.hpp"

NAPKIN_BEGIN_NAMESPACE

struct system_options {
  std::uint32_t device = 0;                     // GPU work of other devices is ignored (records_other_device)
  std::size_t max_pending_records = 1u << 20;   // GPU records, and host calls, waiting for settle(); beyond: records_dropped
  std::size_t max_kernel_names = 4096;          // report rows; beyond: folded into "(other kernels)"
  system_thresholds rules;
};

namespace detail {

inline constexpr std::size_t system_history_intervals = 4096;

// A phase (or the run) while records come: its sums and what joins the next chunk to the last one.
struct system_phase_state {
  system_phase sums;
  interval_set span_history;     // the latest intervals of the span (no time counted twice)
  bool has_open = false;         // the projection that ended last in the latest chunk
  std::uint64_t open_instance = 0, open_end_ns = 0;
};

struct system_copy_match {
  copy_direction direction = copy_direction::other;
  std::uint64_t bytes = 0;
};


}  // namespace detail

class system_view {
 public:
  explicit system_view(system_options o = {}) : options_(std::move(o)) {
    if (options_.max_pending_records == 0)
      detail::raise_input_error("napkin: system_options::max_pending_records must be at least 1");
    if (options_.max_kernel_names == 0)
      detail::raise_input_error("napkin: system_options::max_kernel_names must be at least 1");
  }

  // Takes a batch of records, in any order.
  void add(system_records batch) {
    for (gpu_work& w : batch.work) {
      if (refused(w.start_ns, w.end_ns)) continue;
      if (w.device != options_.device) {
        ++other_device_;
        continue;
      }
      if (!admit(w.end_ns, work_.size())) continue;
      work_.push_back(std::move(w));
    }
    for (host_call& c : batch.calls) {
      if (refused(c.start_ns, c.end_ns) || !admit(c.end_ns, calls_.size())) continue;
      calls_.push_back(c);
    }
  }

  // Analyzes the pending records that ended by `before_ns` (end_ns <= before_ns) and keeps only sums.
  void settle(std::uint64_t before_ns) {
    settled_ns_ = std::max(settled_ns_, before_ns);
    std::vector<gpu_work> work;
    std::vector<host_call> calls;
    auto split = [before_ns](auto& pending, auto& chunk) {  // the chunk is sorted in analyze()
      auto mid = std::partition(pending.begin(), pending.end(),
                                [before_ns](const auto& r) { return r.end_ns > before_ns; });
      chunk.assign(std::make_move_iterator(mid), std::make_move_iterator(pending.end()));
      pending.erase(mid, pending.end());
    };
    split(work_, work);
    split(calls_, calls);
    if (work.empty() && calls.empty()) return;
    // Work and calls still running at the cut (started before it, end after it): their time up to the cut
    // is busy, or the host's, in this chunk too, or it would count idle here for good.
    running running_now;
    for (const gpu_work& w : work_)
      if (w.start_ns < before_ns) {
        running_now.work.push_back({w.start_ns, before_ns});
        if (w.kind == gpu_work_kind::kernel) running_now.kernels.push_back({w.start_ns, before_ns});
      }
    for (const host_call& c : calls_)
      if (c.start_ns < before_ns) {
        host_call clipped = c;
        clipped.end_ns = before_ns;
        running_now.calls.push_back(clipped);
      }
    analyze(std::move(work), std::move(calls), running_now);
  }

  // The report: settles everything pending on a copy, so the view goes on. phase_names[id] names phase id
  // (0 is "", an id without a name "(phase N)").
  system_report report(const std::vector<std::string>& phase_names) const {
    system_view v = *this;
    v.settle(std::numeric_limits<std::uint64_t>::max());
    v.graphs_.close_all([&v](std::uint32_t id) -> system_phase& { return v.phase(id).sums; });
    return v.make_report(phase_names);
  }

  std::uint64_t pending() const noexcept { return work_.size() + calls_.size(); }

 private:
  bool refused(std::uint64_t start, std::uint64_t end) noexcept {
    if (start == 0 || end == 0 || end < start) {
      ++refused_;
      return true;
    }
    return false;
  }
  // GPU work and host calls are bounded apart: a flood of calls (a polling loop) never pushes out kernels.
  bool admit(std::uint64_t end, std::size_t queued) noexcept {
    if (queued >= options_.max_pending_records) {
      ++dropped_;
      return false;
    }
    if (end <= settled_ns_) ++late_;  // its chunk was settled: it joins a later one
    return true;
  }

  detail::system_phase_state& phase(std::uint32_t id) { return phases_[id]; }

  // What is still running at a settle's cut, clipped to it: context for the chunk, not records of it.
  struct running {
    std::vector<time_interval> work, kernels;
    std::vector<host_call> calls;
  };

  // One chunk: sorted records whose time has come.
  void analyze(std::vector<gpu_work> work, std::vector<host_call> calls, const running& now) {
    std::sort(work.begin(), work.end(),
              [](const gpu_work& a, const gpu_work& b) { return a.start_ns < b.start_ns; });
    std::sort(calls.begin(), calls.end(),
              [](const host_call& a, const host_call& b) { return a.start_ns < b.start_ns; });

    // The GPU's busy time and its kernels' time, with the latest of the earlier chunks' as context.
    std::vector<time_interval> all(now.work), kernels(now.kernels);
    for (const gpu_work& w : work) {
      all.push_back({w.start_ns, w.end_ns});
      if (w.kind == gpu_work_kind::kernel) kernels.push_back({w.start_ns, w.end_ns});
    }
    const interval_set busy = unite(busy_history_, merge_intervals(std::move(all)));
    const interval_set kernel_busy = unite(kernel_history_, merge_intervals(std::move(kernels)));

    // The host's calls, with the latest of the earlier chunks' (an idle gap may reach back into them).
    std::vector<host_call> timed(calls);
    timed.insert(timed.end(), now.calls.begin(), now.calls.end());
    host_activity calls_time = host_call_time(timed);
    calls_time.waiting = unite(host_history_.waiting, calls_time.waiting);
    calls_time.launching = unite(host_history_.launching, calls_time.launching);
    calls_time.other_api = unite(host_history_.other_api, calls_time.other_api);
    const host_activity host = by_priority(calls_time);

    analyze_spans(work, busy, host);
    analyze_work(work, kernel_busy);
    analyze_calls(work, calls);
    analyze_stream_gaps(work);
    graphs_.add(work, [this](std::uint32_t id) -> system_phase& { return phase(id).sums; });

    // The histories keep their latest intervals; before the oldest kept one of a set that had to drop some,
    // they are incomplete (history_from_ns_: a span piece reaching back further is not joined).
    const auto keep = [this](interval_set& h, bool limits_context) {
      if (h.size() <= detail::system_history_intervals) return;
      keep_latest(h, detail::system_history_intervals);
      if (limits_context) history_from_ns_ = std::max(history_from_ns_, h.front().start_ns);
    };
    busy_history_ = busy;
    keep(busy_history_, true);
    kernel_history_ = kernel_busy;
    keep(kernel_history_, false);
    host_history_ = std::move(calls_time);
    for (interval_set* h : {&host_history_.waiting, &host_history_.launching, &host_history_.other_api}) keep(*h, true);
  }

  // Folds one chunk's projection pieces into a phase's (or the run's) span, busy, idle and idle split.
  static void add_span(detail::system_phase_state& s, std::vector<time_interval> pieces, const interval_set& busy,
                       const host_activity& host) {
    const interval_set chunk_span = merge_intervals(std::move(pieces));
    const interval_set fresh = subtract(chunk_span, s.span_history);
    const interval_set idle = subtract(fresh, busy);
    const std::uint64_t span = total_length(fresh), idle_ns = total_length(idle);
    s.sums.span_ns += span;
    s.sums.idle_ns += idle_ns;
    s.sums.busy_ns += span - idle_ns;
    add_causes(s.sums.idle_by_host, split_idle(idle, host));
    s.span_history = unite(s.span_history, chunk_span);
    keep_latest(s.span_history, detail::system_history_intervals);
  }

  // Instances to projections, per phase; work outside any instance to stretches; the run's one span.
  void analyze_spans(const std::vector<gpu_work>& work, const interval_set& busy, const host_activity& host) {
    if (work.empty()) return;
    std::map<std::pair<std::uint32_t, std::uint64_t>, time_interval> projections;  // (phase, instance != 0)
    std::map<std::uint32_t, std::vector<time_interval>> pieces;                    // by phase
    bool stretch = false;  // a stretch of instance-0 work of one phase, by start, that no other work breaks
    std::uint32_t stretch_phase = 0;
    time_interval current{};
    const std::uint64_t first = work.front().start_ns;
    std::uint64_t last = 0;
    for (const gpu_work& w : work) {
      last = std::max(last, w.end_ns);
      if (w.instance == 0 && stretch && w.phase == stretch_phase) {
        current.end_ns = std::max(current.end_ns, w.end_ns);
        continue;
      }
      if (stretch) pieces[stretch_phase].push_back(current);
      stretch = w.instance == 0;
      if (stretch) {
        stretch_phase = w.phase;
        current = {w.start_ns, w.end_ns};
        if (&w == &work.front() && stretch_open_ && open_stretch_phase_ == w.phase && w.start_ns > open_stretch_end_ns_)
          pieces[w.phase].push_back({open_stretch_end_ns_, w.start_ns});  // the last chunk's stretch goes on
        continue;
      }
      auto it = projections.find({w.phase, w.instance});
      if (it == projections.end())
        projections.emplace(std::make_pair(w.phase, w.instance), time_interval{w.start_ns, w.end_ns});
      else
        it->second = {std::min(it->second.start_ns, w.start_ns), std::max(it->second.end_ns, w.end_ns)};
    }
    if (stretch) pieces[stretch_phase].push_back(current);
    stretch_open_ = stretch;
    open_stretch_phase_ = stretch_phase;
    open_stretch_end_ns_ = current.end_ns;

    // The run: one projection that goes on across chunks.
    std::vector<time_interval> run_pieces{{first, last}};
    if (run_.has_open && first > run_.open_end_ns) run_pieces.push_back({run_.open_end_ns, first});
    add_span(run_, std::move(run_pieces), busy, host);
    run_.has_open = true;
    run_.open_end_ns = std::max(run_.open_end_ns, last);

    for (auto it = projections.begin(); it != projections.end();) {
      const std::uint32_t id = it->first.first;
      detail::system_phase_state& s = phase(id);
      std::vector<time_interval>& mine = pieces[id];
      bool has_open = false;
      std::uint64_t open_instance = 0, open_end = 0;
      for (; it != projections.end() && it->first.first == id; ++it) {
        const std::uint64_t instance = it->first.second;
        const time_interval p = it->second;
        mine.push_back(p);
        const bool continues = s.has_open && s.open_instance == instance;
        // The time since the opening's last piece joins its span only where the busy and host histories
        // still cover it: older, it would read idle for want of the records (the pieces are projected apart).
        if (continues && p.start_ns > s.open_end_ns && s.open_end_ns >= history_from_ns_)
          mine.push_back({s.open_end_ns, p.start_ns});
        if (!continues) ++s.sums.instances;
        if (!has_open || p.end_ns >= open_end) {
          has_open = true;
          open_instance = instance;
          open_end = continues ? std::max(p.end_ns, s.open_end_ns) : p.end_ns;
        }
      }
      s.has_open = has_open;
      s.open_instance = open_instance;
      s.open_end_ns = open_end;
    }
    for (auto& [id, v] : pieces) add_span(phase(id), std::move(v), busy, host);
  }

  // Kernels, copies and memsets: counts, time, bytes, overlap, names.
  void analyze_work(const std::vector<gpu_work>& work, const interval_set& kernel_busy) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> kernel_streams;  // (phase, stream)
    for (const gpu_work& w : work)
      if (w.kind == gpu_work_kind::kernel) kernel_streams.insert({w.phase, w.stream});
    for (const gpu_work& w : work) {
      system_phase& p = phase(w.phase).sums;
      const std::uint64_t d = w.end_ns - w.start_ns;
      if (w.kind == gpu_work_kind::kernel) {
        ++p.kernels;
        p.kernel_ns += d;
        if (is_communication_kernel(w.name)) p.communication_ns += d;
        add_duration(p.kernel_durations, d);
        kernels_.add(w.name, w.phase, d);
      } else if (w.kind == gpu_work_kind::copy) {
        for (copy_totals* c : {&p.copies_by_direction[static_cast<std::size_t>(w.direction)],
                               &p.copies_by_memory[static_cast<std::size_t>(w.memory)]}) {
          ++c->count;
          c->ns += d;
          c->bytes += w.bytes;
        }
        p.copy_overlapped_ns += covered_length(kernel_busy, w.start_ns, w.end_ns);
        if (kernel_streams.count({w.phase, w.stream})) ++p.copies_on_kernel_streams;
      } else {
        ++p.memsets.count;
        p.memsets.ns += d;
        p.memsets.bytes += w.bytes;
      }
    }
  }

  void analyze_calls(const std::vector<gpu_work>& work, const std::vector<host_call>& calls) {
    std::unordered_map<std::uint32_t, detail::system_copy_match> copies;
    for (const gpu_work& w : work)
      if (w.kind == gpu_work_kind::copy && w.correlation != 0) copies[w.correlation] = {w.direction, w.bytes};
    for (const host_call& c : calls) {
      system_phase& p = phase(c.phase).sums;
      const std::uint64_t d = c.end_ns - c.start_ns;
      copy_totals& k = p.host_calls[static_cast<std::size_t>(c.kind)];
      ++k.count;
      k.ns += d;
      if (blocks_host(c.kind)) p.host_blocked_ns += d;
      if (c.kind != host_call_kind::synchronous_copy) continue;
      detail::system_copy_match m;
      auto it = copies.find(c.correlation);
      if (it != copies.end()) {
        m = it->second;
      } else if (auto before = previous_copies_.find(c.correlation); before != previous_copies_.end()) {
        m = before->second;
      }
      if (m.direction == copy_direction::host_to_device && m.bytes <= options_.rules.sync_copy_small_h2d_bytes)
        continue;
      ++p.synchronous_copies.count;
      p.synchronous_copies.ns += d;
      p.synchronous_copies.bytes += m.bytes;
    }
    // The next chunk may hold the calls of this chunk's copies (bounded: a chunk's copies at most).
    previous_copies_ = std::move(copies);
  }

  void analyze_stream_gaps(const std::vector<gpu_work>& work) {
    std::vector<const gpu_work*> kernels;
    for (const gpu_work& w : work)
      if (w.kind == gpu_work_kind::kernel) kernels.push_back(&w);
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const gpu_work* a, const gpu_work* b) { return a->stream < b->stream; });
    for (const gpu_work* k : kernels) {  // per stream, by start (the chunk is sorted by start)
      auto it = stream_last_end_.find(k->stream);
      if (it == stream_last_end_.end()) {
        stream_last_end_.emplace(k->stream, k->end_ns);
        continue;
      }
      if (k->start_ns >= it->second) add_duration(phase(k->phase).sums.stream_gaps, k->start_ns - it->second);
      it->second = std::max(it->second, k->end_ns);
    }
  }

  system_report make_report(const std::vector<std::string>& names) const {
    system_report r;
    r.run = run_.sums;
    r.run.name = "(run)";
    for (const auto& [id, s] : phases_) {
      system_phase p = s.sums;
      p.name = system_phase_name(names, id);
      add_phase_counts(r.run, p);
      r.phases.push_back(std::move(p));
    }
    std::stable_sort(r.phases.begin(), r.phases.end(),
                     [](const system_phase& a, const system_phase& b) { return a.span_ns > b.span_ns; });

    r.kernels = kernels_.rows(names);

    r.records_dropped = dropped_;
    r.late_records = late_;
    r.records_refused = refused_;
    r.records_other_device = other_device_;
    r.findings = find_system_issues(r, options_.rules);
    r.next = choose_next_target(r, options_.rules);
    return r;
  }

  system_options options_;
  std::vector<gpu_work> work_;
  std::vector<host_call> calls_;
  std::uint64_t settled_ns_ = 0;
  std::uint64_t dropped_ = 0, late_ = 0, refused_ = 0, other_device_ = 0;
  detail::system_phase_state run_;
  bool stretch_open_ = false;  // the last chunk ended in a stretch of work outside any instance
  std::uint32_t open_stretch_phase_ = 0;
  std::uint64_t open_stretch_end_ns_ = 0;
  std::map<std::uint32_t, detail::system_phase_state> phases_;
  interval_set busy_history_, kernel_history_;
  std::uint64_t history_from_ns_ = 0;  // the histories are complete from here on
  host_activity host_history_;  // the host calls' time by class, latest intervals
  kernel_table kernels_{options_.max_kernel_names};
  std::map<std::uint32_t, std::uint64_t> stream_last_end_;
  graph_executions graphs_;
  std::unordered_map<std::uint32_t, detail::system_copy_match> previous_copies_;
};

NAPKIN_END_NAMESPACE
