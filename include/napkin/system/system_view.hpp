// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_view.hpp — the system view: GPU work and host calls (system/records.hpp) to the
// system_report (system/system_report.hpp), per phase and for the run, like Nsight Systems' `nsys analyze`
// and `gpukernsum` in-process. Records come in any order and batch size (add); settle(t) analyzes those
// that ended by t and keeps only sums, so memory stays bounded; report() settles the rest on a copy.
// Plain C++17; no CUDA, no exceptions.
//
// What each field of the report means (projection, span, busy, idle and its split, kernels, copies, host
// calls, graphs): napkin/system/system_report.hpp. How records become sums:
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
//   as many pending pieces of host time and synchronous copy calls (bounded apart), a record is dropped
//   (records_dropped); kernel names beyond the first max_kernel_names add() saw fold into "(other kernels)".
// - Cost: records wait in add()'s batches (a batch wholly before or after a settle's cut moves or stays
//   whole), GPU work as 64 trivially copyable bytes with its kernel name as an id (docs/system.md, "Cost").
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
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/system/communication.hpp"
#include "napkin/system/copy_index.hpp"
#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/graph_executions.hpp"
#include "napkin/system/host_activity.hpp"
#include "napkin/system/intervals.hpp"
#include "napkin/system/kernel_table.hpp"
#include "napkin/system/pending_records.hpp"
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

}  // namespace detail

class system_view {
 public:
  explicit system_view(const system_options& o = {}) : options_(o) {
    if (options_.max_pending_records == 0)
      detail::raise_input_error("napkin: system_options::max_pending_records must be at least 1");
    if (options_.max_kernel_names == 0)
      detail::raise_input_error("napkin: system_options::max_kernel_names must be at least 1");
  }

  // Takes a batch of records, in any order.
  void add(const system_records& batch) {
    detail::system_batch b;
    for (const gpu_work& w : batch.work) {
      if (refused(w.start_ns, w.end_ns)) continue;
      if (w.device != options_.device) {
        ++other_device_;
        continue;
      }
      if (!admit(w.end_ns, pending_.work() + b.work.size())) continue;
      const kernel_table::name_id id = w.kind == gpu_work_kind::kernel ? kernels_.intern(w.name) : kernel_table::name_id{};
      const detail::system_work k = detail::to_system_work(w, id);
      b.work.push_back(k);
      b.include(k.start_ns, k.end_ns);
    }
    std::size_t calls = 0;  // pieces of host time and synchronous copies kept
    phase_cache sums_of{*this};
    for (const host_call& c : batch.calls) {
      if (refused(c.start_ns, c.end_ns) || !admit(c.end_ns, pending_.calls() + calls)) continue;
      add_host_call(sums_of(c.phase), c);
      if (b.call_time.add(time_class_of(c.kind), {c.start_ns, c.end_ns})) ++calls;
      if (c.kind == host_call_kind::synchronous_copy) {
        b.sync_copies.push_back(c);
        ++calls;
      }
      b.include(c.start_ns, c.end_ns);
    }
    pending_.push(std::move(b));
  }

  // Analyzes the pending records that ended by `before_ns` (end_ns <= before_ns) and keeps only sums.
  void settle(std::uint64_t before_ns) {
    settled_ns_ = std::max(settled_ns_, before_ns);
    pending_.cut(before_ns, chunk_);
    if (!chunk_.empty()) analyze(chunk_);
  }

  // The report: settles everything pending on a copy, so the view goes on. phase_names[id] names phase id
  // (0 is "", an id without a name "(phase N)").
  system_report report(const std::vector<std::string>& phase_names) const {
    system_view v = *this;
    v.settle(std::numeric_limits<std::uint64_t>::max());
    v.graphs_.close_all([&v](std::uint32_t id) -> system_phase& { return v.phase(id).sums; });
    return v.make_report(phase_names);
  }

  std::uint64_t pending() const noexcept { return pending_.work() + pending_.calls(); }

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

  // One chunk: sorted records whose time has come.
  void analyze(detail::system_chunk& chunk) {
    std::vector<detail::system_work>& work = chunk.work;
    host_time_pieces& call_time = chunk.call_time;
    const auto& now = chunk.running;
    std::sort(work.begin(), work.end(), [](const detail::system_work& a, const detail::system_work& b) {
      return a.start_ns < b.start_ns;
    });

    // The GPU's busy time and its kernels' time, with the latest of the earlier chunks' as context.
    std::vector<time_interval>& all = scratch_.all;
    std::vector<time_interval>& kernels = scratch_.kernels;
    all.assign(now.work.begin(), now.work.end());
    kernels.assign(now.kernels.begin(), now.kernels.end());
    for (const detail::system_work& w : work) {
      all.push_back({w.start_ns, w.end_ns});
      if (w.kind == gpu_work_kind::kernel) kernels.push_back({w.start_ns, w.end_ns});
    }
    merge_in_place(all);
    merge_in_place(kernels);
    const interval_set busy = unite(busy_history_, all);
    const interval_set kernel_busy = unite(kernel_history_, kernels);

    // The host's calls, with the latest of the earlier chunks' (an idle gap may reach back into them).
    for (std::size_t c = 0; c < 3; ++c) {
      std::vector<time_interval>& v = call_time.by_class[c];
      v.insert(v.end(), now.call_time.by_class[c].begin(), now.call_time.by_class[c].end());
    }
    for (std::vector<time_interval>& v : call_time.by_class) merge_in_place(v);
    host_activity calls_time{unite(host_history_.waiting, call_time.by_class[0]),
                             unite(host_history_.launching, call_time.by_class[1]),
                             unite(host_history_.other_api, call_time.by_class[2])};
    const host_activity host = by_priority(calls_time);

    analyze_spans(work, busy, host);
    analyze_work(work, kernel_busy);
    analyze_sync_copies(work, chunk.sync_copies);
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
    const idle_causes idle = idle_split(fresh, busy, host);
    const std::uint64_t span = total_length(fresh);
    const std::uint64_t idle_ns = idle.host_waiting_ns + idle.host_launching_ns + idle.host_other_api_ns + idle.host_outside_ns;
    s.sums.span_ns += span;
    s.sums.idle_ns += idle_ns;
    s.sums.busy_ns += span - idle_ns;
    add_causes(s.sums.idle_by_host, idle);
    s.span_history = unite(s.span_history, chunk_span);
    keep_latest(s.span_history, detail::system_history_intervals);
  }

  // Instances to projections, per phase; work outside any instance to stretches; the run's one span.
  void analyze_spans(const std::vector<detail::system_work>& work, const interval_set& busy, const host_activity& host) {
    if (work.empty()) return;
    std::map<std::pair<std::uint32_t, std::uint64_t>, time_interval> projections;  // (phase, instance != 0)
    auto latest = projections.end();
    std::map<std::uint32_t, std::vector<time_interval>> pieces;                    // by phase
    bool stretch = false;  // a stretch of instance-0 work of one phase, by start, that no other work breaks
    std::uint32_t stretch_phase = 0;
    time_interval current{};
    const std::uint64_t first = work.front().start_ns;
    std::uint64_t last = 0;
    for (const detail::system_work& w : work) {
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
      const std::pair<std::uint32_t, std::uint64_t> key{w.phase, w.instance};
      if (latest == projections.end() || latest->first != key) {  // consecutive work: mostly one instance
        latest = projections.find(key);
        if (latest == projections.end()) {
          latest = projections.emplace(key, time_interval{w.start_ns, w.end_ns}).first;
          continue;
        }
      }
      latest->second = {std::min(latest->second.start_ns, w.start_ns), std::max(latest->second.end_ns, w.end_ns)};
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
  void analyze_work(const std::vector<detail::system_work>& work, const interval_set& kernel_busy) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> kernel_streams;  // (phase, stream)
    std::pair<std::uint32_t, std::uint32_t> last_stream{0, 0};
    for (const detail::system_work& w : work)
      if (w.kind == gpu_work_kind::kernel && (kernel_streams.empty() || last_stream != std::make_pair(w.phase, w.stream))) {
        last_stream = {w.phase, w.stream};
        kernel_streams.insert(last_stream);
      }
    phase_cache sums_of{*this};
    for (const detail::system_work& w : work) {
      system_phase& p = sums_of(w.phase);
      const std::uint64_t d = w.end_ns - w.start_ns;
      if (w.kind == gpu_work_kind::kernel) {
        ++p.kernels;
        p.kernel_ns += d;
        if (w.communication) p.communication_ns += d;
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

  // A phase's sums by id, remembering the last one: consecutive records are mostly of one phase.
  struct phase_cache {
    system_view& view;
    std::uint32_t id = 0;
    system_phase* sums = nullptr;
    system_phase& operator()(std::uint32_t phase_id) {
      if (sums == nullptr || phase_id != id) {
        id = phase_id;
        sums = &view.phase(phase_id).sums;  // std::map: the reference stays valid
      }
      return *sums;
    }
  };

  // Synchronous copy calls, each joined to its GPU copy by correlation id in its chunk or the chunk before.
  void analyze_sync_copies(const std::vector<detail::system_work>& work, const std::vector<host_call>& calls) {
    detail::system_copy_index copies;
    for (const detail::system_work& w : work)
      if (w.kind == gpu_work_kind::copy && w.correlation != 0) copies.add(w.correlation, w.direction, w.bytes);
    phase_cache sums_of{*this};
    for (const host_call& c : calls) {
      const detail::system_copy_match* m = copies.find(c.correlation);
      if (m == nullptr) m = previous_copies_.find(c.correlation);
      const copy_direction direction = m != nullptr ? m->direction : copy_direction::other;
      const std::uint64_t bytes = m != nullptr ? m->bytes : 0;
      if (direction == copy_direction::host_to_device && bytes <= options_.rules.sync_copy_small_h2d_bytes) continue;
      copy_totals& t = sums_of(c.phase).synchronous_copies;
      ++t.count;
      t.ns += c.end_ns - c.start_ns;
      t.bytes += bytes;
    }
    // The next chunk may hold the calls of this chunk's copies (bounded: a chunk's copies at most).
    previous_copies_ = std::move(copies);
  }

  // Per stream, the kernels by start (the chunk is sorted by start; streams are independent).
  void analyze_stream_gaps(const std::vector<detail::system_work>& work) {
    phase_cache sums_of{*this};
    std::map<std::uint32_t, std::uint64_t>::iterator last = stream_last_end_.end();
    for (const detail::system_work& k : work) {
      if (k.kind != gpu_work_kind::kernel) continue;
      if (last == stream_last_end_.end() || last->first != k.stream) {
        last = stream_last_end_.find(k.stream);
        if (last == stream_last_end_.end()) {
          last = stream_last_end_.emplace(k.stream, k.end_ns).first;
          continue;
        }
      }
      if (k.start_ns >= last->second) add_duration(sums_of(k.phase).stream_gaps, k.start_ns - last->second);
      last->second = std::max(last->second, k.end_ns);
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
  detail::pending_records pending_;  // add()'s batches, until settled
  detail::system_chunk chunk_;       // one settle's records, its buffers kept for the next
  struct scratch {                   // likewise
    std::vector<time_interval> all, kernels;
  } scratch_;
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
  detail::system_copy_index previous_copies_;
};

NAPKIN_END_NAMESPACE
