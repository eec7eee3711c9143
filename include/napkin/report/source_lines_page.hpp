// SPDX-License-Identifier: Apache-2.0
// napkin/report/source_lines_page.hpp — one self-contained HTML page of a PC-sampling result
// (napkin::sample_source_lines; profiler/source_lines_report.hpp), in the look of the run page (html_page.hpp),
// as Nsight Compute's Source page shows a kernel's hot lines: what sampling cost and CUPTI's totals, the notes,
// a colour key of the stall reasons, then per function its stall reasons as one stacked bar and its hot lines
// as a table sortable by samples: file:line, samples, the share of the function's samples as a bar, and the
// line's stall reasons as one stacked bar (each part as wide as the reason's share of the line's samples, the
// leading three named). A function whose module has no line information gets its hot SASS PCs in the same
// table and the note that says how to get lines; a function with lines lists its hot PCs below them. Given a
// baseline: what napkin::diff() says of the two as source-lines documents (source_lines_documents.hpp), with
// page.compare as its options. No script or style is loaded from elsewhere; every name is escaped.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions. A report that cannot be written as a document
// (validate_source_lines) is napkin's input error here too.
//
//   napkin::source_lines_page page{"strided load", napkin::sample_source_lines(fn)};
//   std::ofstream("lines.html") << napkin::to_html(page);
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/source_lines_report.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/section_html.hpp"
#include "napkin/report/source_lines_documents.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

struct source_lines_page {
  std::string title;
  source_lines_report report;
  std::optional<source_lines_report> baseline;  // an earlier sampling of the same program
  diff_options compare;                         // how the report is compared with the baseline
};

namespace detail {

// The stall reasons of the page in the order of the colour key: most samples over all functions first, ties
// by name; a reason only a line or PC names (a report not made by aggregate_source_lines) after them.
inline std::vector<std::string> source_html_reasons(const source_lines_report& r) {
  std::vector<stall_samples> totals;
  const auto add = [&totals](const stall_samples& s, bool count) {
    for (stall_samples& t : totals)
      if (t.reason == s.reason) {
        if (count) t.samples += s.samples;
        return;
      }
    totals.push_back({s.reason, count ? s.samples : 0});
  };
  for (const function_lines& f : r.functions)
    for (const stall_samples& s : f.stalls) add(s, true);
  std::stable_sort(totals.begin(), totals.end(), [](const stall_samples& a, const stall_samples& b) {
    return a.samples != b.samples ? a.samples > b.samples : a.reason < b.reason;
  });
  for (const function_lines& f : r.functions) {
    for (const source_line& l : f.lines)
      for (const stall_samples& s : l.stalls) add(s, false);
    for (const hot_pc& p : f.pcs)
      for (const stall_samples& s : p.stalls) add(s, false);
  }
  std::vector<std::string> out;
  for (const stall_samples& t : totals) out.push_back(t.reason);
  return out;
}

inline const char* source_html_colour(const std::vector<std::string>& reasons, const std::string& reason) {
  for (std::size_t i = 0; i < reasons.size(); ++i)
    if (reasons[i] == reason) return html_share_colour(i);
  return "#7f7f7f";
}

inline std::string source_html_pct(std::uint64_t part, std::uint64_t whole) {
  const std::optional<double> p = source_share_pct(part, whole);
  return p ? percent(*p) : std::string("-");
}

// One stacked bar of stall reasons: each part as wide as its share of `samples`, in the order given (most
// first), coloured by the page's key.
inline std::string source_html_stall_bar(const std::vector<stall_samples>& stalls, std::uint64_t samples,
                                         const std::vector<std::string>& reasons, const std::string& label) {
  std::string s = "<div class=\"stall-bar\" role=\"img\" aria-label=\"" + xml_escape(label) + "\">";
  for (const stall_samples& st : stalls) {
    const std::optional<double> pct = source_share_pct(st.samples, samples);
    if (!pct || st.samples == 0) continue;
    s += "<div class=\"stall\" data-reason=\"" + xml_escape(st.reason) + "\" data-share-pct=\"" + svg_number(*pct) +
         "\" style=\"width:" + fixed(std::min(*pct, 100.0), 3) + "%;background:" +
         source_html_colour(reasons, st.reason) + "\" title=\"" + xml_escape(st.reason) + ": " +
         std::to_string(st.samples) + " samples (" + percent(*pct) + ")\"></div>";
  }
  return s + "</div>";
}

// "long_scoreboard 99.8%, wait 0.1%, selected 0.1%": the first three reasons as shares of `samples`.
inline std::string source_html_top_reasons(const std::vector<stall_samples>& stalls, std::uint64_t samples) {
  std::string s;
  for (std::size_t i = 0; i < stalls.size() && i < 3; ++i)
    s += (i == 0 ? "" : ", ") + xml_escape(stalls[i].reason) + " " + source_html_pct(stalls[i].samples, samples);
  return s;
}

// A row's share of its function as a bar (the fill is the share) and its text.
inline std::string source_html_share_cell(std::uint64_t samples, std::uint64_t whole) {
  const std::optional<double> pct = source_share_pct(samples, whole);
  std::string s = "<td class=\"share\"><div class=\"bar-track share-track\">";
  if (pct) s += "<div class=\"bar-fill\" style=\"width:" + fixed(std::min(*pct, 100.0), 2) + "%\"></div>";
  return s + "</div><span class=\"share-text\">" + source_html_pct(samples, whole) + "</span></td>";
}

// The sortable table of a function's lines (`lines`) or PCs: "#", what, samples, share, the stall bar, the
// leading reasons. data-samples keeps the number the samples column sorts by; data-index the report's order.
inline std::string source_html_table(const function_lines& f, std::size_t fi, bool lines,
                                     const std::vector<std::string>& reasons) {
  const std::string id = std::string(lines ? "lines-" : "pcs-") + std::to_string(fi);
  std::string s = "<table id=\"" + id + "\" class=\"sortable " + (lines ? "hot-lines" : "hot-pcs") +
                  "\"><thead><tr><th class=\"num\" data-sort=\"data-index\" aria-sort=\"ascending\">"
                  "<button type=\"button\">#</button></th><th>" + (lines ? "Line" : "PC") + "</th>" +
                  (lines ? "" : "<th>Line</th>") +
                  "<th class=\"num\" data-sort=\"data-samples\" aria-sort=\"none\"><button type=\"button\">Samples"
                  "</button></th><th>Share of the function</th><th>Stall reasons</th><th>Leading reasons</th>"
                  "</tr></thead>\n<tbody>\n";
  const auto row = [&](std::size_t i, const std::string& what, const std::string& attrs, const std::string& extra,
                       std::uint64_t samples, const std::vector<stall_samples>& stalls, const std::string& label) {
    s += "<tr class=\"" + std::string(lines ? "hot-line" : "hot-pc") + "\" data-index=\"" + std::to_string(i) +
         "\" data-samples=\"" + std::to_string(samples) + "\"" + attrs + "><td class=\"num\">" +
         std::to_string(i + 1) + "</td><td class=\"name\">" + what + "</td>" + extra + "<td class=\"num samples\">" +
         std::to_string(samples) + "</td>" + source_html_share_cell(samples, f.samples) + "<td class=\"stalls\">" +
         source_html_stall_bar(stalls, samples, reasons, label) + "</td><td class=\"reasons\">" +
         source_html_top_reasons(stalls, samples) + "</td></tr>\n";
  };
  if (lines) {
    for (std::size_t i = 0; i < f.lines.size(); ++i) {
      const source_line& l = f.lines[i];
      const std::string at = source_location_text(l.where);
      row(i, "<span title=\"" + xml_escape(l.where.dir) + "\">" + xml_escape(at) + "</span>",
          " data-file=\"" + xml_escape(l.where.file) + "\" data-line=\"" + std::to_string(l.where.line) + "\"", "",
          l.samples, l.stalls, "stall reasons of " + at);
    }
  } else {
    for (std::size_t i = 0; i < f.pcs.size(); ++i) {
      const hot_pc& p = f.pcs[i];
      const std::string line = p.where.known() ? xml_escape(source_location_text(p.where)) : std::string("-");
      row(i, xml_escape(pc_text(p.pc_offset)), " data-pc-offset=\"" + std::to_string(p.pc_offset) + "\"",
          "<td class=\"line\">" + line + "</td>", p.samples, p.stalls, "stall reasons at " + pc_text(p.pc_offset));
    }
  }
  s += "</tbody></table>\n";
  const std::size_t shown = lines ? f.lines.size() : f.pcs.size();
  const std::size_t sampled = lines ? f.lines_sampled : f.pcs_sampled;
  if (sampled > shown)
    s += "<p class=\"meta more\" id=\"" + id + "-more\">" + std::to_string(sampled - shown) + " more " +
         (lines ? "line" : "PC") + (sampled - shown == 1 ? "" : "s") + " with samples.</p>\n";
  return s;
}

inline std::string source_html_function(const function_lines& f, std::size_t fi, std::uint64_t all,
                                        const std::vector<std::string>& reasons) {
  std::string s = "<section class=\"function\" id=\"function-" + std::to_string(fi) + "\" data-function=\"" +
                  xml_escape(f.function) + "\" data-line-info=\"" + (f.line_info ? "true" : "false") + "\"><h3>" +
                  xml_escape(f.function) + "</h3>\n<p class=\"sub\">" + std::to_string(f.samples) + " samples (" +
                  source_html_pct(f.samples, all) + " of all functions' samples), " + std::to_string(f.not_issued) +
                  " of them not issued" + (f.symbol.empty() || f.symbol == f.function
                                               ? std::string()
                                               : "; symbol <code>" + xml_escape(f.symbol) + "</code>") +
                  "</p>\n";
  if (f.samples > 0)
    s += "<div class=\"function-stalls\">" +
         source_html_stall_bar(f.stalls, f.samples, reasons, "stall reasons of " + f.function) +
         "<span class=\"meta\">" +
         source_html_top_reasons(f.stalls, f.samples) + "</span></div>\n";
  if (!f.lines.empty()) {
    s += source_html_table(f, fi, true, reasons);
    if (!f.pcs.empty())
      s += "<details class=\"pcs\"><summary>Hot SASS PCs</summary>\n" + source_html_table(f, fi, false, reasons) +
           "</details>\n";
  } else {
    s += "<p class=\"no-line-info\">" + xml_escape(f.note.empty() ? std::string(no_line_info_note) : f.note) + "</p>\n";
    s += source_html_table(f, fi, false, reasons);
  }
  return s + "</section>\n";
}

inline std::string source_html_sampling(const source_lines_report& r) {
  const source_sampling_cost& c = r.cost;
  const auto line = [](const char* key, const char* label, const std::string& value) {
    return "<tr data-key=\"" + std::string(key) + "\"><th>" + label + "</th><td>" + value + "</td></tr>\n";
  };
  std::string s = "<h2>Sampling</h2>\n<table id=\"sampling\">\n";
  s += line("period", "Period",
            c.period_log2 > 0 ? "every 2^" + std::to_string(c.period_log2) + " cycles per SM sub-partition"
                              : std::string("<span class=\"missing\">not recorded</span>"));
  s += line("samples", "Samples",
            std::to_string(c.total_samples) + " in all, " + std::to_string(c.dropped_samples) + " dropped, " +
                std::to_string(c.non_user_samples) + " in kernels CUPTI gives no PCs for");
  s += line("records", "PC records", std::to_string(c.pc_records) + " in " + std::to_string(c.drains) + " drain" +
                                         (c.drains == 1 ? "" : "s") +
                                         (c.hardware_buffer_full ? "; the hardware buffer filled up" : ""));
  s += line("cost", "Host time",
            duration(c.total_s()) + " (setup " + duration(c.setup_s) + ", sampled run " + duration(c.run_s) +
                ", drain " + duration(c.drain_s) + ", source correlation " + duration(c.correlate_s) + ")");
  return s + "</table>\n";
}

inline std::string source_html_key(const std::vector<std::string>& reasons) {
  if (reasons.empty()) return {};
  std::string s = "<p id=\"stall-key\" class=\"meta\">Stall reasons (CUPTI's names, all samples):";
  for (const std::string& r : reasons)
    s += " <span class=\"key\" data-reason=\"" + xml_escape(r) + "\"><span class=\"swatch\" style=\"background:" +
         source_html_colour(reasons, r) + "\"></span>" + xml_escape(r) + "</span>";
  return s + "</p>\n";
}

// "Against the baseline": diff()'s outcome, every number beyond the threshold, the rows in one run only.
inline std::string source_html_baseline(const source_lines_report& baseline, const source_lines_report& run,
                                        const diff_options& options) {
  report_document old_doc = to_document(baseline);
  report_document new_doc = to_document(run);
  old_doc.source = "baseline";
  new_doc.source = "this run";
  const report_diff d = diff(old_doc, new_doc, options);
  const std::string threshold = fixed(d.threshold_pct, 1) + "%";
  std::string s = "<h2>Against the baseline</h2>\n<p id=\"diff-outcome\" class=\"verdict " +
                  std::string(to_string(d.outcome)) + "\" data-outcome=\"" + std::string(to_string(d.outcome)) +
                  "\"><b>napkin diff: " + std::string(to_string(d.outcome)) + "</b> (threshold " + threshold + ")";
  if (d.bad_input()) {
    s += "</p>\n<ul id=\"diff-problems\">";
    for (const std::string& p : d.problems) s += "<li>" + xml_escape(p) + "</li>";
    return s + "</ul>\n";
  }
  std::size_t same = 0;
  for (const field_change& f : d.changes) same += f.status == change_status::same ? 1 : 0;
  s += ": " + std::to_string(same) + " of " + std::to_string(d.changes.size()) + " numbers within " + threshold +
       ".</p>\n";
  if (same < d.changes.size()) {
    s += "<table id=\"diff-numbers\"><thead><tr><th>Row</th><th>Field</th><th class=\"num\">Old</th>"
         "<th class=\"num\">New</th><th class=\"num\">Change</th><th>Status</th></tr></thead>\n<tbody>\n";
    for (const field_change& f : d.changes) {
      if (f.status == change_status::same) continue;
      const char* tone = f.status == change_status::better  ? " faster"
                         : f.status == change_status::worse ? " slower"
                                                            : "";
      s += "<tr class=\"diff-row\" data-entity=\"" + xml_escape(f.entity) + "\" data-field=\"" + xml_escape(f.field) +
           "\" data-status=\"" + std::string(to_string(f.status)) + "\"><td class=\"name\">" + xml_escape(f.entity) +
           "</td><td class=\"field\">" + xml_escape(f.field) + "</td><td class=\"num old\">" +
           xml_escape(old_value_text(f)) + "</td><td class=\"num new\">" + xml_escape(new_value_text(f)) +
           "</td><td class=\"num change" + tone + "\">" + change_text(f) + "</td><td class=\"status" + tone + "\">" +
           status_text(f.status, f.regression) + "</td></tr>\n";
    }
    s += "</tbody></table>\n";
  }
  const auto names = [&s](const char* id, const char* what, const std::vector<std::string>& rows) {
    if (rows.empty()) return;
    s += "<p class=\"meta\">" + std::string(what) + "</p><ul id=\"" + id + "\">";
    for (const std::string& n : rows) s += "<li>" + xml_escape(n) + "</li>";
    s += "</ul>\n";
  };
  names("diff-added", "Rows only this run has (new hot lines):", d.added);
  names("diff-removed", "Rows only the baseline has (lines no longer among the hot ones):", d.removed);
  return s;
}

}  // namespace detail

inline std::string to_html(const source_lines_page& page) {
  using detail::xml_escape;
  const source_lines_report& r = page.report;
  check_source_lines(r);
  const std::string title = page.title.empty() ? "napkin source lines" : page.title;
  const std::vector<std::string> reasons = detail::source_html_reasons(r);
  const std::uint64_t all = detail::source_functions_samples(r);
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width\"><title>" + xml_escape(title) +
                  "</title>\n<style>" + detail::html_page_style() +
                  ".stall-bar{display:flex;width:320px;height:14px;border:1px solid #ccc;background:#eee}"
                  ".stall{height:100%}.function-stalls{display:flex;gap:8px;align-items:center;margin:4px 0 8px}"
                  ".share .share-track{display:inline-block;width:100px;height:10px;vertical-align:middle;"
                  "margin-right:6px}.swatch{display:inline-block;width:10px;height:10px;margin:0 3px 0 6px}"
                  ".no-line-info{font-size:13px;color:#8a5a00}td.reasons{font-size:12px}"
                  ".hot-lines td.name,.hot-pcs td.name,.hot-pcs td.line{white-space:nowrap;max-width:none}"
                  "</style></head>\n<body>\n";
  s += "<h1>" + xml_escape(title) + "</h1>\n<p class=\"sub\">source lines from CUPTI PC sampling" +
       (r.cost.period_log2 > 0 ? ", every 2^" + std::to_string(r.cost.period_log2) + " cycles" : std::string()) +
       " &middot; " + std::to_string(r.functions.size()) + " function" + (r.functions.size() == 1 ? "" : "s") +
       ", " + std::to_string(all) + " samples in them</p>\n";
  s += detail::source_html_sampling(r);
  if (!r.notes.empty()) {
    s += "<ul id=\"notes\">";
    for (const std::string& n : r.notes) s += "<li>" + xml_escape(n) + "</li>";
    s += "</ul>\n";
  }
  s += "<h2>Hot lines</h2>\n";
  if (r.functions.empty()) s += "<p class=\"sub empty\" id=\"functions-none\">No function was sampled.</p>\n";
  s += detail::source_html_key(reasons);
  for (std::size_t i = 0; i < r.functions.size(); ++i)
    s += detail::source_html_function(r.functions[i], i, all, reasons);
  if (page.baseline) s += detail::source_html_baseline(*page.baseline, r, page.compare);
  s += "<footer>Written by napkin " + std::to_string(NAPKIN_VERSION_MAJOR) + "." +
       std::to_string(NAPKIN_VERSION_MINOR) + "." + std::to_string(NAPKIN_VERSION_PATCH) +
       ". Self-contained: no script, style or font is loaded from elsewhere.</footer>\n";
  s += std::string("<script>") + detail::html_page_script() + "</script>\n</body></html>\n";
  return s;
}

inline void write_html(std::ostream& out, const source_lines_page& page) { out << to_html(page); }

NAPKIN_END_NAMESPACE
