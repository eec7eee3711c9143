// SPDX-License-Identifier: Apache-2.0
// napkin/report/system_html.hpp — the "System" section of the monitor's HTML page (report/monitor_page.hpp): the
// system view's report (system/system_report.hpp) as one horizontal stacked bar per phase and for the run
// (its span split into GPU work other than copies, copies with no kernel beside them, and idle time), the
// findings with their fix, the kernels by GPU time and the kernel to profile next. Plain HTML and CSS, like the
// page's SOL bars; no script. Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/report/html_page.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/system/system_text.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The section's own styles, added to the page's.
inline const char* system_html_style() {
  return ".timeline{display:flex;width:480px;height:14px;border:1px solid #ccc;background:#fff}"
         ".timeline span{display:block;height:100%}.timeline .kernels{background:#3b7dd8}"
         ".timeline .copies{background:#e0a030}.timeline .idle{background:#ddd}"
         ".legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}"
         "#system-phases td.num{white-space:nowrap}#system-findings li{margin:4px 0}";
}

// A percentage for a CSS width: "37.5%".
inline std::string system_html_width(double fraction) { return fixed(fraction * 100.0, 2) + "%"; }

// One phase's span as three shares: busy but for copies with no kernel beside them, those copies, idle.
inline std::string system_html_timeline(const system_phase& p) {
  if (p.span_ns == 0) return "<span class=\"missing\">no GPU span</span>";
  const double span = static_cast<double>(p.span_ns);
  const std::uint64_t copies = std::min(system_copy_not_overlapped_ns(p), p.busy_ns);
  const std::uint64_t work = p.busy_ns - copies;
  const auto part = [span](const char* cls, std::uint64_t ns, const char* what) {
    return "<span class=\"" + std::string(cls) + "\" data-share=\"" + fixed(static_cast<double>(ns) / span, 6) +
           "\" style=\"width:" + system_html_width(static_cast<double>(ns) / span) + "\" title=\"" + what + " " +
           system_ns(ns) + "\"></span>";
  };
  return "<div class=\"timeline\">" + part("kernels", work, "kernels (GPU work)") +
         part("copies", copies, "copies, no kernel running") + part("idle", p.idle_ns, "idle") + "</div>";
}

inline std::string system_html_section(const system_report& r) {
  std::string s = "<section id=\"system\">\n<h2>System</h2>\n";
  const system_phase& run = r.run;
  s += "<p class=\"sub\" id=\"system-run\">GPU span " + system_ns(run.span_ns) + ", busy " + system_ns(run.busy_ns) +
       ", idle " + system_ns(run.idle_ns) + " (" + system_share(run.idle_ns, run.span_ns) + "); host blocked " +
       system_ns(run.host_blocked_ns) + " in blocking calls (" + std::to_string(system_syncs(run)) +
       " synchronize calls, synchronous copies and memsets; summed over threads)</p>\n";
  s += "<p class=\"meta legend\"><span style=\"background:#3b7dd8\"></span>kernels (GPU work)"
       "<span style=\"background:#e0a030\"></span>copies with no kernel running"
       "<span style=\"background:#ddd\"></span>idle</p>\n";
  s += "<table id=\"system-phases\" class=\"rows\"><thead><tr><th>Phase</th><th class=\"num\">Instances</th>"
       "<th class=\"num\">Span</th><th>Timeline</th><th class=\"num\">Idle</th><th class=\"num\">Kernels</th>"
       "<th class=\"num\">GPU time</th><th class=\"num\">Copies</th><th class=\"num\">Overlapped</th>"
       "<th class=\"num\">Host blocked</th><th class=\"num\">Syncs</th></tr></thead>\n<tbody>\n";
  std::vector<const system_phase*> rows;
  for (const system_phase& p : r.phases) rows.push_back(&p);
  rows.push_back(&run);
  for (const system_phase* p : rows) {
    const std::string name = p == &run ? std::string("(run)") : system_phase_label(p->name);
    s += "<tr class=\"system-phase\" data-name=\"" + xml_escape(name) + "\"><td class=\"name\">" + xml_escape(name) +
         "</td><td class=\"num\">" + std::to_string(p->instances) + "</td><td class=\"num\">" + system_ns(p->span_ns) +
         "</td><td>" + system_html_timeline(*p) + "</td><td class=\"num idle\">" +
         system_share(p->idle_ns, p->span_ns) + "</td><td class=\"num\">" + std::to_string(p->kernels) +
         "</td><td class=\"num\">" + system_ns(p->kernel_ns) + "</td><td class=\"num\">" + system_ns(p->copy_ns()) +
         "</td><td class=\"num overlap\">" + system_share(p->copy_overlapped_ns, p->copy_ns()) +
         "</td><td class=\"num\">" + system_ns(p->host_blocked_ns) + "</td><td class=\"num\">" +
         std::to_string(system_syncs(*p)) + "</td></tr>\n";
  }
  s += "</tbody></table>\n<h3>Findings</h3>\n";
  if (r.findings.empty()) {
    s += "<p class=\"sub empty\" id=\"system-findings-none\">No rule fired.</p>\n";
  } else {
    s += "<ul id=\"system-findings\">";
    for (const system_finding& f : r.findings)
      s += "<li data-rule=\"" + std::string(to_string(f.rule)) + "\"><b>" + std::string(to_string(f.rule)) +
           "</b> " + xml_escape(system_phase_label(f.phase)) + ": " + xml_escape(f.evidence) +
           "<div class=\"meta\">fix: " + xml_escape(f.advice) + " (at most " + system_ns(f.at_stake_ns) +
           " to gain)</div></li>";
    s += "</ul>\n";
  }
  if (!r.kernels.empty()) {
    s += "<h3>Kernels by GPU time</h3>\n<table id=\"system-kernels\" class=\"rows\"><thead><tr><th>Kernel</th>"
         "<th class=\"num\">Count</th><th class=\"num\">GPU time</th><th class=\"num\">Share</th><th>Phase</th>"
         "</tr></thead>\n<tbody>\n";
    for (const kernel_time_share& k : r.kernels)
      s += "<tr data-name=\"" + xml_escape(k.name) + "\"><td class=\"name\">" + xml_escape(k.name) +
           "</td><td class=\"num\">" + std::to_string(k.count) + "</td><td class=\"num\">" + system_ns(k.gpu_ns) +
           "</td><td class=\"num\">" + percent_of(k.share) + "</td><td>" + xml_escape(system_phase_label(k.top_phase)) +
           "</td></tr>\n";
    s += "</tbody></table>\n";
  }
  const next_target& n = r.next;
  s += "<p id=\"system-next\"" + std::string(n.kernel ? " data-kernel=\"" + xml_escape(*n.kernel) + "\"" : "") + ">" +
       (n.kernel ? "<b>Next:</b> profile " + xml_escape(*n.kernel) + " (" + percent_of(n.share) + " of GPU time): "
                 : std::string("<b>Next:</b> no kernel to profile yet: ")) +
       xml_escape(n.reason) + (n.how.empty() ? std::string() : "<br><code>" + xml_escape(n.how) + "</code>") +
       "</p>\n";
  if (r.records_dropped > 0 || r.late_records > 0)
    s += "<p class=\"meta\" id=\"system-records\">records: " + std::to_string(r.records_dropped) + " dropped, " +
         std::to_string(r.late_records) + " late</p>\n";
  return s + "</section>\n";
}

}  // namespace detail

NAPKIN_END_NAMESPACE
