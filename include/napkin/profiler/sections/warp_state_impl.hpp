// SPDX-License-Identifier: Apache-2.0
// The Warp State Statistics section (warp_state.hpp): the function bodies. Included by warp_state.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::optional<stall_entry> warp_state_section::leader() const {
  for (const auto& s : stalls)
    if (s.reason != stall_reason::selected && s.cycles > 0) return s;
  return std::nullopt;
}

NAPKIN_DETAIL_FUNC std::optional<stall_entry> warp_state_section::runner_up() const {
  bool seen_leader = false;
  for (const auto& s : stalls) {
    if (s.reason == stall_reason::selected) continue;
    if (seen_leader) return s;
    seen_leader = s.cycles > 0;
  }
  return std::nullopt;
}

NAPKIN_DETAIL_FUNC bool warp_state_section::clear_leader() const {
  const auto top = leader();
  if (!top) return false;
  const auto next = runner_up();
  const double second = next ? next->share_pct : 0.0;
  return top->share_pct >= clear_leader_ratio * second && top->share_pct - second >= clear_leader_points;
}

NAPKIN_DETAIL_FUNC std::optional<warp_state_section> warp_state(const sol_report& r) {
  const auto total = detail::section_value(r, metric::warp_cycles_per_issued);
  if (!total) return std::nullopt;
  warp_state_section s;
  s.warp_cycles_per_issued = *total;
  for (const stall_reason reason : all_stall_reasons) {
    const std::string m = stall_metric(reason);
    const auto v = detail::section_value(r, m);
    if (!v) {
      s.missing.push_back(m);
      continue;
    }
    s.stalls.push_back({reason, m, *v, *total > 0 ? *v / *total * 100.0 : 0.0});
  }
  if (s.stalls.empty()) return std::nullopt;
  // Most cycles first; equal cycles in ncu's order, so the result does not depend on the sort.
  std::stable_sort(s.stalls.begin(), s.stalls.end(),
                   [](const stall_entry& a, const stall_entry& b) { return a.cycles > b.cycles; });
  return s;
}

NAPKIN_DETAIL_FUNC std::string to_text(const warp_state_section& s, std::size_t top) {
  std::string out = "Warp state: " + fixed(s.warp_cycles_per_issued, 2) + " warp cycles per issued instruction\n";
  text_table t;
  t.column("stall reason", text_table::align::left);
  t.column("cycles");
  t.column("share");
  t.column("what it means", text_table::align::left);
  std::size_t shown = 0;
  double rest_cycles = 0, rest_share = 0;
  for (const auto& e : s.stalls) {
    if (shown < top && e.cycles > 0) {
      t.row({std::string(describe(e.reason)), fixed(e.cycles, 2), percent(e.share_pct),
             std::string(stall_meaning(e.reason))});
      ++shown;
    } else {
      rest_cycles += e.cycles;
      rest_share += e.share_pct;
    }
  }
  if (rest_cycles > 0) t.row({"(others)", fixed(rest_cycles, 2), percent(rest_share), ""});
  out += t.text("  ");
  if (const auto lead = s.leader()) {
    out += std::string("  Leader: ") + std::string(describe(lead->reason)) + " (" + percent(lead->share_pct) + ")" +
           (s.clear_leader() ? ", a clear leader" : ", not a clear leader (within 1.5x or 10 points of the next)") +
           ".\n  Usually fixed by: " + std::string(stall_fix(lead->reason)) + ".\n";
  }
  if (!s.missing.empty()) out += "  Not collected on this chip: " + std::to_string(s.missing.size()) + " reason(s).\n";
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_key_values(const warp_state_section& s) {
  std::string out = "NAPKIN_WARP_STATE" + detail::section_field("warp_cycles_per_issued", s.warp_cycles_per_issued);
  const auto lead = s.leader();
  out += " leader=" + (lead ? std::string(to_string(lead->reason)) : std::string("none"));
  out += std::string(" clear_leader=") + (s.clear_leader() ? "1" : "0");
  for (const auto& e : s.stalls) {
    const std::string name(to_string(e.reason));
    out += detail::section_field((name + "_cycles").c_str(), e.cycles);
    out += detail::section_field((name + "_pct").c_str(), e.share_pct);
  }
  return out;
}

NAPKIN_END_NAMESPACE
