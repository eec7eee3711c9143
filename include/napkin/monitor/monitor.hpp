// SPDX-License-Identifier: Apache-2.0
// napkin::monitor: the GPU's Speed-Of-Light readings per napkin::range phase and per kernel, continuously,
// from the running program — CUPTI PM sampling (pm_sampler.hpp) plus kernel activity records
// (kernel_activity.hpp), attributed on demand (attribution.hpp, make_monitor_report.hpp).
//
//   int main() {
//     napkin::monitor mon;          // NAPKIN_MONITOR=on (or settings) turns it on; off by default
//     ... the application, with napkin::range phases ...
//     std::cout << mon.report();    // per phase and per kernel: time, SM %, DRAM %, L1 %, L2 slices %, verdict
//   }
//
// The monitor never stops the program: a GPU it cannot sample (another tool holds the counters, no
// permission, MIG, a chip without the one-pass set) leaves it off with one message in status(). It samples on
// the GPU, decodes on its own thread (drain_period), keeps at most settings.max_samples samples and
// max_kernels kernel records (older ones are folded away and counted), and pauses while napkin::profiler
// measures (cupti/pause.hpp).
//
// This class holds its session, threads and stores behind one pointer (monitor/monitor_engine.hpp), so its
// declaration is the same whether napkin is header-only or separately compiled: with
// NAPKIN_SEPARATE_COMPILATION this header declares only, includes no CUPTI header, and the member
// definitions (monitor/monitor_impl.hpp) are compiled once, in the file that includes napkin/compiled.hpp.
// A unit that only reads, renders or compares reports includes napkin/monitor/monitor_report.hpp or
// monitor_documents.hpp (plain C++, no CUDA).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "napkin/monitor/monitor_costs.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/settings.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
class monitor_engine;
}  // namespace detail

class monitor final {
 public:
  // Reads NAPKIN_MONITOR (settings.hpp); a malformed value leaves the monitor off and says why in status().
  monitor();
  explicit monitor(const monitor_settings& settings);
  monitor(const monitor&) = delete;
  monitor& operator=(const monitor&) = delete;
  // Stops sampling, decodes what is left and writes the exit report when the settings ask for one.
  ~monitor();

  // Whether the monitor samples; status() says what it does or why it does not.
  bool running() const noexcept;
  std::string status() const;

  // Everything collected so far, attributed: per kernel name, per phase and path, and device-wide.
  monitor_report report();

  // The periodic report (settings.report_every_ns, NAPKIN_MONITOR's every=): the monitor's thread calls
  // `callback` with a fresh report that often. Without one, it writes the report as the exit report would
  // (format=, file=: the file then always holds the latest report). The callback must not throw (what it
  // throws is counted in diagnostics() and otherwise ignored) and must not destroy the monitor.
  using report_callback = std::function<void(const monitor_report&)>;
  void on_report(report_callback callback);

  // Stops sampling and the decode thread, and decodes what is left; report() still answers afterwards (the
  // destructor does this too). For a measurement with a defined end: stop(), then report().
  void stop() noexcept;

  // What the monitor cost so far in CPU time (whichever thread drained: mostly its own), by part.
  using cpu_use = monitor_cpu_use;
  cpu_use cpu() const;
  double cpu_seconds() const { return cpu().total_s(); }

  // Sessions restarted after a failure (a hardware-buffer overflow that killed the session).
  std::size_t restarts() const noexcept;

  // Wall time inside the sampler's decode steps, by CUPTI call group, for docs/monitor.md.
  using decode_wall = monitor_decode_wall;
  decode_wall decode_time() const;

  // Counts that explain an odd report: kernels and phases CUPTI reported, data the attribution refused.
  std::string diagnostics() const;

 private:
  std::unique_ptr<detail::monitor_engine> engine_;  // never null
};

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/monitor/monitor_impl.hpp"
#endif
