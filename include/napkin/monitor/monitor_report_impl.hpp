// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_report.hpp's renderings of the phase monitor's report (to_text, to_key_values): the
// function bodies. Included by monitor_report.hpp (header-only, the default) or, with
// NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "napkin/monitor/monitor_report.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/system/system_text.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string sm_range_text(const monitor_row& r) {
  return "SM % between " + fixed(r.sm_pct.value_or(0), 1) + " and " + fixed(r.sm_pct_upper.value_or(0), 1) +
         " (low end: the sampled inputs less what PM sampling counts for each warp launched; high end: the "
         "sampled inputs and the L1 data-pipe wavefronts, which bound the inputs the sampling pass lacks)";
}

namespace detail {

NAPKIN_DETAIL_FUNC std::string monitor_pct(const std::optional<double>& v) { return v ? fixed(*v, 1) : "n/a"; }

NAPKIN_DETAIL_FUNC std::string monitor_ns(double ns) { return duration(ns * 1e-9); }

// A text_table whose columns are at least as wide as their usual cells, so that it keeps its layout:
// 2 + 24 name + 2 + 5 count + 2 + 9 total + 4 x (2 + 5) percentages + 2 + 10 bytes + 2 + 11 bandwidth = 99 columns.
// Under each row, its notes (text_table notes) in lines of at most 100 columns.
NAPKIN_DETAIL_FUNC void monitor_table(std::string& out, const char* title, const std::vector<monitor_row>& rows,
                                      bool phase_names) {
  if (rows.empty()) return;
  using align = text_table::align;
  text_table t;
  t.column(title, align::left, 24);
  t.column("count", align::right, 5);
  t.column("GPU time", align::right, 9);
  for (const char* h : {"SM%", "DRAM%", "L1%", "L2s%"}) t.column(h, align::right, 5);
  t.column("DRAM bytes", align::right, 10);
  t.column("DRAM BW", align::right, 11);
  for (const monitor_row& r : rows) {
    std::string name = r.name.empty() && phase_names ? "(no phase)" : printable(r.name);
    if (name.size() > 96) name = name.substr(0, 93) + "...";
    if (name.size() > 24) {  // a long name gets its own line; the numbers follow on the next
      t.note(name);
      name.clear();
    }
    // SM % as a range (monitor_row::sm_pct_upper) prints its lower end with a "+", the range in the notes.
    t.row({name, std::to_string(r.totals.count), monitor_ns(static_cast<double>(r.totals.gpu_ns)),
           monitor_pct(r.sm_pct) + (r.sm_pct_range() ? "+" : ""), monitor_pct(r.dram_pct), monitor_pct(r.l1tex_pct),
           monitor_pct(r.l2_slices_pct),
           r.dram_bytes ? si(*r.dram_bytes, "B") + (r.partial ? "*" : "") : "n/a",
           r.dram_bytes_per_s ? si(*r.dram_bytes_per_s, "B/s") : "n/a"});
    std::vector<std::string> notes;
    const row_resolution& res = r.resolution;
    const std::string sol = res.resolved() ? std::string(describe(r.verdict.kind)) : "no verdict";
    if (r.communication())
      notes.push_back("communication: " + percent_of(r.split.communication_fraction()) +
                      " of GPU time in NCCL/NVSHMEM kernels (SOL: " + sol + ")");
    else if (res.resolved())
      notes.push_back(r.verdict.kind == bottleneck::not_measured ? r.verdict.reason : sol);
    if (r.sm_pct_range() && r.verdict.kind != bottleneck::not_measured)
      notes.push_back(sm_range_text(r) + "; the verdict holds over that range");
    if (!res.resolved()) notes.push_back("no verdict: " + std::string(describe(res.status)) + " (" + res.reason + ")");
    const std::string se = res.standard_error_pct ? fixed(*res.standard_error_pct, 1) + " points" : "unknown";
    if (res.resolved() && res.solo_share.value_or(0) >= 0.999)
      notes.push_back("resolved: alone in its " + std::to_string(res.windows) + " windows (standard error " + se +
                      ": its own spread)");
    else if (res.resolved())
      notes.push_back("resolved: standard error " + se + ", " +
                      std::to_string(res.windows) + " windows, " + percent_of(res.solo_share.value_or(0), 0) +
                      " of its time alone in a window");
    notes.push_back("mean " + monitor_ns(r.mean_ns));
    if (!r.communication() && r.split.communication_ns > 0)
      notes.push_back("communication " + percent_of(r.split.communication_fraction()) + " of GPU time");
    if (r.totals.concurrent_ns > 0)
      notes.push_back("concurrent with other kernels " + monitor_ns(static_cast<double>(r.totals.concurrent_ns)) +
                      " (shared device-wide readings)");
    if (r.partial)
      notes.push_back("* partial: " + std::to_string(r.complete) + " of " + std::to_string(r.totals.count) +
                      " launches fully sampled (" +
                      monitor_ns(static_cast<double>(r.totals.unsampled_ns() + r.totals.dropped_ns)) +
                      " not sampled); totals cover part of the launches");
    if (r.dram_bytes_per_complete_launch)
      notes.push_back("DRAM bytes per fully sampled launch " + si(*r.dram_bytes_per_complete_launch, "B"));
    // Notes are kept whole where they fit on a line; a longer one (a long reason) is wrapped at spaces. A line
    // is 2 (the table's indent) + 4 + the notes, at most 100 columns.
    std::string line = "    ";
    for (std::size_t i = 0; i < notes.size(); ++i) {
      const std::string piece = notes[i] + (i + 1 < notes.size() ? ";" : "");
      if (line.size() > 4 && line.size() + 1 + piece.size() > 98) {
        t.note(line);
        line = "    ";
      }
      for (std::size_t at = 0; at < piece.size();) {
        std::size_t end = piece.find(' ', at);
        if (end == std::string::npos) end = piece.size();
        std::string word = piece.substr(at, end - at);
        if (word.size() > 93) word = word.substr(0, 90) + "...";  // a long kernel name in a reason
        if (line.size() > 4 && line.size() + 1 + word.size() > 98) {
          t.note(line);
          line = "    ";
        }
        line += (line.size() > 4 ? " " : "") + word;
        at = end + 1;
      }
    }
    t.note(line);
  }
  out += "\n" + t.text("  ");
}

NAPKIN_DETAIL_FUNC bool monitor_over_peak(const std::vector<monitor_row>& rows) {
  for (const monitor_row& r : rows)
    for (const std::optional<double>& v : {r.sm_pct, r.dram_pct, r.l1tex_pct, r.l2_slices_pct})
      if (v && *v > 100.0) return true;
  return false;
}

}  // namespace detail

namespace detail {
NAPKIN_DETAIL_FUNC std::string monitor_text(const monitor_report& r);
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_text(const monitor_report& r) {
  std::string out = detail::monitor_text(r);
  if (r.system) out += "\n" + to_text(*r.system);
  return out;
}

NAPKIN_DETAIL_FUNC std::string detail::monitor_text(const monitor_report& r) {
  const device_totals& d = r.totals;
  if (d.sampled_ns == 0 && r.kernels.empty() && d.sm_dropouts == 0) {
    // Nothing to show: say why (off, no device, or on and nothing ran) rather than "0 ns sampled".
    const bool off = r.status.rfind("off", 0) == 0;
    return "napkin monitor, device " + std::to_string(r.device) + ": nothing sampled: " +
           (off ? r.status
                : r.status.empty() ? std::string("no sample window in this report")
                                   : "no kernel ran while it sampled, or none was decoded yet (" + r.status + ")") +
           "\n";
  }
  std::string out = "napkin monitor, device " + std::to_string(r.device) + ": " +
                    detail::monitor_ns(static_cast<double>(d.sampled_ns)) + " sampled over a wall span of " +
                    detail::monitor_ns(static_cast<double>(d.wall_ns())) + "\n";
  if (r.idle_fraction)
    out += "  kernels ran " + percent_of(1.0 - *r.idle_fraction) +
           " of the sampled time; the device was idle " + percent_of(*r.idle_fraction) +
           " (no kernel running)\n";
  out += "  samples: " + std::to_string(d.samples_kept) + " kept, " + std::to_string(d.samples_dropped) + " lost, " +
         std::to_string(d.setup_samples_dropped) + " setup dropped (" +
         detail::monitor_ns(static_cast<double>(d.dropped_ns)) + " not attributed)\n";
  if (d.sm_dropouts > 0)
    out += "  windows whose SM counters dropped out: " + std::to_string(d.sm_dropouts) +
           " (their SM and L1 readings left out; docs/monitor.md)\n";
  out += "  late kernel records: " + std::to_string(d.late_kernels) +
         "; idle model: " + std::string(to_string(r.idle)) + "\n";
  out += "  L2s = the L2 slices (lts__throughput), not ncu's GH100 L2 fabric; the verdict's Memory % is\n";
  out += "  max(DRAM, L1, L2s): the monitor's reading, not ncu's Memory %\n";
  out += "  SM % = the largest sampled SM input (GH100: instructions; ALU, FMA, FP64, tensor, uniform, XU,\n";
  out += "  LSU pipes); ncu's also takes MIO, TEX, shared-pipe and TMA: a kernel led by those reads low\n";
  out += "  (the L1 wavefronts bound them: SM % as a range, 52.0+); PM sampling counts up to 8.2 instructions\n";
  out += "  more than ncu for each warp launched: a kernel of many short warps gets a range from below\n";
  detail::monitor_table(out, "By phase", r.phases, true);
  detail::monitor_table(out, "By phase path", r.paths, true);
  detail::monitor_table(out, "By kernel", r.kernels, false);
  bool partial = false, blended = false, unresolved = false;
  for (const monitor_row& row : r.kernels) {
    partial = partial || row.partial;
    blended = blended || row.resolution.status == rate_status::blended;
    unresolved = unresolved || !row.resolution.resolved();
  }
  if (unresolved)
    out +=
        "\n  no verdict: a row whose readings are not its own (unresolved, blended, not sampled) has none;\n"
        "  the mean of its windows would be a blend, so it is not printed (docs/monitor.md, the rate solve).\n";
  if (blended)
    out += "\n  too many kernel classes for the rate solve: the rest are blended (one column, no readings).\n";
  if (partial)
    out +=
        "\n  * partial: not every launch of the row was sampled (lost or missing samples), so its totals and\n"
        "  DRAM bytes cover only the sampled part; compare DRAM bytes per fully sampled launch instead.\n";
  if (detail::monitor_over_peak(r.kernels) && r.idle == idle_model::no_work_when_idle)
    out +=
        "\n  A reading above 100%: the device worked outside the recorded kernels in those windows\n"
        "  (copies, other processes), which the no-work-when-idle model credits to the kernels.\n";
  return out;
}

namespace detail {
// The key-value text as an std::ostream with precision(10) writes it ("%.10g" for a double, decimal for an
// integer), without <sstream>: the report umbrella includes this header (docs/compile-time.md).
class monitor_key_text {
 public:
  monitor_key_text& operator<<(std::string_view s) {
    out_ += s;
    return *this;
  }
  monitor_key_text& operator<<(char c) {
    out_ += c;
    return *this;
  }
  monitor_key_text& operator<<(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    out_ += buf;
    return *this;
  }
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>,
                                      int> = 0>
  monitor_key_text& operator<<(I v) {
    out_ += std::to_string(v);
    return *this;
  }
  std::string str() const { return out_; }

 private:
  std::string out_;
};

NAPKIN_DETAIL_FUNC void monitor_key_value(monitor_key_text& os, const char* key, const std::optional<double>& v) {
  if (v) os << ' ' << key << '=' << *v;
}

NAPKIN_DETAIL_FUNC std::string monitor_key_name(std::string s) {
  s = printable(s);
  std::replace(s.begin(), s.end(), ' ', '_');
  return s.empty() ? "-" : s;
}
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_key_values(const monitor_report& r) {
  const device_totals& d = r.totals;
  detail::monitor_key_text os;
  os << "NAPKIN_MONITOR device=" << r.device << " idle_model=" << to_string(r.idle) << " wall_ns=" << d.wall_ns()
     << " sampled_ns=" << d.sampled_ns << " busy_ns=" << d.busy_ns << " idle_ns=" << d.idle_ns
     << " dropped_ns=" << d.dropped_ns << " samples_kept=" << d.samples_kept << " samples_dropped=" << d.samples_dropped
     << " setup_samples_dropped=" << d.setup_samples_dropped << " late_kernels=" << d.late_kernels << " sm_dropouts=" << d.sm_dropouts;
  detail::monitor_key_value(os, "idle_fraction", r.idle_fraction);
  detail::monitor_key_value(os, "idle_sm_pct", r.idle_sm_pct);
  detail::monitor_key_value(os, "idle_dram_pct", r.idle_dram_pct);
  detail::monitor_key_value(os, "idle_dram_bytes", r.idle_dram_bytes);
  const std::pair<const char*, const std::vector<monitor_row>*> tables[] = {
      {"phase", &r.phases}, {"path", &r.paths}, {"kernel", &r.kernels}};
  for (const auto& [by, rows] : tables)
    for (const monitor_row& row : *rows) {
      const monitor_totals& t = row.totals;
      os << "\nNAPKIN_MONITOR_ROW by=" << by << " name=" << detail::monitor_key_name(row.name) << " count=" << t.count
         << " gpu_ns=" << t.gpu_ns << " mean_ns=" << row.mean_ns << " sampled_ns=" << t.sampled_ns
         << " dropped_ns=" << t.dropped_ns << " concurrent_ns=" << t.concurrent_ns << " incomplete=" << t.incomplete
         << " complete=" << row.complete << " partial=" << (row.partial ? 1 : 0);
      detail::monitor_key_value(os, "sm_pct", row.sm_pct);
      detail::monitor_key_value(os, "sm_pct_upper", row.sm_pct_upper);
      detail::monitor_key_value(os, "dram_pct", row.dram_pct);
      detail::monitor_key_value(os, "l1tex_pct", row.l1tex_pct);
      detail::monitor_key_value(os, "l2_slices_pct", row.l2_slices_pct);
      detail::monitor_key_value(os, "memory_pct", row.memory_pct);
      detail::monitor_key_value(os, "dram_read_bytes", row.dram_read_bytes);
      detail::monitor_key_value(os, "dram_write_bytes", row.dram_write_bytes);
      detail::monitor_key_value(os, "dram_bytes", row.dram_bytes);
      detail::monitor_key_value(os, "dram_bytes_per_s", row.dram_bytes_per_s);
      detail::monitor_key_value(os, "dram_bytes_per_complete_launch", row.dram_bytes_per_complete_launch);
      os << " l2=" << monitor_l2_figure << " communication_fraction=" << row.split.communication_fraction()
         << " activity=" << (row.communication() ? "communication" : "compute")
         << " verdict=" << to_string(row.verdict.kind) << " resolution=" << to_string(row.resolution.status)
         << " resolution_windows=" << row.resolution.windows;
      detail::monitor_key_value(os, "standard_error_pct", row.resolution.standard_error_pct);
      detail::monitor_key_value(os, "alone_fraction", row.resolution.solo_share);
      detail::monitor_key_value(os, "collinearity", row.resolution.collinearity);
    }
  if (r.system) {  // the system view (docs/system.md): one line per phase and the run, one per finding
    const system_report& sys = *r.system;
    std::vector<const system_phase*> rows{&sys.run};
    for (const system_phase& p : sys.phases) rows.push_back(&p);
    for (const system_phase* p : rows) {
      const idle_causes& c = p->idle_by_host;
      os << "\nNAPKIN_SYSTEM phase=" << (p == &sys.run ? std::string("(run)") : detail::monitor_key_name(p->name))
         << " instances=" << p->instances << " span_ns=" << p->span_ns << " busy_ns=" << p->busy_ns
         << " idle_ns=" << p->idle_ns << " idle_host_waiting_ns=" << c.host_waiting_ns
         << " idle_host_launching_ns=" << c.host_launching_ns << " idle_host_other_api_ns=" << c.host_other_api_ns
         << " idle_host_outside_ns=" << c.host_outside_ns << " kernels=" << p->kernels << " kernel_ns=" << p->kernel_ns
         << " communication_ns=" << p->communication_ns << " copy_ns=" << p->copy_ns()
         << " copy_overlapped_ns=" << p->copy_overlapped_ns << " host_blocked_ns=" << p->host_blocked_ns
         << " graph_launches=" << p->graph_launches;
    }
    for (const system_finding& f : sys.findings)
      os << "\nNAPKIN_SYSTEM_FINDING rule=" << to_string(f.rule) << " phase=" << detail::monitor_key_name(f.phase)
         << " at_stake_ns=" << f.at_stake_ns;
    if (sys.next.kernel) os << "\nNAPKIN_SYSTEM_NEXT kernel=" << detail::monitor_key_name(*sys.next.kernel) << " share=" << sys.next.share;
  }
  return os.str();
}

NAPKIN_END_NAMESPACE
