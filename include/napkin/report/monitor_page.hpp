// SPDX-License-Identifier: Apache-2.0
// napkin/report/monitor_page.hpp — one self-contained HTML page of a phase monitor's report
// (napkin/monitor/monitor_report.hpp), in the look of the run page (html_page.hpp): the device (name, index,
// UUID from the report's context; wall, sampled, busy and idle time; kept, lost and setup samples; which L2
// the L2 % is: the slices, not ncu's GH100 fabric), then one table per phase, per phase path and per kernel
// name, sortable by GPU time: count, complete launches (a partial row's DRAM bytes marked "*", as to_text
// marks them), total and mean GPU time, SOL bars for SM, DRAM, L1 and the L2 slices, the monitor's Memory %,
// DRAM bytes per fully sampled launch, bandwidth, the share in NCCL/NVSHMEM kernels and the verdict. A
// reading never taken reads "not measured", never 0. Given a baseline report: what napkin::diff() says of
// the two as monitor-report documents (to_document, monitor/monitor_documents.hpp), with page.compare as its options.
// A report with the system view gets a "System" section (report/system_html.hpp): a timeline bar per phase,
// the findings, the kernels by GPU time and the kernel to profile next.
// Styles and the sorting script are inline: the page opens without a network. docs/reports-pictures.md.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
//
//   napkin::monitor_page page{"decode step", napkin::make_monitor_report(acc)};
//   page.baseline = yesterdays_report;  // optional
//   std::ofstream("monitor.html") << napkin::to_html(page);
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/system_html.hpp"

NAPKIN_BEGIN_NAMESPACE

struct monitor_page {
  std::string title;
  monitor_report report;
  std::optional<monitor_report> baseline;  // an earlier run of the same program
  diff_options compare;                    // how the report is compared with the baseline: napkin::diff()'s options
};

namespace detail {

// napkin::diff of the two reports as monitor-report documents; each row's time is its mean GPU time.
inline page_comparison compare_monitor_reports(const monitor_report& baseline, const monitor_report& run,
                                               const diff_options& options) {
  report_document old_doc = to_document(baseline);
  report_document new_doc = to_document(run);
  old_doc.source = "baseline";
  new_doc.source = "this run";
  page_comparison c;
  c.diff = diff(old_doc, new_doc, options);
  if (!c.diff.bad_input()) c.kernels = kernel_changes(old_doc, new_doc, c.diff, "mean_ns");
  return c;
}

inline std::string monitor_html_ns(std::uint64_t ns) { return duration(static_cast<double>(ns) * 1e-9); }

inline std::string monitor_html_label(const monitor_row& row, bool phase_names) {
  return row.name.empty() && phase_names ? std::string("(no phase)") : row.name;
}

// A number cell that reads "not measured" when the reading was never taken.
inline std::string monitor_html_cell(const char* cls, const std::optional<std::string>& text) {
  return text ? "<td class=\"num " + std::string(cls) + "\">" + *text + "</td>"
              : "<td class=\"num " + std::string(cls) + " missing\">not measured</td>";
}

inline std::optional<std::string> monitor_html_bytes(const std::optional<double>& bytes, const char* unit) {
  return bytes ? std::optional<std::string>(si(*bytes, unit)) : std::nullopt;
}

// The SOL bars of one row (html_sol_bar: the fill is the percentage of the track, the text says the value).
// SM % as a range (monitor_row::sm_pct_upper) adds a line under the SM bar with its upper end.
inline std::string monitor_html_bars(const monitor_row& r) {
  std::string range;
  if (r.sm_pct_range())
    range = "<div class=\"meta sm-range\" data-sm-upper=\"" + svg_number(*r.sm_pct_upper) + "\">" +
            xml_escape(sm_range_text(r)) + "</div>";
  return "<td class=\"bars\">" + html_sol_bar("sm", "SM", r.sm_pct) + range +
         html_sol_bar("dram", "DRAM", r.dram_pct) + html_sol_bar("l1tex", "L1", r.l1tex_pct) + html_sol_bar("l2-slices", "L2 slices", r.l2_slices_pct) + "</td>";
}

// The verdict as to_text words it: a row mostly in NCCL/NVSHMEM kernels is communication, its SOL verdict
// in parentheses; the SOL table's reason below.
inline std::string monitor_html_verdict(const monitor_row& r) {
  const std::string sol(describe(r.verdict.kind));
  std::string s = "<td class=\"verdict-cell\" data-kind=\"" + std::string(to_string(r.verdict.kind)) +
                  "\" data-activity=\"" + (r.communication() ? "communication" : "compute") + "\">";
  s += r.communication() ? "<b>communication</b> (SOL: " + sol + ")" : "<b>" + sol + "</b>";
  if (!r.verdict.reason.empty()) s += "<div class=\"meta\">" + xml_escape(r.verdict.reason) + "</div>";
  return s + "</td>";
}

// One table: id "phases", "paths" or "kernels". data-gpu-ns and data-mean-ns keep the exact numbers the
// time columns sort by; data-index the report's order (GPU time, largest first).
inline std::string monitor_html_table(const char* id, const char* title, const char* what,
                                      const std::vector<monitor_row>& rows, bool phase_names) {
  std::string s = "<h2>" + std::string(title) + "</h2>\n";
  if (rows.empty()) return s + "<p class=\"sub empty\" id=\"" + std::string(id) + "-none\">Nothing recorded.</p>\n";
  s += "<table id=\"" + std::string(id) + "\" class=\"sortable rows\"><thead><tr>"
       "<th class=\"num\" data-sort=\"data-index\" aria-sort=\"ascending\"><button type=\"button\">#</button></th>"
       "<th>" + std::string(what) + "</th><th class=\"num\">Count</th><th class=\"num\">Complete</th>"
       "<th class=\"num\" data-sort=\"data-gpu-ns\" aria-sort=\"none\"><button type=\"button\">GPU time</button></th>"
       "<th class=\"num\" data-sort=\"data-mean-ns\" aria-sort=\"none\"><button type=\"button\">Mean</button></th>"
       "<th>Speed of light</th><th class=\"num\">Memory</th><th class=\"num\">DRAM bytes</th>"
       "<th class=\"num\">DRAM bytes per complete launch</th><th class=\"num\">DRAM bandwidth</th>"
       "<th class=\"num\">Communication</th><th>Verdict</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const monitor_row& r = rows[i];
    const monitor_totals& t = r.totals;
    const std::string name = monitor_html_label(r, phase_names);
    std::optional<std::string> bytes = monitor_html_bytes(r.dram_bytes, "B");
    if (bytes && r.partial) *bytes += "<span class=\"partial-mark\" title=\"partial\">*</span>";
    s += "<tr class=\"row" + std::string(r.partial ? " partial" : "") + "\" data-index=\"" + std::to_string(i) +
         "\" data-name=\"" + xml_escape(name) + "\" data-gpu-ns=\"" + std::to_string(t.gpu_ns) +
         "\" data-mean-ns=\"" + svg_number(r.mean_ns) + "\"><td class=\"num\">" + std::to_string(i + 1) +
         "</td><td class=\"name\">" + xml_escape(name) + "</td><td class=\"num count\">" + std::to_string(t.count) +
         "</td><td class=\"num complete\">" +
         (r.partial ? std::to_string(r.complete) + " of " + std::to_string(t.count) + " (partial)"
                    : std::string("all")) +
         "</td><td class=\"num time\">" + monitor_html_ns(t.gpu_ns) + "</td><td class=\"num mean\">" +
         duration(r.mean_ns * 1e-9) + "</td>" + monitor_html_bars(r) +
         monitor_html_cell("memory", r.memory_pct ? std::optional<std::string>(percent(*r.memory_pct)) : std::nullopt) +
         monitor_html_cell("bytes", bytes) +
         monitor_html_cell("per-launch", monitor_html_bytes(r.dram_bytes_per_complete_launch, "B")) +
         monitor_html_cell("bandwidth", monitor_html_bytes(r.dram_bytes_per_s, "B/s")) +
         "<td class=\"num communication\">" + percent_of(r.split.communication_fraction()) + "</td>" +
         monitor_html_verdict(r) + "</tr>\n";
  }
  s += "</tbody></table>\n";
  std::string notes;
  for (const monitor_row& r : rows) {
    if (r.partial)
      notes += "<li data-name=\"" + xml_escape(monitor_html_label(r, phase_names)) + "\">" +
               xml_escape(monitor_html_label(r, phase_names)) + ": " + std::to_string(r.complete) + " of " +
               std::to_string(r.totals.count) + " launches fully sampled (" +
               monitor_html_ns(r.totals.unsampled_ns() + r.totals.dropped_ns) + " not sampled)</li>";
    if (r.totals.concurrent_ns > 0)
      notes += "<li class=\"concurrent\">" + xml_escape(monitor_html_label(r, phase_names)) + ": concurrent with " +
               "other kernels " + monitor_html_ns(r.totals.concurrent_ns) + " (shared device-wide readings)</li>";
  }
  if (!notes.empty()) s += "<ul class=\"notes\" id=\"" + std::string(id) + "-notes\">" + notes + "</ul>\n";
  return s;
}

// The device as a whole: a two-column table of what the monitor saw.
inline std::string monitor_html_device(const monitor_report& r) {
  const device_totals& d = r.totals;
  const auto line = [](const char* key, const char* label, const std::string& value) {
    return "<tr data-key=\"" + std::string(key) + "\"><th>" + label + "</th><td>" + value + "</td></tr>\n";
  };
  const report_context& c = r.context;
  std::string s = "<h2>Device</h2>\n<table id=\"device\">\n";
  const std::string unnamed = "<span class=\"missing\">name not recorded</span>";
  s += line("device", "Device", c.device_name ? xml_escape(*c.device_name) : unnamed);
  s += line("index", "Index", std::to_string(c.device_index ? *c.device_index : r.device));
  if (c.device_uuid) s += line("uuid", "UUID", xml_escape(*c.device_uuid));
  if (c.device_pci_bus_id) s += line("pci", "PCI bus", xml_escape(*c.device_pci_bus_id));
  if (c.host) s += line("host", "Host", xml_escape(*c.host));
  if (c.rank)
    s += line("rank", "Rank", std::to_string(*c.rank) + (c.world_size ? " of " + std::to_string(*c.world_size) : ""));
  s += line("wall", "Wall time", monitor_html_ns(d.wall_ns()) + " (first window to last)");
  s += line("sampled", "Sampled", monitor_html_ns(d.sampled_ns) + " in kept samples");
  s += line("busy", "Busy", monitor_html_ns(d.busy_ns) + " (at least one kernel running)");
  s += line("idle", "Idle", monitor_html_ns(d.idle_ns) + " (no kernel running)");
  s += line("idle-fraction", "Idle fraction",
            r.idle_fraction ? percent_of(*r.idle_fraction) + " of the sampled time"
                            : std::string("<span class=\"missing\">not measured (nothing sampled)</span>"));
  s += line("samples", "Samples",
            std::to_string(d.samples_kept) + " kept, " + std::to_string(d.samples_dropped) + " lost, " +
                std::to_string(d.setup_samples_dropped) + " setup dropped (" + monitor_html_ns(d.dropped_ns) +
                " not attributed)");
  s += line("late", "Late kernel records", std::to_string(d.late_kernels));
  s += line("sm-dropouts", "Windows whose SM counters dropped out", std::to_string(d.sm_dropouts));
  s += line("idle-model", "Idle model", std::string(to_string(r.idle)));
  s += line("l2", "L2", std::string("the L2 % is the ") + monitor_l2_explained);
  s += line("memory-pct", "Memory %", "max(DRAM, L1, L2 slices): the monitor's reading, not ncu's Memory %");
  return s + "</table>\n";
}

}  // namespace detail

inline std::string to_html(const monitor_page& page) {
  using detail::xml_escape;
  const monitor_report& r = page.report;
  const std::string title = page.title.empty() ? "napkin monitor" : page.title;
  std::optional<detail::page_comparison> comparison;
  if (page.baseline) comparison = detail::compare_monitor_reports(*page.baseline, r, page.compare);
  const report_context& c = r.context;
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width\"><title>" + xml_escape(title) +
                  "</title>\n<style>" + detail::html_page_style() +
                  "body{max-width:none}.rows .bar-track{width:100px;height:9px}.rows .bar-name{width:58px}"
                  ".rows .bar-value{width:84px}.rows .bar-row{font-size:11px;margin:1px 0}"
                  "#device th{text-align:left;font-weight:normal;color:#555}.partial-mark{color:#b03030}"
                  ".rows td.num{white-space:nowrap}.rows td.name{min-width:100px}.rows{font-size:12px}"
                  ".rows .verdict-cell{min-width:230px}" +
                  std::string(r.system ? detail::system_html_style() : "") +
                  "</style></head>\n<body>\n";
  s += "<h1>" + xml_escape(title) + "</h1>\n<p class=\"sub\">phase monitor, device " +
       std::to_string(c.device_index ? *c.device_index : r.device) +
       (c.device_name ? " (" + xml_escape(*c.device_name) + ")" : std::string()) + " &middot; " +
       detail::monitor_html_ns(r.totals.sampled_ns) + " sampled over a wall span of " +
       detail::monitor_html_ns(r.totals.wall_ns()) + "</p>\n";
  s += detail::monitor_html_device(r);
  s += detail::monitor_html_table("phases", "By phase", "Phase", r.phases, true);
  s += detail::monitor_html_table("paths", "By phase path", "Phase path", r.paths, true);
  s += detail::monitor_html_table("kernels", "By kernel", "Kernel", r.kernels, false);
  bool partial = false;
  for (const monitor_row& row : r.kernels) partial = partial || row.partial;
  if (partial)
    s += "<p class=\"meta\" id=\"partial-note\"><span class=\"partial-mark\">*</span> partial: not every launch of "
         "the row was sampled (lost or missing samples), so its totals and DRAM bytes cover only the sampled part; "
         "compare DRAM bytes per complete (fully sampled) launch instead.</p>\n";
  if (detail::monitor_over_peak(r.kernels) && r.idle == idle_model::no_work_when_idle)
    s += "<p class=\"meta\" id=\"over-peak-note\">A reading above 100%: the device worked outside the recorded "
         "kernels in those windows (copies, other processes), which the no-work-when-idle model credits to the "
         "kernels.</p>\n";
  if (r.system) s += detail::system_html_section(*r.system);
  if (comparison) s += detail::html_baseline_section(*comparison, "Row", "Mean time");
  s += "<footer>Written by napkin " + std::to_string(NAPKIN_VERSION_MAJOR) + "." +
       std::to_string(NAPKIN_VERSION_MINOR) + "." + std::to_string(NAPKIN_VERSION_PATCH) +
       ". Self-contained: no script, style or font is loaded from elsewhere.</footer>\n";
  s += std::string("<script>") + detail::html_page_script() + "</script>\n</body></html>\n";
  return s;
}

inline void write_html(std::ostream& out, const monitor_page& page) { out << to_html(page); }

NAPKIN_END_NAMESPACE
