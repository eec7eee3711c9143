// SPDX-License-Identifier: Apache-2.0
// The sections beyond Speed-Of-Light as report sections (section_reports.hpp): the function bodies. Included by
// section_reports.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/section_reports.hpp"
#include "napkin/document/better.hpp"
#include "napkin/occupancy/limits_table.hpp"
#include "napkin/profiler/sections/deeper_verdict.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The report with the metrics CUPTI could not evaluate left out (sol_report::get's rule).
NAPKIN_DETAIL_FUNC sol_report finite_values_only(const sol_report& r) {
  sol_report out = r;
  for (auto it = out.values.begin(); it != out.values.end();)
    it = std::isfinite(it->second) ? std::next(it) : out.values.erase(it);
  return out;
}

NAPKIN_DETAIL_FUNC section_number section_num(std::string field, std::string label, std::optional<double> value,
                                               std::string unit, better direction = better::none) {
  return {std::move(field), std::move(label), value, std::move(unit), direction};
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::optional<report_section> warp_state_report(const sol_report& measured) {
  const std::optional<warp_state_section> w = warp_state(detail::finite_values_only(measured));
  if (!w) return std::nullopt;
  report_section s{"warp_state", "Warp state (stall reasons per issued instruction)", {}, true, {}};
  s.numbers.push_back(detail::section_num("warp_cycles_per_issued_instruction", "Warp cycles per issued instruction",
                                          w->warp_cycles_per_issued, "cycles", better::lower));
  for (const stall_entry& e : w->stalls)
    s.numbers.push_back(detail::section_num(std::string(to_string(e.reason)) + "_share_pct",
                                            std::string(describe(e.reason)), e.share_pct, "%"));
  if (const auto lead = w->leader()) {
    const std::string share = percent(lead->share_pct, 1);
    if (w->clear_leader())
      s.findings.push_back("top stall: " + std::string(describe(lead->reason)) + ", " + share +
                           " of the warp cycles per issued instruction: " + std::string(stall_meaning(lead->reason)) +
                           ". Usually fixed by: " + std::string(stall_fix(lead->reason)));
    else if (const auto next = w->runner_up())
      s.findings.push_back("no clear leader: " + std::string(describe(lead->reason)) + " " + share + ", " +
                           std::string(describe(next->reason)) + " " + percent(next->share_pct, 1));
  }
  return s;
}

NAPKIN_DETAIL_FUNC std::optional<report_section> pipes_report(const sol_report& measured) {
  const std::optional<pipes_section> p = pipes(detail::finite_values_only(measured));
  if (!p || p->pipes.empty()) return std::nullopt;
  report_section s{"pipes", "Pipe utilization (% of peak over active cycles)", {}, false, {}};
  for (const pipe_utilization& u : p->pipes) {
    const std::string name(u.name), label(u.label);
    if (u.instructions_pct)
      s.numbers.push_back(detail::section_num(name + "_instructions_pct", label + " by instructions", u.instructions_pct, "%"));
    if (u.cycles_pct)
      s.numbers.push_back(detail::section_num(name + "_cycles_pct", label + " by busy cycles", u.cycles_pct, "%"));
  }
  if (const auto b = p->busiest())
    s.findings.push_back("busiest pipe: " + std::string(b->label) + ", " + percent(*b->cycles_elapsed_pct, 1) +
                         " of its peak over elapsed cycles (ncu's ranking)");
  const auto bi = p->busiest_by_instructions();
  if (bi && (!p->busiest() || p->busiest()->name != bi->name))
    s.findings.push_back("busiest by executed instructions: " + std::string(bi->label) + ", " +
                         percent(*bi->instructions_pct, 1));
  return s;
}

NAPKIN_DETAIL_FUNC std::optional<report_section> memory_report(const sol_report& measured) {
  const std::optional<memory_chart_section> m = memory_chart(detail::finite_values_only(measured));
  if (!m) return std::nullopt;
  using detail::section_num;
  report_section s{"memory", "Memory chart (hit rates, requests, bank conflicts, DRAM)", {}, false, {}};
  s.numbers = {
      section_num("l1_hit_rate_pct", "L1/TEX hit rate", m->l1_hit_rate_pct, "%", better::higher),
      section_num("l2_hit_rate_pct", "L2 hit rate", m->l2_hit_rate_pct, "%", better::higher),
      section_num("l2_sm_sector_pct", "L2 sectors from the kernel's loads and stores", m->l2_sm_sector_pct(), "%",
                  better::none),
      section_num("global_load_sectors_per_request", "Global load sectors per request",
                  m->global_load_sectors_per_request(), "sectors/request", better::lower),
      section_num("global_store_sectors_per_request", "Global store sectors per request",
                  m->global_store_sectors_per_request(), "sectors/request", better::lower),
      section_num("shared_load_wavefronts_per_request", "Shared load wavefronts per request",
                  m->shared_loads.wavefronts_per_request(), "wavefronts/request", better::lower),
      section_num("shared_store_wavefronts_per_request", "Shared store wavefronts per request",
                  m->shared_stores.wavefronts_per_request(), "wavefronts/request", better::lower),
      section_num("shared_load_conflict_pct", "Shared load bank conflicts", m->shared_loads.conflict_pct(), "%",
                  better::lower),
      section_num("shared_store_conflict_pct", "Shared store bank conflicts", m->shared_stores.conflict_pct(), "%",
                  better::lower),
      section_num("dram_read_bytes", "DRAM bytes read", m->dram_read_bytes, "bytes", better::lower),
      section_num("dram_write_bytes", "DRAM bytes written", m->dram_write_bytes, "bytes", better::lower),
  };
  return s;
}

NAPKIN_DETAIL_FUNC std::optional<report_section> occupancy_report(const sol_report& measured) {
  if (!measured.launch) return std::nullopt;
  bool known = false;
  for (const compute_capability cc : known_compute_capabilities) known = known || cc == measured.launch->cc;
  if (!known) return std::nullopt;
  const std::optional<occupancy_section> o = occupancy(detail::finite_values_only(measured));
  if (!o) return std::nullopt;
  using detail::section_num;
  report_section s{"occupancy", "Occupancy (achieved against theoretical, per SM)", {}, false, {}};
  s.numbers = {
      section_num("theoretical_occupancy_pct", "Theoretical occupancy", o->theoretical_pct, "%", better::higher),
      section_num("achieved_occupancy_pct", "Achieved occupancy", o->achieved_pct, "%", better::higher),
      section_num("theoretical_warps_per_sm", "Theoretical warps per SM", o->theoretical_warps(), "warps"),
      section_num("achieved_warps_per_sm", "Achieved warps per SM", o->achieved_warps, "warps", better::higher),
      section_num("waves_per_sm", "Waves per SM", o->waves_per_sm, ""),
      section_num("wave_bound_pct", "Occupancy the waves allow", o->wave_bound_pct, "%"),
  };
  if (!o->explanation.empty()) s.findings.push_back(o->explanation);
  for (const std::string& note : o->notes) s.findings.push_back("note: " + note);
  return s;
}

NAPKIN_DETAIL_FUNC std::optional<report_section> deeper_verdict_report(const sol_report& measured) {
  const sol_report r = detail::finite_values_only(measured);
  if (!warp_state(r) && !memory_chart(r) && !pipes(r)) return std::nullopt;
  const deeper_verdict v = look_deeper(r);
  report_section s{"verdict", "Deeper verdict: " + v.headline, {}, false, finding_texts(v)};
  for (const finding& f : v.findings)
    if (f.estimate)
      s.numbers.push_back(detail::section_num(
          [&] {
            std::string field(to_string(f.rule));
            for (char& c : field) c = c == '-' ? '_' : c;
            return field + "_estimated_speedup";
          }(),
          "Estimated speed-up if " + std::string(describe(f.rule)) + " were fixed", f.estimate->speedup, "x"));
  for (const std::string& why : v.not_looked_at) s.findings.push_back("not looked at: " + why);
  if (s.findings.empty()) s.findings.push_back(v.headline);
  return s;
}

NAPKIN_END_NAMESPACE
