// SPDX-License-Identifier: Apache-2.0
// One self-contained HTML page per run (napkin/report/html_page.hpp): the function bodies. Included by html_page.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>

#include "napkin/report/html_page.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/profiler/verdicts.hpp"
#include "napkin/report/profiler_documents.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC const report_entity* html_entity(const report_document& d, const std::string& name) {
  for (const report_entity& e : d.entities)
    if (e.name == name) return &e;
  return nullptr;
}

NAPKIN_DETAIL_FUNC std::optional<double> html_number(const report_entity* e, const char* field) {
  const report_number* n = e ? e->number(field) : nullptr;
  return n ? std::optional<double>(n->value) : std::nullopt;
}

NAPKIN_DETAIL_FUNC std::string html_verdict(const report_entity* e) {
  const report_verdict* v = e ? e->verdict("sol_table") : nullptr;
  return v ? v->text : std::string();
}

NAPKIN_DETAIL_FUNC std::vector<kernel_change> kernel_changes(const report_document& baseline,
                                                             const report_document& run,
                                                             const report_diff& d, const char* time_field) {
  std::vector<kernel_change> out;
  const auto add = [&out, &baseline, &run, &d, time_field](const std::string& name) {
    kernel_change c;
    c.name = name;
    const report_entity* now = html_entity(run, name);
    const report_entity* old = html_entity(baseline, name);
    c.in_run = now != nullptr;
    c.in_baseline = old != nullptr;
    c.new_ns = html_number(now, time_field);
    c.old_ns = html_number(old, time_field);
    c.new_verdict = html_verdict(now);
    c.old_verdict = html_verdict(old);
    for (const field_change& f : d.changes)
      if (f.entity == name && f.field == time_field) {
        c.change_pct = f.change_pct;
        c.status = f.status;
        c.regression = f.regression;
      }
    if (!c.in_baseline) c.status = change_status::added;
    if (!c.in_run) c.status = change_status::removed;
    out.push_back(std::move(c));
  };
  for (const report_entity& e : run.entities) add(e.name);
  for (const std::string& name : d.removed) add(name);
  return out;
}

NAPKIN_DETAIL_FUNC page_comparison compare_runs(const std::vector<sol_report>& baseline,
                                                const std::vector<sol_report>& run,
                                                const diff_options& options,
                                                const section_makers& makers) {
  report_document old_doc = to_document(kernel_reports{baseline, 0, {}}, {}, makers);
  report_document new_doc = to_document(kernel_reports{run, 0, {}}, {}, makers);
  old_doc.source = "baseline";
  new_doc.source = "this run";
  page_comparison c;
  c.diff = diff(old_doc, new_doc, options);
  if (!c.diff.bad_input()) c.kernels = kernel_changes(old_doc, new_doc, c.diff);
  return c;
}

NAPKIN_DETAIL_FUNC std::string html_time_text(std::optional<double> ns) {
  return ns ? duration(*ns * 1e-9) : "not measured";
}

// A kernel's time change, as `napkin diff` writes it ("-70.6%"), coloured by its status (better is faster).
NAPKIN_DETAIL_FUNC std::string html_change_cell(const kernel_change& c) {
  if (!c.change_pct) return "<td class=\"num change\">-</td>";
  const char* tone = c.status == change_status::better ? " faster" : c.status == change_status::worse ? " slower" : "";
  return "<td class=\"num change" + std::string(tone) + "\" data-status=\"" + std::string(to_string(c.status)) +
         "\" data-pct=\"" + svg_number(*c.change_pct) + "\">" + (*c.change_pct > 0 ? "+" : "") +
         fixed(*c.change_pct, 1) + "%</td>";
}

NAPKIN_DETAIL_FUNC std::string html_baseline_section(const page_comparison& c, const std::string& entity,
                                                     const std::string& time_header) {
  const report_diff& d = c.diff;
  const std::string threshold = fixed(d.threshold_pct, 1) + "%";
  std::string s = "<h2>Against the baseline</h2>\n<p id=\"diff-outcome\" class=\"verdict " +
                  std::string(to_string(d.outcome)) + "\" data-outcome=\"" + std::string(to_string(d.outcome)) +
                  "\"><b>napkin diff: " + std::string(to_string(d.outcome)) + "</b> ";
  if (d.bad_input()) {
    s += "(the runs cannot be compared)</p>\n<ul id=\"diff-problems\">";
    for (const std::string& p : d.problems) s += "<li>" + xml_escape(p) + "</li>";
    return s + "</ul>\n";
  }
  std::size_t same = 0, regressions = 0;
  for (const field_change& f : d.changes) {
    same += f.status == change_status::same ? 1 : 0;
    regressions += f.regression ? 1 : 0;
  }
  s += "(threshold " + threshold + "): " +
       (regressions == 0 ? std::string("no compared number got worse beyond the threshold")
                         : std::to_string(regressions) + " number" + (regressions == 1 ? "" : "s") +
                               " got worse beyond the threshold") +
       "; " + std::to_string(same) + " of " + std::to_string(d.changes.size()) + " numbers within " + threshold +
       (d.noise_held() ? " or their noise" : "") + ".</p>\n";

  s += "<table id=\"changes\"><thead><tr><th>" + entity + "</th><th class=\"num\">" + time_header +
       "</th><th class=\"num\">Change</th><th>Status</th><th>SOL verdict</th></tr></thead>\n<tbody>\n";
  for (const kernel_change& k : c.kernels) {
    const std::string time = !k.in_baseline ? "new: " + html_time_text(k.new_ns)
                             : !k.in_run    ? html_time_text(k.old_ns) + " &rarr; gone"
                                            : html_time_text(k.old_ns) + " &rarr; " + html_time_text(k.new_ns);
    const std::string verdict = !k.in_baseline ? xml_escape(k.new_verdict)
                                : !k.in_run    ? xml_escape(k.old_verdict)
                                : k.old_verdict == k.new_verdict
                                    ? xml_escape(k.new_verdict) + " (unchanged)"
                                    : xml_escape(k.old_verdict) + " &rarr; " + xml_escape(k.new_verdict);
    s += "<tr class=\"change-row\" data-name=\"" + xml_escape(k.name) + "\"><td class=\"name\">" +
         xml_escape(k.name) + "</td><td class=\"num time-change\">" + time + "</td>" + html_change_cell(k) +
         "<td class=\"status\">" + status_text(k.status, k.regression) + "</td><td class=\"verdict-change\">" +
         verdict + "</td></tr>\n";
  }
  s += "</tbody></table>\n";

  if (same < d.changes.size()) {
    s += "<h3>Numbers beyond " + threshold + "</h3>\n<table id=\"diff-numbers\"><thead><tr><th>" + entity +
         "</th><th>Field</th><th class=\"num\">Old</th><th class=\"num\">New</th><th class=\"num\">Change</th>"
         "<th>Status</th></tr></thead>\n<tbody>\n";
    for (const field_change& f : d.changes) {
      if (f.status == change_status::same) continue;
      const char* tone = f.status == change_status::better ? " faster" : f.status == change_status::worse ? " slower" : "";
      s += "<tr class=\"diff-row\" data-entity=\"" + xml_escape(f.entity) + "\" data-field=\"" + xml_escape(f.field) +
           "\" data-status=\"" + std::string(to_string(f.status)) + "\"><td class=\"name\">" + xml_escape(f.entity) +
           "</td><td class=\"field\">" + xml_escape(f.field) + "</td><td class=\"num old\">" + xml_escape(old_value_text(f)) +
           "</td><td class=\"num new\">" + xml_escape(new_value_text(f)) + "</td><td class=\"num change" + tone + "\">" +
           change_text(f) + "</td><td class=\"status" + tone + "\">" + status_text(f.status, f.regression) +
           "</td></tr>\n";
    }
    s += "</tbody></table>\n";
  }
  if (!d.verdict_changes.empty()) {
    s += "<h3>Verdicts that changed</h3>\n<ul id=\"diff-verdicts\">";
    for (const verdict_change& v : d.verdict_changes)
      s += "<li data-entity=\"" + xml_escape(v.entity) + "\" data-field=\"" + xml_escape(v.field) + "\">" +
           xml_escape(v.entity) + " " + xml_escape(v.field) + ": " + xml_escape(v.old_text) + " &rarr; " +
           xml_escape(v.new_text) + "</li>";
    s += "</ul>\n";
  }
  return s;
}

// A <td> for a percentage and its numeric sort key.
NAPKIN_DETAIL_FUNC std::string html_pct_cell(std::optional<double> pct) {
  return pct ? "<td class=\"num\">" + percent(*pct) + "</td>" : std::string("<td class=\"num missing\">-</td>");
}

NAPKIN_DETAIL_FUNC std::string html_sol_bar(const char* key, const char* name, std::optional<double> pct) {
  std::string s = "<div class=\"bar-row\" data-metric=\"" + std::string(key) + "\"><span class=\"bar-name\">" +
                  name + "</span><div class=\"bar-track\">";
  if (pct) {
    const double width = *pct < 0 ? 0 : *pct > 100 ? 100 : *pct;
    s += "<div class=\"bar-fill\" data-pct=\"" + svg_number(*pct) + "\" style=\"width:" + fixed(width, 2) +
         "%\"></div></div><span class=\"bar-value\">" + percent(*pct) + "</span>";
  } else {
    s += "</div><span class=\"bar-value missing\">not measured</span>";
  }
  return s + "</div>\n";
}

// per_kernel() records its cost once for the call (kernel_reports::cost), not per kernel: a kernel's cost of 0
// means "not recorded here", never "free".
NAPKIN_DETAIL_FUNC std::string html_cost_text(const measurement_cost& c) {
  if (c.total_s() <= 0) return "not recorded per kernel (per_kernel() records it for the whole call)";
  return duration(c.total_s()) + " (enable " + duration(c.enable_s) + ", setup " + duration(c.setup_s) +
         ", passes " + duration(c.passes_s) + ", decode " + duration(c.decode_s) + ")";
}

NAPKIN_DETAIL_FUNC const char* html_page_style() {
  return "body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}"
         "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}"
         "h3{font-size:14px;margin:16px 0 6px;font-family:monospace;overflow-wrap:anywhere}ul{font-size:13px}"
         ".sub{color:#555;font-size:13px}table{border-collapse:collapse;font-size:13px}"
         "th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}"
         "td.name{font-family:monospace;overflow-wrap:anywhere;max-width:380px}td.num,th.num{text-align:right}"
         "th button{font:inherit;font-weight:bold;border:0;background:none;cursor:pointer;padding:0}"
         "th[aria-sort=ascending] button::after{content:' \\25B2'}"
         "th[aria-sort=descending] button::after{content:' \\25BC'}"
         ".bar-row{display:flex;align-items:center;gap:8px;font-size:12px;margin:2px 0}"
         ".bar-name{width:70px}.bar-track{width:360px;height:12px;background:#eee;border:1px solid #ccc}"
         ".bar-fill{height:100%;background:#3b7dd8}.bar-value{width:90px}.missing{color:#999}"
         ".verdict{font-size:13px;margin:4px 0}.meta{font-size:12px;color:#555}"
         ".faster{color:#16794a}.slower{color:#b03030}.no-regression b{color:#16794a}"
         ".regression b,.bad-input b{color:#b03030}footer{margin-top:32px;font-size:11px;color:#888}";
}

NAPKIN_DETAIL_FUNC const char* html_page_script() {
  return "document.querySelectorAll('table.sortable th[data-sort] button').forEach(function(b){"
         "b.addEventListener('click',function(){var th=b.parentNode,table=th.closest('table'),"
         "key=th.getAttribute('data-sort'),asc=th.getAttribute('aria-sort')!=='ascending';"
         "table.querySelectorAll('th[data-sort]').forEach(function(o){o.setAttribute('aria-sort','none');});"
         "var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);"
         "function v(r){var x=parseFloat(r.getAttribute(key));return isNaN(x)?null:x;}"
         "rows.sort(function(r,s){var x=v(r),y=v(s);if(x===y)return 0;if(x===null)return 1;if(y===null)return -1;"
         "return asc?x-y:y-x;});rows.forEach(function(r){body.appendChild(r);});"
         "th.setAttribute('aria-sort',asc?'ascending':'descending');});});";
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_html(const report_page& page) {
  using detail::xml_escape;
  const std::string gpu = !page.gpu.empty()  ? page.gpu
                          : page.roofline    ? std::string(page.roofline->gpu.name)
                          : !page.kernels.empty() ? page.kernels.front().chip
                                                  : std::string();
  const std::string title = page.title.empty() ? "napkin report" : page.title;
  std::optional<detail::page_comparison> comparison;
  if (page.baseline) comparison = detail::compare_runs(*page.baseline, page.kernels, page.compare, page.sections);
  const std::vector<kernel_change>* changes =
      comparison && !comparison->diff.bad_input() ? &comparison->kernels : nullptr;

  double total_ns = 0, cost_s = 0;
  for (const sol_report& k : page.kernels) {
    total_ns += k.duration_ns().value_or(0);
    cost_s += k.cost.total_s();
  }
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width\"><title>" + xml_escape(title) +
                  "</title>\n<style>" + detail::html_page_style() + detail::html_section_style() +
                  "</style></head>\n<body>\n";
  s += "<h1>" + xml_escape(title) + "</h1>\n<p class=\"sub\">" + (gpu.empty() ? "" : xml_escape(gpu) + " &middot; ") +
       std::to_string(page.kernels.size()) + " kernel" + (page.kernels.size() == 1 ? "" : "s") + ", " +
       duration(total_ns * 1e-9) + " measured in all" +
       (cost_s > 0 ? "; measuring took " + duration(cost_s) : std::string()) + "</p>\n";

  // The kernels table. data-time-ns keeps the exact number the Time column sorts by.
  s += "<h2>Kernels</h2>\n<table id=\"kernels\" class=\"sortable\"><thead><tr>"
       "<th class=\"num\" data-sort=\"data-index\" aria-sort=\"ascending\"><button type=\"button\">#</button></th>"
       "<th>Kernel</th><th class=\"num\" data-sort=\"data-time-ns\" aria-sort=\"none\"><button type=\"button\">Time"
       "</button></th><th class=\"num\">SM</th><th class=\"num\">Memory</th><th>SOL table</th><th>ncu rule</th>";
  if (changes) s += "<th class=\"num\">Baseline</th><th class=\"num\">Change</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < page.kernels.size(); ++i) {
    const sol_report& k = page.kernels[i];
    const auto ns = k.duration_ns();
    const auto ncu = k.ncu_rule();
    s += "<tr data-index=\"" + std::to_string(i) + "\" data-time-ns=\"" + (ns ? detail::svg_number(*ns) : "") +
         "\"><td class=\"num\">" + std::to_string(i + 1) + "</td><td class=\"name\"><a href=\"#kernel-" +
         std::to_string(i) + "\">" + xml_escape(k.name) + "</a></td><td class=\"num time\">" +
         detail::html_time_text(ns) + "</td>" + detail::html_pct_cell(k.sm_pct()) +
         detail::html_pct_cell(k.memory_pct()) + "<td class=\"sol-verdict\">" +
         std::string(describe(k.sol_table().kind)) + "</td><td class=\"ncu-verdict\">" +
         (ncu ? std::string(describe(ncu->kind)) : std::string("not measured")) + "</td>";
    if (changes) {
      const kernel_change& c = (*changes)[i];
      s += "<td class=\"num\">" + (c.in_baseline ? detail::html_time_text(c.old_ns) : std::string("new")) + "</td>" +
           detail::html_change_cell(c);
    }
    s += "</tr>\n";
  }
  s += "</tbody></table>\n";

  // Speed of light per kernel.
  s += "<h2>Speed of light</h2>\n";
  for (std::size_t i = 0; i < page.kernels.size(); ++i) {
    const sol_report& k = page.kernels[i];
    const sol_verdict sol = k.sol_table();
    const auto ncu = k.ncu_rule();
    s += "<section class=\"kernel\" id=\"kernel-" + std::to_string(i) + "\"><h3>" + xml_escape(k.name) + "</h3>\n";
    // An import (ncu, nvbench) has no napkin passes or cost; nvbench's time has its noise.
    const bool imported = k.how == measured_by::ncu || k.how == measured_by::nvbench;
    const auto noise = k.duration_noise_pct();
    s += "<div class=\"meta\">" + detail::html_time_text(k.duration_ns()) +
         (noise ? " (noise " + percent(*noise, 2) + ")" : std::string()) + " &middot; set " + xml_escape(k.metric_set) +
         ", " + (imported ? std::string() : std::to_string(k.passes) + " pass" + (k.passes == 1 ? "" : "es") + ", ") +
         std::string(describe(k.how)) +
         (imported ? std::string() : " &middot; measurement cost " + detail::html_cost_text(k.cost)) + "</div>\n";
    s += detail::html_sol_bar("sm", "SM", k.sm_pct()) + detail::html_sol_bar("memory", "Memory", k.memory_pct()) +
         detail::html_sol_bar("dram", "DRAM", k.dram_pct()) + detail::html_sol_bar("l1tex", "L1/TEX", k.l1tex_pct()) +
         detail::html_sol_bar("l2", "L2", k.l2_pct());
    s += "<p class=\"verdict sol\" data-kind=\"" + std::string(to_string(sol.kind)) + "\"><b>SOL table: " +
         std::string(describe(sol.kind)) + ".</b> " + xml_escape(sol.reason) + "</p>\n";
    if (ncu)
      s += "<p class=\"verdict ncu\" data-kind=\"" + std::string(to_string(ncu->kind)) + "\"><b>ncu rule: " +
           std::string(describe(ncu->kind)) + ".</b> " + xml_escape(ncu->reason) + "</p>\n";
    for (const auto& [what, how] : k.derivations)
      s += "<div class=\"meta derivation\">" + xml_escape(what) + ": " + xml_escape(how) + "</div>\n";
    s += detail::html_sections(sections_of(k, page.sections), "kernel-" + std::to_string(i));
    s += "</section>\n";
  }

  if (page.roofline) s += "<h2>Roofline</h2>\n<div class=\"roofline\">" + to_svg(*page.roofline) + "</div>\n";

  if (comparison) s += detail::html_baseline_section(*comparison);
  s += "<footer>Written by napkin " + std::to_string(NAPKIN_VERSION_MAJOR) + "." +
       std::to_string(NAPKIN_VERSION_MINOR) + "." + std::to_string(NAPKIN_VERSION_PATCH) +
       ". Self-contained: no script, style or font is loaded from elsewhere.</footer>\n";
  s += std::string("<script>") + detail::html_page_script() + "</script>\n</body></html>\n";
  return s;
}

NAPKIN_DETAIL_FUNC void write_html(std::ostream& out, const report_page& page) { out << to_html(page); }

NAPKIN_END_NAMESPACE
