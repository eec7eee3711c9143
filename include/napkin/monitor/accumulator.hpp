// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/accumulator.hpp — attribution as the data arrives, in bounded memory: samples, dropped
// windows and kernel records are added as the monitor's thread decodes them; settle() attributes the
// windows that are complete and folds every finished kernel into totals per (kernel name, NVTX phase), so
// that memory grows with the number of distinct (name, phase) pairs, not with run time.
// Plain C++17; no CUDA or CUPTI. Rules: napkin/monitor/attribution.hpp and docs/monitor.md.
//
// The contract with the feeder (the monitor's thread): windows (add_sample, add_dropped) arrive in time
// order; kernel records in any order, but settle(h) promises that every window and every kernel that
// ends at or before h has been added. A kernel record that arrives after windows it ran in were settled
// is counted in device_totals::late_kernels and comes out incomplete (those windows went to others or idle).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/monitor/attribution.hpp"
#include "napkin/monitor/sample.hpp"

NAPKIN_BEGIN_NAMESPACE

// All executions of one kernel name launched under one NVTX range stack.
struct kernel_group {
  std::string name;
  std::vector<std::string> phase;  // outermost first; empty: no phase
  monitor_totals totals;
};

namespace detail {
using kernel_group_map = std::map<std::pair<std::string, std::vector<std::string>>, monitor_totals>;

inline std::vector<kernel_group> to_groups(const kernel_group_map& map) {
  std::vector<kernel_group> groups;
  groups.reserve(map.size());
  for (const auto& [key, totals] : map) groups.push_back({key.first, key.second, totals});
  return groups;
}
}  // namespace detail

// Groups one-shot attribution results by (kernel name, phase). `records` is what was passed to attribute().
inline std::vector<kernel_group> group_kernels(const std::vector<kernel_record>& records, const attribution& a) {
  if (records.size() != a.kernels.size())
    detail::raise_input_error<std::invalid_argument>(
        "napkin: group_kernels needs the " + std::to_string(a.kernels.size()) +
        " kernel records that were attributed, got " + std::to_string(records.size()));
  detail::kernel_group_map map;
  for (std::size_t i = 0; i < records.size(); ++i) map[{records[i].name, records[i].phase}] += a.kernels[i];
  return detail::to_groups(map);
}

class monitor_accumulator {
 public:
  // `max_pending_windows` bounds the windows held before attribution: past it, the oldest is settled at
  // once (a kernel record for it that comes later is then late).
  explicit monitor_accumulator(attribution_options options = {}, std::size_t max_pending_windows = 4096)
      : options_(options), max_pending_(max_pending_windows), rates_(make_rate_solver(options)) {
    if (max_pending_ == 0)
      detail::raise_input_error<std::invalid_argument>("napkin: monitor_accumulator needs max_pending_windows >= 1");
  }

  // A decoded sample; the first one is dropped as the setup sample when options.drop_first_sample.
  void add_sample(const pm_sample& s) {
    check_sample(s, samples_added_);
    if (samples_added_++ == 0 && options_.drop_first_sample)
      add_window({s.start_ns, s.end_ns, std::nullopt, 1, true});
    else
      add_window({s.start_ns, s.end_ns, s, 0, false});
  }

  // A stretch whose samples were lost (e.g. the hardware buffer overflowed).
  void add_dropped(const dropped_window& d) {
    check_dropped_window(d, dropped_added_++);
    add_window({d.start_ns, d.end_ns, std::nullopt, d.samples, false});
  }

  void add_kernel(kernel_record k) {
    check_kernel_record(k, kernels_added_++);
    if (settled_any_ && k.start_ns < settled_until_) ++device_.late_kernels;
    // Classes take columns in the order their kernels arrive; a kernel's class never changes after.
    const std::size_t rate_class = rates_.class_of(k.name, k.phase);
    rates_.add_launch(rate_class, k.warps, k.duration_ns());
    earliest_pending_end_ = std::min(earliest_pending_end_, k.end_ns);
    pending_times_.push_back({k.start_ns, k.end_ns, false});
    pending_.push_back({std::move(k), monitor_totals{}, rate_class});
    ++pending_count_;
  }

  // Attributes every window that ends at or before `horizon_ns` and folds every kernel that ended before
  // the last attributed window's end (no later window can touch it).
  void settle(std::uint64_t horizon_ns) {
    std::size_t n = 0;
    while (n < windows_.size() && windows_[n].end_ns <= horizon_ns) ++n;
    settle_first(n);
    fold_kernels_ending_by(settled_until_);
  }

  // Promises that no window will cover time before `t` (the monitor paused for the range profiler, or
  // stopped): attributes the windows that end by `t` and folds every kernel that ended by `t`, so that
  // kernels recorded while nothing was sampled do not pile up. Later windows must start at or after `t`.
  void skip_until(std::uint64_t t) {
    if (any_window_ && t < last_end_)
      detail::raise_input_error<std::invalid_argument>("napkin: monitor skip_until(" + std::to_string(t) +
                                                       ") is before the end of the last window added (" +
                                                       std::to_string(last_end_) + ")");
    settle_first(windows_.size());  // every pending window ends by last_end_ <= t
    settled_until_ = std::max(settled_until_, t);
    settled_any_ = true;
    last_end_ = t;
    any_window_ = true;
    fold_kernels_ending_by(t);
  }

  // The end of a session: attributes every window and folds every kernel.
  void finish() {
    settle_first(windows_.size());
    fold_kernels_ending_by(std::numeric_limits<std::uint64_t>::max());
  }

  std::vector<kernel_group> groups() const { return detail::to_groups(groups_); }
  const device_totals& device() const { return device_; }
  const attribution_options& options() const { return options_; }
  // Every attributed window per (kernel name, phase): its solve() gives each class's own readings.
  const rate_solver& rates() const { return rates_; }
  std::size_t pending_windows() const { return windows_.size(); }
  std::size_t pending_kernels() const { return pending_count_; }

 private:
  void add_window(detail::monitor_window w) {
    if (any_window_ && w.start_ns < last_end_)
      detail::raise_input_error<std::invalid_argument>(
          "napkin: monitor window [" + std::to_string(w.start_ns) + ", " + std::to_string(w.end_ns) +
          ") starts before the previous one ends (" + std::to_string(last_end_) +
          "): samples and dropped windows must be added in time order, without overlap");
    any_window_ = true;
    last_end_ = w.end_ns;
    windows_.push_back(std::move(w));
    if (windows_.size() > max_pending_) {
      settle_first(windows_.size() - max_pending_);
      fold_kernels_ending_by(settled_until_);
    }
  }

  void settle_first(std::size_t n) {
    if (n == 0) return;
    // Only kernels that start before the batch ends can touch it; the others wait untouched (looking every
    // pending kernel's class up at each settle cost the monitor ~1 % of a core at 12,000 kernels a second).
    const std::uint64_t batch_end = windows_[n - 1].end_ns;
    std::vector<std::size_t> touching;
    std::size_t i = 0;
    for (const pending_time& p : pending_times_) {  // the times alone, not the whole entry
      if (p.start_ns < batch_end && !p.folded) touching.push_back(i);
      ++i;
    }
    std::vector<detail::tracked_kernel> tracked(touching.size());
    std::vector<std::size_t> by_start(touching.size());
    for (std::size_t j = 0; j < touching.size(); ++j) {
      const pending_kernel& p = pending_[touching[j]];
      tracked[j].start_ns = p.record.start_ns;
      tracked[j].end_ns = p.record.end_ns;
      tracked[j].totals = p.totals;
      tracked[j].rate_class = p.rate_class;
      tracked[j].fills_sms = options_.sm_count > 0 && p.record.blocks >= options_.sm_count;
    }
    std::iota(by_start.begin(), by_start.end(), std::size_t{0});
    std::stable_sort(by_start.begin(), by_start.end(),
                     [&](std::size_t a, std::size_t b) { return tracked[a].start_ns < tracked[b].start_ns; });
    const std::vector<detail::monitor_window> batch(windows_.begin(),
                                                    windows_.begin() + static_cast<std::ptrdiff_t>(n));
    detail::attribute_windows(batch, tracked, by_start, device_, options_.idle, &rates_);
    for (std::size_t j = 0; j < tracked.size(); ++j) pending_[touching[j]].totals = tracked[j].totals;
    settled_until_ = std::max(settled_until_, batch.back().end_ns);
    settled_any_ = true;
    windows_.erase(windows_.begin(), windows_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  void fold_kernels_ending_by(std::uint64_t t) {
    // The monitor settles at every drain (100 a second) while seconds of kernels wait behind the settle lag:
    // nothing is scanned unless some kernel can fold, and a folded kernel stays as a marked entry until the
    // entries before it are gone, so that the kernels still waiting are never moved (scanning and compacting
    // them at each drain cost ~2 % of a core at 12,000 kernels a second).
    if (t < earliest_pending_end_) return;
    earliest_pending_end_ = std::numeric_limits<std::uint64_t>::max();
    std::size_t i = 0;
    for (pending_time& time : pending_times_) {  // the times alone, not the whole entry
      const std::size_t at = i++;
      if (time.folded) continue;
      if (time.end_ns > t) {
        earliest_pending_end_ = std::min(earliest_pending_end_, time.end_ns);
        continue;
      }
      pending_kernel& p = pending_[at];
      detail::tracked_kernel k{p.record.start_ns, p.record.end_ns, p.totals};
      detail::finish_kernel(k, options_.gap_tolerance_ns);
      group_of(p) += k.totals;
      time.folded = true;
      --pending_count_;
    }
    while (!pending_times_.empty() && pending_times_.front().folded) {
      pending_.pop_front();
      pending_times_.pop_front();
    }
  }

  // What the scans read of a waiting kernel, apart from its record (a few bytes, not ~400).
  struct pending_time {
    std::uint64_t start_ns = 0, end_ns = 0;
    bool folded = false;  // folded into groups_, waiting for the entries before it to go
  };
  // A kernel waiting to be folded: its record, what it has received, its rate_solver class.
  struct pending_kernel {
    kernel_record record;
    monitor_totals totals;
    std::size_t rate_class = 0;
  };

  // A folded kernel's group: found by its rate class, which stands for one (name, phase) pair below the
  // solver's cap; else looked up by name and phase, which then move into the key (no copy per kernel).
  monitor_totals& group_of(pending_kernel& p) {
    const bool own_class = p.rate_class < rates_.classes();  // not the column the classes past the cap share
    std::vector<monitor_totals*>& cached = group_of_class_.groups;
    if (own_class && p.rate_class < cached.size() && cached[p.rate_class] != nullptr) return *cached[p.rate_class];
    monitor_totals& group = groups_[{std::move(p.record.name), std::move(p.record.phase)}];
    if (own_class) {
      if (p.rate_class >= cached.size()) cached.resize(p.rate_class + 1, nullptr);
      cached[p.rate_class] = &group;  // a map's entries stay where they are
    }
    return group;
  }

  // Pointers into this accumulator's groups_: a copied or moved accumulator starts without them (the monitor
  // copies its accumulator to finish a report while the original goes on).
  struct group_cache {
    std::vector<monitor_totals*> groups;
    group_cache() = default;
    group_cache(const group_cache&) noexcept {}
    group_cache(group_cache&&) noexcept {}
    group_cache& operator=(const group_cache&) noexcept {
      groups.clear();
      return *this;
    }
    group_cache& operator=(group_cache&&) noexcept {
      groups.clear();
      return *this;
    }
    ~group_cache() = default;
  };

  attribution_options options_;
  std::size_t max_pending_;
  std::deque<detail::monitor_window> windows_;  // added, not yet attributed; time-ordered
  std::deque<pending_kernel> pending_;           // in arrival order; folded ones leave from the front
  std::deque<pending_time> pending_times_;       // each entry's times and whether it folded (same index)
  std::size_t pending_count_ = 0;                // entries of pending_ not yet folded
  std::uint64_t earliest_pending_end_ = std::numeric_limits<std::uint64_t>::max();  // of those; max: none
  detail::kernel_group_map groups_;
  group_cache group_of_class_;  // rate class -> its entry in groups_ (group_of)
  device_totals device_;
  rate_solver rates_;
  std::uint64_t settled_until_ = 0, last_end_ = 0;
  bool settled_any_ = false, any_window_ = false;
  std::size_t samples_added_ = 0, dropped_added_ = 0, kernels_added_ = 0;
};

NAPKIN_END_NAMESPACE
