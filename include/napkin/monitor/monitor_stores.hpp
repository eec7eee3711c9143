// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_stores.hpp — what napkin::monitor keeps of what it drains, and how one drain goes in:
// PM samples to the sample timeline, kernel records to the attribution's accumulator, copies and host calls
// to the system view (each settled a lag behind, so that late records still find their windows), and the
// count of data refused. The monitor's engine (monitor_engine.hpp) owns the CUPTI session and the thread;
// this is its data, read and written under the engine's data lock: monitor_stores is not synchronized.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/accumulator.hpp"
#include "napkin/monitor/drain_plan.hpp"
#include "napkin/monitor/kernel_activity.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/monitor/sample_timeline.hpp"
#include "napkin/system/system_view.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

struct monitor_stores {
  monitor_accumulator accumulator;
  std::optional<system_view> system;  // settings.system: copies, host calls, idle causes, rules
  sample_timeline timeline;           // sample order, setup samples, overflows, samples without a usable time
  std::size_t rejected = 0;           // data the attribution refused (never fatal), for diagnostics()
  std::string last_error;

  // Windows older than this cannot get more kernels in practice (a kernel's record arrives after it ends,
  // within a drain or two).
  static constexpr std::uint64_t settle_lag_ns = drain_plan::settle_lag_ns;
  // The system view is settled twice a second, not at every drain: each settle scans the records still
  // pending (the lag's worth) and the kept context, so a settle per 10 ms drain cost ~3 % of a core on an
  // H200 (docs/system.md, "Cost").
  static constexpr std::uint64_t system_settle_period_ns = 500'000'000;

  // One drain's data, at CUPTI timestamp `now_ns`. `between_stretches`: sampling is off between sample=
  // stretches (not paused for the profiler), so time is closed a settle lag behind, once a second.
  void add(const std::vector<pm_sample>& fresh, bool overflow, std::vector<kernel_activity>& kernels,
           const system_records& records, bool between_stretches, std::uint64_t now_ns) {
    detail::call_catching(
        [&] {
          if (overflow) timeline.samples_lost();
          for (const pm_sample& sample : fresh) timeline.push(sample, accumulator);
          for (kernel_activity& k : kernels) accumulator.add_kernel(to_kernel_record(std::move(k)));
          if (system) {
            system->add(records);
            if (now_ns > settle_lag_ns && now_ns - system_settled_at_ >= system_settle_period_ns) {
              system->settle(now_ns - settle_lag_ns);
              system_settled_at_ = now_ns;
            }
          }
          // Attribute the windows a lag behind and fold their kernels, so memory stays bounded.
          if (timeline.last_end() > settle_lag_ns) accumulator.settle(timeline.last_end() - settle_lag_ns);
          // Between stretches, close time a lag behind (late records find their windows).
          const std::uint64_t lag = settle_lag_ns;
          if (between_stretches && now_ns > 2 * lag && now_ns - lag > timeline.last_end() + lag / 2)
            timeline.paused_until(now_ns - lag, accumulator);
        },
        [&](const char* what) { refuse(what); });
  }

  // Everything so far, attributed: a copy finishes, so windows still waiting for late kernels stay open.
  // `phase_names` name the system view's phases; `system_dropped` are copies and host calls the activity
  // collector's bounded queues refused (process-wide), dropped records too.
  monitor_report report(int device, const std::vector<std::string>& phase_names, std::size_t system_dropped) const {
    monitor_accumulator all = accumulator;
    all.finish();
    monitor_report r = make_monitor_report(all, device);
    if (system) {
      r.system = system->report(phase_names);
      r.system->records_dropped += system_dropped;
    }
    return r;
  }

  // The samples without a usable time and the data refused, for monitor::diagnostics().
  std::string diagnostics() const {
    const timeline_counts& t = timeline.counts();
    return "samples without a usable time " + std::to_string(t.untimed) + " (placed by their cycles " +
           std::to_string(t.placed) + ", lost " + std::to_string(t.lost) + ")" + t.examples +
           ", samples missing between timed ones " + std::to_string(t.missing) + ", refused data " +
           std::to_string(rejected) + (last_error.empty() ? std::string() : " (last: " + last_error + ")");
  }

  void refuse(std::string why) {
    ++rejected;
    last_error = std::move(why);
  }

 private:
  std::uint64_t system_settled_at_ = 0;  // CUPTI timestamp of the system view's last settle
};

}  // namespace detail
NAPKIN_END_NAMESPACE
