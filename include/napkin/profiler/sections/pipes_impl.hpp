// SPDX-License-Identifier: Apache-2.0
// The pipe utilization of ncu's Compute Workload Analysis (pipes.hpp): the function bodies. Included by
// pipes.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::optional<pipe_utilization> pipes_section::pick(
    std::optional<double> pipe_utilization::*field) const {
  std::optional<pipe_utilization> best;
  for (const auto& p : pipes) {
    // An idle pipe is nobody's busiest; within the tie tolerance of 0 is idle (ncu's counters read 0 on the
    // zoo's pointer chase where napkin's read 0.004 %).
    if (!(p.*field) || *(p.*field) <= pipe_tie_points) continue;
    if (!best || *(p.*field) > *((*best).*field) + pipe_tie_points) {
      best = p;
    } else if (*(p.*field) >= *((*best).*field) - pipe_tie_points && is_part_of(p.name, best->name)) {
      best = p;  // a tie: the part over the aggregate
    }
  }
  return best;
}

NAPKIN_DETAIL_FUNC bool pipes_section::is_part_of(std::string_view part, std::string_view whole) {
  for (int depth = 0; depth < 3; ++depth) {
    std::string_view parent;
    for (const auto& info : all_sm_pipes)
      if (info.name == part) parent = info.parent;
    if (parent.empty()) return false;
    if (parent == whole) return true;
    part = parent;
  }
  return false;
}

NAPKIN_DETAIL_FUNC std::optional<pipes_section> pipes(const sol_report& r) {
  pipes_section s;
  for (const auto& info : all_sm_pipes) {
    pipe_utilization p{info.name, info.label, {}, {}, {}};
    const auto read = [&](const std::string& metric, std::optional<double>& into) {
      into = detail::section_value(r, metric);
      if (!into) s.missing.push_back(metric);
    };
    if (info.by_instructions) read(pipe_instructions_metric(info.name), p.instructions_pct);
    if (info.by_cycles) {
      read(pipe_cycles_metric(info.name), p.cycles_pct);
      read(pipe_cycles_elapsed_metric(info.name), p.cycles_elapsed_pct);
    }
    if (p.instructions_pct || p.cycles_pct || p.cycles_elapsed_pct) s.pipes.push_back(p);
  }
  if (s.pipes.empty()) return std::nullopt;
  return s;
}

NAPKIN_DETAIL_FUNC std::string to_text(const pipes_section& s) {
  const auto cell = [](const std::optional<double>& v) { return v ? percent(*v) : std::string("-"); };
  std::string out = "Pipe utilization (% of peak over active cycles)\n";
  text_table t;
  t.column("pipe", text_table::align::left);
  t.column("instructions");
  t.column("busy cycles");
  for (const auto& p : s.pipes) {
    const double most = std::max({p.instructions_pct.value_or(0), p.cycles_pct.value_or(0)});
    if (most < 0.05) continue;  // idle pipes would only fill the table
    t.row({std::string(p.label), cell(p.instructions_pct), cell(p.cycles_pct)});
  }
  out += t.text("  ");
  const auto top = s.busiest();
  if (top)
    out += "  Busiest pipe: " + std::string(top->label) + " (" + percent(*top->cycles_elapsed_pct) +
           " of elapsed cycles)" +
           (*top->cycles_elapsed_pct < pipe_underused_pct ? "; every pipe is under-utilized (below 20 %).\n" : ".\n");
  const auto by_inst = s.busiest_by_instructions();
  if (by_inst && (!top || by_inst->name != top->name))
    out += "  By executed instructions: " + std::string(by_inst->label) + " (" + percent(*by_inst->instructions_pct) +
           ").\n";
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_key_values(const pipes_section& s) {
  const auto top = s.busiest(), by_inst = s.busiest_by_instructions();
  std::string out = "NAPKIN_PIPES busiest=" + (top ? std::string(top->name) : std::string("none"));
  out += detail::section_field("busiest_pct", top ? top->cycles_elapsed_pct : std::nullopt);
  out += " busiest_by_instructions=" + (by_inst ? std::string(by_inst->name) : std::string("none"));
  for (const auto& p : s.pipes) {
    const std::string name(p.name);
    if (p.instructions_pct) out += detail::section_field((name + "_instructions_pct").c_str(), p.instructions_pct);
    if (p.cycles_pct) out += detail::section_field((name + "_cycles_pct").c_str(), p.cycles_pct);
    if (p.cycles_elapsed_pct)
      out += detail::section_field((name + "_cycles_elapsed_pct").c_str(), p.cycles_elapsed_pct);
  }
  return out;
}

NAPKIN_END_NAMESPACE
