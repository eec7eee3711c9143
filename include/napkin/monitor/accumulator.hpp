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
    pending_class_.push_back(rates_.class_of(k.name, k.phase));
    pending_.push_back(std::move(k));
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
  std::size_t pending_kernels() const { return pending_.size(); }

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
    for (std::size_t i = 0; i < pending_.size(); ++i)
      if (pending_[i].start_ns < batch_end) touching.push_back(i);
    std::vector<detail::tracked_kernel> tracked(touching.size());
    std::vector<std::size_t> by_start(touching.size());
    for (std::size_t j = 0; j < touching.size(); ++j) {
      const std::size_t i = touching[j];
      tracked[j].start_ns = pending_[i].start_ns;
      tracked[j].end_ns = pending_[i].end_ns;
      tracked[j].totals = pending_totals(i);
      tracked[j].rate_class = pending_class_[i];
      tracked[j].fills_sms = options_.sm_count > 0 && pending_[i].blocks >= options_.sm_count;
    }
    std::iota(by_start.begin(), by_start.end(), std::size_t{0});
    std::stable_sort(by_start.begin(), by_start.end(),
                     [&](std::size_t a, std::size_t b) { return tracked[a].start_ns < tracked[b].start_ns; });
    const std::vector<detail::monitor_window> batch(windows_.begin(),
                                                    windows_.begin() + static_cast<std::ptrdiff_t>(n));
    detail::attribute_windows(batch, tracked, by_start, device_, options_.idle, &rates_);
    pending_totals_.resize(pending_.size());
    for (std::size_t j = 0; j < tracked.size(); ++j) pending_totals_[touching[j]] = tracked[j].totals;
    settled_until_ = std::max(settled_until_, batch.back().end_ns);
    settled_any_ = true;
    windows_.erase(windows_.begin(), windows_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  monitor_totals pending_totals(std::size_t i) const {
    return i < pending_totals_.size() ? pending_totals_[i] : monitor_totals{};
  }

  void fold_kernels_ending_by(std::uint64_t t) {
    pending_totals_.resize(pending_.size());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].end_ns <= t) {
        detail::tracked_kernel k{pending_[i].start_ns, pending_[i].end_ns, pending_totals_[i]};
        detail::finish_kernel(k, options_.gap_tolerance_ns);
        // The folded record is dropped: its name and phase move into the key (no copy per kernel).
        groups_[{std::move(pending_[i].name), std::move(pending_[i].phase)}] += k.totals;
      } else {
        if (kept != i) {
          pending_[kept] = std::move(pending_[i]);
          pending_totals_[kept] = pending_totals_[i];
          pending_class_[kept] = pending_class_[i];
        }
        ++kept;
      }
    }
    pending_.resize(kept);
    pending_totals_.resize(kept);
    pending_class_.resize(kept);
  }

  attribution_options options_;
  std::size_t max_pending_;
  std::deque<detail::monitor_window> windows_;  // added, not yet attributed; time-ordered
  std::vector<kernel_record> pending_;          // kernels not yet folded into groups_
  std::vector<monitor_totals> pending_totals_;  // what each pending kernel has received (same index)
  std::vector<std::size_t> pending_class_;      // each pending kernel's rate_solver class (same index)
  detail::kernel_group_map groups_;
  device_totals device_;
  rate_solver rates_;
  std::uint64_t settled_until_ = 0, last_end_ = 0;
  bool settled_any_ = false, any_window_ = false;
  std::size_t samples_added_ = 0, dropped_added_ = 0, kernels_added_ = 0;
};

NAPKIN_END_NAMESPACE
