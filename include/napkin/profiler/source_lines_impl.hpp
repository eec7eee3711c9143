// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/source_lines.hpp's aggregation from sampled PCs to source lines, and its text: the function
// bodies. Included by source_lines.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "napkin/profiler/source_lines.hpp"
#include "napkin/profiler/source_lines_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC void add_stalls(std::map<std::string, std::uint64_t>& into, const std::vector<stall_samples>& from) {
  for (const auto& s : from)
    if (!is_not_issued(s.reason) && s.samples > 0) into[s.reason] += s.samples;
}

NAPKIN_DETAIL_FUNC std::vector<stall_samples> sorted_stalls(const std::map<std::string, std::uint64_t>& m) {
  std::vector<stall_samples> out;
  out.reserve(m.size());
  for (const auto& [reason, n] : m) out.push_back({reason, n});
  std::stable_sort(out.begin(), out.end(), [](const stall_samples& a, const stall_samples& b) {
    return a.samples > b.samples;  // ties keep the name order of the map
  });
  return out;
}

// A PC's (all, not-issued) samples.
NAPKIN_DETAIL_FUNC std::pair<std::uint64_t, std::uint64_t> pc_samples(const std::vector<stall_samples>& stalls) {
  std::uint64_t all = 0, not_issued = 0;
  for (const auto& s : stalls) (is_not_issued(s.reason) ? not_issued : all) += s.samples;
  return {all, not_issued};
}

NAPKIN_DETAIL_FUNC bool wanted_function(const std::string& name, const std::vector<std::string>& filter) {
  if (filter.empty()) return true;
  return std::any_of(filter.begin(), filter.end(),
                     [&](const std::string& f) { return name.find(f) != std::string::npos; });
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::vector<function_lines> aggregate_source_lines(const std::vector<pc_record>& records,
                                                                      const source_lines_options& options) {
  struct pc_acc {
    std::map<std::string, std::uint64_t> stalls;
    std::uint64_t all = 0, not_issued = 0;
    source_location where;
  };
  struct fn_acc {
    std::string function;
    std::map<std::uint64_t, pc_acc> pcs;
  };
  std::map<std::string, fn_acc> by_symbol;
  for (const auto& r : records) {
    if (!detail::wanted_function(r.function, options.functions)) continue;
    fn_acc& f = by_symbol[r.symbol.empty() ? r.function : r.symbol];
    f.function = r.function;
    pc_acc& p = f.pcs[r.pc_offset];
    const auto [all, not_issued] = detail::pc_samples(r.stalls);
    p.all += all;
    p.not_issued += not_issued;
    detail::add_stalls(p.stalls, r.stalls);
    if (r.where.known()) p.where = r.where;
  }

  std::vector<function_lines> out;
  for (auto& [symbol, f] : by_symbol) {
    function_lines fl;
    fl.function = f.function;
    fl.symbol = symbol;
    std::map<std::string, std::uint64_t> fn_stalls;
    using line_key = std::tuple<std::string, std::string, std::uint32_t>;
    struct line_acc {
      source_location where;
      std::uint64_t all = 0, not_issued = 0;
      std::map<std::string, std::uint64_t> stalls;
      std::vector<std::uint64_t> pcs;
    };
    std::map<line_key, line_acc> lines;
    for (const auto& [offset, p] : f.pcs) {
      if (p.all == 0 && p.not_issued == 0) continue;
      fl.samples += p.all;
      fl.not_issued += p.not_issued;
      for (const auto& [reason, n] : p.stalls) fn_stalls[reason] += n;
      fl.pcs.push_back({offset, p.all, p.not_issued, detail::sorted_stalls(p.stalls), p.where});
      if (!p.where.known()) continue;
      fl.line_info = true;
      line_acc& l = lines[line_key{p.where.dir, p.where.file, p.where.line}];
      l.where = p.where;
      l.all += p.all;
      l.not_issued += p.not_issued;
      for (const auto& [reason, n] : p.stalls) l.stalls[reason] += n;
      l.pcs.push_back(offset);  // f.pcs is ordered by offset, so these ascend
    }
    fl.stalls = detail::sorted_stalls(fn_stalls);
    for (auto& [key, l] : lines)
      fl.lines.push_back({l.where, l.all, l.not_issued, detail::sorted_stalls(l.stalls), std::move(l.pcs)});
    // Stable sorts over inputs already ordered by (dir, file, line) and by offset: ties keep that order.
    std::stable_sort(fl.lines.begin(), fl.lines.end(),
                     [](const source_line& a, const source_line& b) { return a.samples > b.samples; });
    std::stable_sort(fl.pcs.begin(), fl.pcs.end(),
                     [](const hot_pc& a, const hot_pc& b) { return a.samples > b.samples; });
    fl.lines_sampled = fl.lines.size();
    fl.pcs_sampled = fl.pcs.size();
    if (fl.lines.size() > options.top_lines) fl.lines.resize(options.top_lines);
    if (fl.pcs.size() > options.top_pcs) fl.pcs.resize(options.top_pcs);
    if (!fl.line_info) fl.note = std::string(no_line_info_note);
    if (fl.samples > 0 || fl.not_issued > 0) out.push_back(std::move(fl));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const function_lines& a, const function_lines& b) { return a.samples > b.samples; });
  return out;
}

namespace detail {
// "long_scoreboard 81.2 %, math 9.0 %, wait 4.1 %": the first `n` reasons of a line, as shares of its samples.
NAPKIN_DETAIL_FUNC std::string stall_summary(const std::vector<stall_samples>& stalls, std::uint64_t samples, std::size_t n = 3) {
  std::string out;
  for (std::size_t i = 0; i < stalls.size() && i < n; ++i) {
    if (i > 0) out += ", ";
    out += stalls[i].reason + " " +
           percent_of(samples > 0 ? static_cast<double>(stalls[i].samples) / static_cast<double>(samples) : 0.0);
  }
  return out;
}
NAPKIN_DETAIL_FUNC std::string share_of(std::uint64_t part, std::uint64_t whole) {
  return percent_of(whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0);
}
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_text(const source_lines_report& r) {
  const source_sampling_cost& c = r.cost;
  std::string out = "source lines (CUPTI PC sampling";
  if (c.period_log2 > 0) out += ", every 2^" + std::to_string(c.period_log2) + " cycles";
  out += "): " + std::to_string(r.functions.size()) + " function" + (r.functions.size() == 1 ? "" : "s") + ", " +
         std::to_string(c.total_samples) + " samples, " + std::to_string(c.dropped_samples) + " dropped\n";
  out += "cost: " + duration(c.total_s()) + " on the host (setup " + duration(c.setup_s) + ", sampled run " +
         duration(c.run_s) + ", drain " + duration(c.drain_s) + ", source correlation " + duration(c.correlate_s) +
         ")\n";
  for (const auto& n : r.notes) out += "note: " + printable(n) + "\n";
  for (const auto& f : r.functions) {
    out += "\n" + printable(f.function) + ": " + std::to_string(f.samples) + " samples";
    if (!f.stalls.empty()) out += "; " + detail::stall_summary(f.stalls, f.samples);
    out += "\n";
    if (!f.lines.empty()) {
      text_table t;
      t.column("line", text_table::align::left);
      t.column("samples");
      t.column("share");
      t.column("stall reasons", text_table::align::left);
      for (const auto& l : f.lines)
        t.row({printable(l.where.file) + ":" + std::to_string(l.where.line), std::to_string(l.samples),
               detail::share_of(l.samples, f.samples), detail::stall_summary(l.stalls, l.samples)});
      if (f.lines_sampled > f.lines.size())
        t.note("(" + std::to_string(f.lines_sampled - f.lines.size()) + " more lines with samples)");
      out += t.text("  ");
    } else {
      out += "  " + (f.note.empty() ? std::string(no_line_info_note) : printable(f.note)) + "\n";
      text_table t;
      t.column("pc", text_table::align::left);
      t.column("samples");
      t.column("share");
      t.column("stall reasons", text_table::align::left);
      for (const auto& p : f.pcs)
        t.row({detail::pc_text(p.pc_offset), std::to_string(p.samples), detail::share_of(p.samples, f.samples),
               detail::stall_summary(p.stalls, p.samples)});
      out += t.text("  ");
    }
  }
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_key_values(const source_lines_report& r) {
  const auto word = [](std::string w) {
    for (char& c : w)
      if (c == ' ' || c == '\n' || c == '\t') c = '_';
    return w.empty() ? std::string("-") : w;
  };
  std::ostringstream os;
  os.precision(10);
  const source_sampling_cost& c = r.cost;
  const auto totals = [&] {
    os << " total_samples=" << c.total_samples << " dropped_samples=" << c.dropped_samples
       << " period_log2=" << c.period_log2 << " setup_s=" << c.setup_s << " run_s=" << c.run_s
       << " drain_s=" << c.drain_s << " correlate_s=" << c.correlate_s << "\n";
  };
  if (r.functions.empty()) {
    os << "NAPKIN_SOURCE function=-";
    totals();
  }
  for (const auto& f : r.functions) {
    std::string top = "-", stall = "-";
    std::uint64_t top_samples = 0;
    if (!f.lines.empty()) {
      top = f.lines[0].where.file + ":" + std::to_string(f.lines[0].where.line);
      top_samples = f.lines[0].samples;
      if (!f.lines[0].stalls.empty()) stall = f.lines[0].stalls[0].reason;
    } else if (!f.pcs.empty()) {
      top = detail::pc_text(f.pcs[0].pc_offset);
      top_samples = f.pcs[0].samples;
      if (!f.pcs[0].stalls.empty()) stall = f.pcs[0].stalls[0].reason;
    }
    os << "NAPKIN_SOURCE function=" << word(f.function) << " samples=" << f.samples << " top=" << word(top)
       << " top_samples=" << top_samples << " top_stall=" << word(stall) << " line_info=" << (f.line_info ? 1 : 0);
    totals();
  }
  return os.str();
}

NAPKIN_END_NAMESPACE
