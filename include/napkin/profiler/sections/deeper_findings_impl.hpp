// SPDX-License-Identifier: Apache-2.0
// The findings of the deeper verdict (deeper_findings.hpp): the function bodies. Included by deeper_findings.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/profiler/sections/deeper_findings.hpp"
#include "napkin/math/quantify.hpp"
#include "napkin/profiler/sections/measured_quantify.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

NAPKIN_DETAIL_FUNC std::string speedup_text(const measured_estimate& e) {
  return std::string(e.speedup < deeper_little_speedup ? "worth little: " : "") + "expect about " +
         fixed(e.speedup, e.speedup < 10 ? 2 : 1) + "x (" + percent(e.time_saved_pct()) + " of the time saved)";
}

NAPKIN_DETAIL_FUNC void add_number(finding& f, std::string name, std::optional<double> v) {
  if (v) f.numbers.push_back({std::move(name), *v});
}

// Warp-cycle share of the reasons that wait on the memory system (global/local/texture data and their queues).
NAPKIN_DETAIL_FUNC double memory_wait_share(const warp_state_section& w) {
  double share = 0;
  for (const auto& s : w.stalls)
    if (s.reason == stall_reason::long_scoreboard || s.reason == stall_reason::lg_throttle ||
        s.reason == stall_reason::tex_throttle || s.reason == stall_reason::drain || s.reason == stall_reason::membar)
      share += s.share_pct;
  return std::min(share / 100.0, 1.0);
}

NAPKIN_DETAIL_FUNC std::optional<finding> stall_finding(const warp_state_section& w,
                                                        std::optional<double> occupancy_pct,
                                                        const std::optional<occupancy_section>& occupancy,
                                                        std::size_t top) {
  const auto lead = w.leader();
  if (!lead) return std::nullopt;
  finding f;
  f.rule = deeper_rule::stall_reasons;
  f.summary = std::string(describe(lead->reason)) + " " + percent(lead->share_pct) + " of the stall cycles";
  f.text = "Warps stall most on " + std::string(describe(lead->reason)) + ": " + fixed(lead->cycles, 1) + " of " +
           fixed(w.warp_cycles_per_issued, 1) + " warp cycles per issued instruction (" + percent(lead->share_pct) +
           (w.clear_leader() ? ", a clear leader" : ", not a clear leader") + "); " +
           std::string(stall_meaning(lead->reason)) + ".";
  add_number(f, "warp_cycles_per_issued", w.warp_cycles_per_issued);
  std::size_t named = 0;
  std::string next;
  for (const auto& s : w.stalls) {
    if (s.reason == stall_reason::selected || named >= std::max<std::size_t>(top, 1)) continue;
    if (named > 0 && s.share_pct < deeper_stall_share_pct) break;
    if (named > 0) next += (next.empty() ? "" : ", ") + std::string(describe(s.reason)) + " " + percent(s.share_pct);
    add_number(f, std::string(to_string(s.reason)) + "_pct", s.share_pct);
    ++named;
  }
  if (!next.empty()) f.text += " Next: " + next + ".";
  if (occupancy) {  // the Occupancy section (the report holds the launch): theoretical beside achieved, the gap
    f.text += occupancy->gap == occupancy_gap::none
                  ? " Achieved occupancy " + percent(occupancy->achieved_pct) + " of a theoretical " +
                        percent(occupancy->theoretical_pct) + "."
                  : " Occupancy: " + occupancy->explanation;
    if (!f.text.empty() && f.text.back() != '.') f.text += ".";
    add_number(f, "achieved_occupancy_pct", occupancy->achieved_pct);
    add_number(f, "theoretical_occupancy_pct", occupancy->theoretical_pct);
    add_number(f, "waves_per_sm", occupancy->waves_per_sm);
  } else if (occupancy_pct) {
    f.text += " Achieved occupancy " + percent(*occupancy_pct) + ".";
    add_number(f, "achieved_occupancy_pct", occupancy_pct);
  }
  f.text += " Usually fixed by: " + std::string(stall_fix(lead->reason)) +
            ". No estimate: a stall is the symptom; the findings on its causes carry the estimates.";
  return f;
}

NAPKIN_DETAIL_FUNC std::optional<finding> pipe_finding(const pipes_section& p) {
  const auto cycles = p.busiest(), inst = p.busiest_by_instructions();
  if (!cycles && !inst) return std::nullopt;
  // The limiter: ncu's cycle-based busiest, unless a pipe without a cycle count (XU, LSU, ...) is busier by its
  // executed instructions (the SFU kernel: XU 97.4 % by instructions, FMA 32.4 % by cycles).
  const auto has_cycles = [](std::string_view name) {
    for (const auto& info : all_sm_pipes)
      if (info.name == name) return info.by_cycles;
    return false;
  };
  const bool by_inst =
      inst && (!cycles || (!has_cycles(inst->name) && *inst->instructions_pct > *cycles->cycles_elapsed_pct));
  const pipe_utilization& top = by_inst ? *inst : *cycles;
  const double pct = by_inst ? *top.instructions_pct : *top.cycles_elapsed_pct;
  finding f;
  f.rule = deeper_rule::busiest_pipe;
  f.summary = std::string(top.label) + " pipe " + percent(pct);
  f.text = "The busiest pipe is " + std::string(top.label) + ": " + percent(pct) +
           (by_inst ? " of peak by executed instructions" : " of peak busy cycles over elapsed cycles");
  if (by_inst && cycles)
    f.text += " (by busy cycles, ncu's ranking: " + std::string(cycles->label) + " " +
              percent(*cycles->cycles_elapsed_pct) + ")";
  f.text += pct < pipe_underused_pct ? "; every pipe is under-utilized." :
            pct >= 60.0 ? "; it is the limit: fewer instructions on it, or moving work to another pipe (tensor "
                          "cores, FP32 instead of FP64, fewer special-function calls) is the way faster." :
                          ".";
  f.text += " No estimate: the gain depends on what replaces the instructions.";
  add_number(f, std::string(top.name) + (by_inst ? "_instructions_pct" : "_cycles_elapsed_pct"), pct);
  if (by_inst && cycles) add_number(f, std::string(cycles->name) + "_cycles_elapsed_pct", cycles->cycles_elapsed_pct);
  return f;
}

NAPKIN_DETAIL_FUNC std::optional<finding> dram_finding(const sol_report& r, const memory_chart_section& m,
                                                       const deeper_options& o) {
  if (!m.dram_read_bytes || !m.dram_write_bytes) return std::nullopt;
  finding f;
  f.rule = deeper_rule::dram_traffic;
  const auto read_pct = m.dram_read_pct();
  const double bytes = *m.dram_read_bytes + *m.dram_write_bytes;
  f.summary = "DRAM " + (read_pct ? percent(*read_pct) + " reads" : std::string("traffic"));
  f.text = "DRAM moved " + si(*m.dram_read_bytes, "B") + " read and " + si(*m.dram_write_bytes, "B") + " written" +
           (read_pct ? " (" + percent(*read_pct) + " reads)" : std::string()) +
           (r.dram_pct() ? " at " + percent(*r.dram_pct()) + " of its peak" : std::string()) +
           (m.l2_hit_rate_pct ? "; L2 hit rate " + percent(*m.l2_hit_rate_pct) : std::string()) + ".";
  add_number(f, "dram_read_bytes", m.dram_read_bytes);
  add_number(f, "dram_write_bytes", m.dram_write_bytes);
  add_number(f, "dram_read_pct", read_pct);
  add_number(f, "dram_pct", r.dram_pct());
  add_number(f, "l2_hit_rate_pct", m.l2_hit_rate_pct);
  if (!o.minimum_bytes) {
    f.text += " Fewer bytes is the only way faster: reuse data on chip (tiling, fusion), narrower types; "
              "deeper_options::minimum_bytes (the algorithm's minimum) gives the traffic overhead and its estimate.";
    return f;
  }
  const double overhead = traffic_overhead(bytes, *o.minimum_bytes);
  add_number(f, "minimum_bytes", *o.minimum_bytes);
  add_number(f, "traffic_overhead", overhead);
  f.summary += ", " + fixed(overhead, 2) + "x the minimum bytes";
  f.text += " That is " + fixed(overhead, 2) + "x the algorithm's minimum of " + si(*o.minimum_bytes, "B");
  if (overhead < deeper_excess_sector_ratio || !r.dram_pct()) {
    f.text += overhead < deeper_excess_sector_ratio
                  ? ": the traffic is what the algorithm needs; only fewer or narrower bytes by design are faster."
                  : "; no estimate: the report has no DRAM %.";
    return f;
  }
  f.estimate = traffic_estimate(bytes, *o.minimum_bytes, *r.dram_pct() / 100.0);
  f.text += ": re-read or spilled data (missing tiling or fusion). Moving only the minimum, " +
            speedup_text(*f.estimate) + ", assuming the time DRAM is busy (" + percent(*r.dram_pct()) +
            " of its peak) shrinks with the bytes and the rest stays.";
  add_number(f, "estimated_speedup", f.estimate->speedup);
  return f;
}

NAPKIN_DETAIL_FUNC finding cache_finding(const sol_report& r, const memory_chart_section& m) {
  finding f;
  f.rule = deeper_rule::cache_traffic;
  f.summary = "L1/TEX " + (r.l1tex_pct() ? percent(*r.l1tex_pct()) : std::string("-")) + ", L2 " +
              (r.l2_pct() ? percent(*r.l2_pct()) : std::string("-"));
  f.text = "No bank conflicts or uncoalesced accesses found; the on-chip memory units are busy with the traffic "
           "itself: L1/TEX " + (r.l1tex_pct() ? percent(*r.l1tex_pct()) : std::string("not measured")) +
           " and L2 " + (r.l2_pct() ? percent(*r.l2_pct()) : std::string("not measured")) + " of peak" +
           (m.l1_hit_rate_pct ? ", L1 hit rate " + percent(*m.l1_hit_rate_pct) : std::string()) +
           (m.l2_hit_rate_pct ? ", L2 hit rate " + percent(*m.l2_hit_rate_pct) : std::string()) +
           ". Fewer or wider accesses, or keeping reused data in registers or shared memory, is the way faster.";
  add_number(f, "l1tex_pct", r.l1tex_pct());
  add_number(f, "l2_pct", r.l2_pct());
  add_number(f, "l1_hit_rate_pct", m.l1_hit_rate_pct);
  add_number(f, "l2_hit_rate_pct", m.l2_hit_rate_pct);
  return f;
}

NAPKIN_DETAIL_FUNC std::optional<finding> bank_finding(const sol_report& r, const memory_chart_section& m,
                                                       std::vector<std::string>& not_looked_at) {
  const double wavefronts = m.shared_loads.wavefronts.value_or(0) + m.shared_stores.wavefronts.value_or(0);
  const double conflicts = m.shared_loads.bank_conflicts.value_or(0) + m.shared_stores.bank_conflicts.value_or(0);
  const auto over = [](const shared_access& a) { return a.conflict_pct() && *a.conflict_pct() >= deeper_conflict_pct; };
  if (wavefronts <= 0 || !(over(m.shared_loads) || over(m.shared_stores))) return std::nullopt;
  // The conflict-free wavefronts; at least one per request (conflicts and wavefronts come from different passes).
  const double requests = m.shared_loads.instructions.value_or(0) + m.shared_stores.instructions.value_or(0);
  const double ideal = std::min(std::max({wavefronts - conflicts, requests, 1.0}), wavefronts);
  const double ways = bank_conflict_ways(wavefronts, ideal);
  finding f;
  f.rule = deeper_rule::bank_conflicts;
  f.summary = fixed(ways, 1) + "-way";
  f.text = "Shared-memory bank conflicts: " + percent(conflicts / wavefronts * 100.0) + " of the " +
           si(wavefronts, "") + " shared wavefronts are conflicts, " + fixed(ways, 1) +
           " wavefronts where one would do";
  const auto ld = m.shared_loads.wavefronts_per_request(), st = m.shared_stores.wavefronts_per_request();
  const auto side = [&f](const char* what, const shared_access& a) {
    if (const auto per = a.wavefronts_per_request())
      f.text += std::string("; ") + what + " " + fixed(*per, 1) + " wavefronts per request" +
                (a.conflict_pct() ? " (" + percent(*a.conflict_pct()) + " conflicts)" : std::string());
  };
  side("loads", m.shared_loads);
  side("stores", m.shared_stores);
  f.text += " (1 without conflicts). Pad or swizzle the shared array so a warp's lanes hit different banks.";
  add_number(f, "bank_conflict_ways", ways);
  add_number(f, "conflict_pct", conflicts / wavefronts * 100.0);
  add_number(f, "shared_load_conflict_pct", m.shared_loads.conflict_pct());
  add_number(f, "shared_store_conflict_pct", m.shared_stores.conflict_pct());
  add_number(f, "shared_load_wavefronts_per_request", ld);
  add_number(f, "shared_store_wavefronts_per_request", st);
  if (const auto l1 = r.l1tex_pct()) {
    f.estimate = bank_conflict_estimate(wavefronts, ideal, *l1 / 100.0);
    f.text += " Fixed, " + speedup_text(*f.estimate) + ", assuming the time the L1/shared-memory pipe is busy (L1/TEX " +
              percent(*l1) + " of peak) shrinks " + fixed(ways, 1) + " times and the rest stays.";
    add_number(f, "estimated_speedup", f.estimate->speedup);
  } else {
    not_looked_at.push_back("the bank-conflict estimate: the report has no L1/TEX % (a SOL set)");
  }
  return f;
}

NAPKIN_DETAIL_FUNC std::optional<finding> coalescing_finding(const sol_report& r, const memory_chart_section& m,
                                                             const deeper_options& o,
                                                             std::vector<std::string>& not_looked_at) {
  const auto ld_bytes = section_value(r, metric::global_load_bytes_requested);
  const auto st_bytes = section_value(r, metric::global_store_bytes_requested);
  const bool measured = ld_bytes && st_bytes;
  const double assumed = ideal_sectors_per_request(o.assumed_access_bytes);  // validates the option
  double sectors = 0, ideal = 0;
  const auto direction = [&](std::optional<double> s, std::optional<double> req, std::optional<double> bytes) {
    if (!s || !req || *req <= 0) return;
    const double want = measured ? std::max(*bytes / 32.0, *req) : *req * assumed;
    sectors += *s;
    ideal += std::min(want, *s);  // a direction fetching no more than it needs has no excess
  };
  direction(m.global_load_sectors, m.global_load_requests, ld_bytes);
  direction(m.global_store_sectors, m.global_store_requests, st_bytes);
  if (ideal <= 0 || sectors / ideal < deeper_excess_sector_ratio) return std::nullopt;
  finding f;
  f.rule = deeper_rule::uncoalesced_global;
  f.summary = fixed(sectors / ideal, 1) + "x the sectors needed";
  f.text = "Uncoalesced global accesses: " + si(sectors, "") + " sectors fetched where the access width needs " +
           si(ideal, "");
  const auto ld = m.global_load_sectors_per_request(), st = m.global_store_sectors_per_request();
  if (ld) f.text += "; loads " + fixed(*ld, 1) + " sectors per request";
  if (st) f.text += ", stores " + fixed(*st, 1);
  f.text += measured ? " (the ideal from the bytes the threads requested)."
                     : " (the ideal assumes " + general(o.assumed_access_bytes) +
                           "-byte accesses, " + general(assumed) +
                           " sectors per request: the report lacks the bytes requested).";
  f.text += " Make a warp's lanes touch consecutive addresses (transpose through shared memory, structure of arrays).";
  add_number(f, "excess_sector_ratio", sectors / ideal);
  add_number(f, "global_load_sectors_per_request", ld);
  add_number(f, "global_store_sectors_per_request", st);
  if (!measured) add_number(f, "assumed_ideal_sectors_per_request", assumed);
  if (const auto mem = r.memory_pct()) {
    f.estimate = coalescing_estimate(sectors, ideal, *mem / 100.0);
    f.text += " Fixed, " + speedup_text(*f.estimate) + ", assuming the time the memory system is busy (Memory " +
              percent(*mem) + " of peak) shrinks with the sectors and the rest stays.";
    add_number(f, "estimated_speedup", f.estimate->speedup);
  } else {
    not_looked_at.push_back("the coalescing estimate: the report has no Memory % (a SOL set)");
  }
  return f;
}

NAPKIN_DETAIL_FUNC std::optional<finding> divergence_finding(const sol_report& r,
                                                             const std::optional<warp_state_section>& w,
                                                             std::vector<std::string>& not_looked_at) {
  const auto active = section_value(r, metric::active_threads_per_instruction);
  const auto pred_on = section_value(r, metric::predicated_on_threads_per_instruction);
  const auto threads = pred_on ? pred_on : active;  // ncu's ThreadDivergence rule counts the predicated-on lanes
  if (!threads) {
    not_looked_at.push_back("thread divergence: the report lacks " +
                            std::string(metric::predicated_on_threads_per_instruction));
    return std::nullopt;
  }
  if (*threads <= 0 || divergence_waste(std::min(*threads, warp_size)) < deeper_divergence_waste) return std::nullopt;
  finding f;
  f.rule = deeper_rule::thread_divergence;
  f.summary = fixed(*threads, 1) + " of 32 lanes doing work";
  f.text = "Thread divergence: " + fixed(*threads, 1) + " of 32 lanes do work per executed instruction" +
           (active && pred_on ? " (" + fixed(*active, 1) + " active, the rest predicated off)" : std::string()) +
           ". Make branches uniform per warp (sort or bin the work), or give idle lanes work.";
  add_number(f, "active_threads_per_warp", active);
  add_number(f, "predicated_on_threads_per_warp", pred_on);
  if (w) {
    const double fraction = 1.0 - memory_wait_share(*w);
    f.estimate = divergence_estimate(std::min(*threads, warp_size), fraction);
    f.text += " Fixed, " + speedup_text(*f.estimate) + ", assuming the warp cycles not spent waiting on memory (" +
              percent_of(fraction) + ") scale with the instructions issued and the rest stays.";
    add_number(f, "estimated_speedup", f.estimate->speedup);
  } else {
    not_looked_at.push_back("the divergence estimate: the report has no warp state");
  }
  return f;
}

}  // namespace detail
NAPKIN_END_NAMESPACE
