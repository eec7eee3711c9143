// SPDX-License-Identifier: Apache-2.0
// The Occupancy section, achieved against theoretical occupancy (occupancy.hpp): the function bodies. Included
// by occupancy.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/error.hpp"
#include "napkin/occupancy/calculator.hpp"
#include "napkin/occupancy/limits_table.hpp"
#include "napkin/occupancy/next_step.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

[[noreturn]] NAPKIN_DETAIL_FUNC void occupancy_section_input(const std::string& kernel, const std::string& what) {
  raise_input_error<std::invalid_argument>("napkin: occupancy section of \"" + kernel + "\": " + what);
}

// The carveout percentage whose carveout is `config_bytes` (the smallest such), or none when no percentage
// gives it (a configuration napkin's table does not list).
NAPKIN_DETAIL_FUNC std::optional<int> carveout_pct_for(const sm_limits& l, kernel_resources k, int config_bytes) {
  for (int pct = 0; pct <= 100; ++pct) {
    k.carveout_percent = pct;
    if (napkin::preferred_carveout(l, k) == config_bytes) return pct;
  }
  return std::nullopt;
}

NAPKIN_DETAIL_FUNC std::string warps_words(double warps) { return fixed(warps, 1) + " warps"; }

}  // namespace detail

NAPKIN_DETAIL_FUNC occupancy_section make_occupancy_section(const std::string& kernel, const kernel_launch& launch,
                                                            const sm_limits& limits, double achieved_pct,
                                                            double achieved_warps) {
  const auto refuse = [&](const std::string& what) { detail::occupancy_section_input(kernel, what); };
  const std::uint64_t threads = launch.threads_per_block(), blocks = launch.blocks();
  if (threads == 0 || threads > static_cast<std::uint64_t>(INT_MAX))
    refuse("the block has " + std::to_string(threads) + " threads (block " + std::to_string(launch.block.x) + "x" +
           std::to_string(launch.block.y) + "x" + std::to_string(launch.block.z) + ")");
  if (blocks == 0) refuse("the grid has no blocks");
  const int sms = limits.sm_count > 0 ? limits.sm_count : launch.sm_count;
  if (sms <= 0) refuse("the device's SM count is unknown (kernel_launch::sm_count is " +
                       std::to_string(launch.sm_count) + ")");
  if (!std::isfinite(achieved_pct) || achieved_pct < 0 || achieved_pct > 100.5)
    refuse("achieved occupancy must be a finite percentage in 0..100, got " + significant(achieved_pct));

  occupancy_section s;
  s.kernel = kernel;
  s.launch = launch;
  s.sm_count = sms;
  kernel_resources k{launch.registers_per_thread, launch.static_smem_bytes};
  k.cache = launch.cache_requested;
  if (launch.carveout_requested_pct) k.carveout_percent = *launch.carveout_requested_pct;
  // The driver's configuration for this launch decides the shared memory per SM (ncu's Block Limit Shared
  // Mem divides it); as a carveout percentage it goes through napkin's calculator unchanged.
  if (launch.smem_config_bytes && limits.carveout_count > 0) {
    if (const auto pct = detail::carveout_pct_for(limits, k, *launch.smem_config_bytes))
      k.carveout_percent = *pct;
    else
      s.notes.push_back("the driver configured " + std::to_string(*launch.smem_config_bytes) +
                        " B of shared memory per SM, which is no carveout napkin knows for CC " +
                        std::to_string(limits.cc.major) + "." + std::to_string(limits.cc.minor) +
                        "; computed with the kernel's requested carveout instead");
  }
  if (!launch.smem_config_bytes && limits.carveout_count > 0)
    s.notes.push_back("the driver's shared-memory configuration for this launch is unknown (CUPTI's record has "
                      "none, as under kernel replay), so blocks by shared memory are for the kernel's requested "
                      "carveout; the driver's may be smaller (ncu's Block Limit Shared Mem then reads lower), the "
                      "occupancy the same where the driver keeps it");
  if (limits.barriers_per_sm > 0)
    s.notes.push_back("block barriers: 1 per block assumed (CUPTI's kernel record does not carry the count; "
                      "cudaOccupancy* assume the same), so the barrier limit is a bound");
  s.next = next_step(limits, static_cast<int>(threads), k, launch.dynamic_smem_bytes);
  s.theoretical = s.next.now;
  if (s.theoretical.blocks_per_sm <= 0) refuse("no block of this launch fits on an SM of CC " +
                                               std::to_string(limits.cc.major) + "." + std::to_string(limits.cc.minor));
  const double max_warps = s.theoretical.max_warps_per_sm;
  s.theoretical_pct = s.theoretical.occupancy() * 100.0;
  s.achieved_pct = achieved_pct;
  if (std::isnan(achieved_warps)) {
    achieved_warps = achieved_pct / 100.0 * max_warps;
  } else if (!std::isfinite(achieved_warps) || achieved_warps < 0 || achieved_warps > max_warps * 1.005) {
    refuse("achieved warps per SM must be finite and in 0.." + fixed(max_warps, 0) + ", got " +
           significant(achieved_warps));
  }
  s.achieved_warps = achieved_warps;

  const double slots = static_cast<double>(s.theoretical.blocks_per_sm) * sms;
  s.waves_per_sm = static_cast<double>(blocks) / slots;
  const double warps_per_block = s.theoretical.warps_per_block;
  if (s.waves_per_sm <= 1.0) {
    const double per_active_sm = std::max(1.0, static_cast<double>(blocks) / sms);
    s.wave_bound_warps = std::min<double>(s.theoretical.blocks_per_sm, per_active_sm) * warps_per_block;
  } else {
    s.wave_bound_warps = s.theoretical_warps() * s.waves_per_sm / std::ceil(s.waves_per_sm);
  }
  s.wave_bound_pct = s.wave_bound_warps / max_warps * 100.0;

  // The explanation, largest cost first.
  const double gap = s.theoretical_pct - s.achieved_pct;
  const double waves_cost = s.points_lost_to_waves(), inside_cost = s.points_lost_inside_waves();
  const std::string pts = " points";
  std::string why;
  if (gap < occupancy_gap_floor_pct) {
    s.gap = occupancy_gap::none;
    why = "achieved " + percent(s.achieved_pct) + " is within " + fixed(occupancy_gap_floor_pct, 0) +
          pts + " of theoretical " + percent(s.theoretical_pct) + ".";
  } else {
    const std::string waves = fixed(s.waves_per_sm, 2) + " waves";
    std::string wave_words;
    if (s.waves_per_sm < 1.0) {
      const double per_sm = static_cast<double>(blocks) / sms;
      wave_words = "too few blocks to fill the GPU: " + std::to_string(blocks) +
                   (blocks == 1 ? " block" : " blocks") + " for " + std::to_string(sms) + " SMs x " +
                   std::to_string(s.theoretical.blocks_per_sm) + " slots (" +
                   waves + "), " + (per_sm < 1.0 ? std::string("1 block") : fixed(per_sm, 1) + " blocks") +
                   " per active SM, so at most " + percent(s.wave_bound_pct) + " (" +
                   detail::warps_words(s.wave_bound_warps) + ") resident; a larger grid (or smaller blocks) fills it";
    } else {
      const double last = s.waves_per_sm - std::floor(s.waves_per_sm);
      wave_words = "partial last wave (tail effect): " + waves + ", the last runs " + percent(last * 100.0, 0) +
                   " of the SMs' block slots, so over the kernel at most " + percent(s.wave_bound_pct) +
                   "; a grid of whole waves (" + std::to_string(s.theoretical.blocks_per_sm * sms) +
                   " blocks each) or more, smaller blocks shrink it";
    }
    const std::string inside_words =
        "warps finish at different times: within the waves " + fixed(inside_cost, 1) + pts + " (wave bound " +
        percent(s.wave_bound_pct) + ", achieved " + percent(s.achieved_pct) + ") are lost to warps and blocks "
        "that end early while others still run, uneven work per warp, block or SM, or block launch overhead "
        "(long-running warps and even work per block narrow it)";
    if (waves_cost >= inside_cost) {
      s.gap = s.waves_per_sm < 1.0 ? occupancy_gap::too_few_blocks : occupancy_gap::partial_last_wave;
      why = "achieved " + percent(s.achieved_pct) + " against theoretical " + percent(s.theoretical_pct) + ": " +
            wave_words + " (" + fixed(waves_cost, 1) + pts + ").";
      if (inside_cost >= occupancy_gap_floor_pct) why += " Also " + inside_words + ".";
    } else {
      s.gap = occupancy_gap::uneven_warps;
      why = "achieved " + percent(s.achieved_pct) + " against theoretical " + percent(s.theoretical_pct) + " with " +
            fixed(s.waves_per_sm, 2) + " waves: " + inside_words + ".";
      if (waves_cost >= occupancy_gap_floor_pct)
        why += " Also " + wave_words + " (" + fixed(waves_cost, 1) + pts + ").";
    }
  }
  s.explanation = why;
  return s;
}

NAPKIN_DETAIL_FUNC std::optional<occupancy_section> occupancy(const sol_report& r) {
  const auto achieved = r.get(occupancy_metrics::achieved_pct);
  if (!r.launch || r.values.count(occupancy_metrics::achieved_pct) == 0) return std::nullopt;
  if (!achieved)
    detail::occupancy_section_input(r.name, "achieved occupancy (" + std::string(occupancy_metrics::achieved_pct) +
                                                ") is not a finite number");
  if (r.launch->cc == compute_capability{})
    detail::occupancy_section_input(r.name, "the launch has no compute capability (the device was not known)");
  sm_limits limits = limits_of(r.launch->cc);
  limits.sm_count = r.launch->sm_count;
  const auto warps = r.values.find(occupancy_metrics::achieved_warps);
  return make_occupancy_section(r.name, *r.launch, limits, *achieved, warps == r.values.end() ? NAN : warps->second);
}

NAPKIN_DETAIL_FUNC std::string to_text(const occupancy_section& s) {
  const occupancy_result& t = s.theoretical;
  std::string out = "Occupancy: " + s.kernel + "\n";
  out += "  launch: grid " + std::to_string(s.launch.blocks()) + " blocks of " +
         std::to_string(s.launch.threads_per_block()) + " threads, " + std::to_string(s.launch.registers_per_thread) +
         " registers/thread, shared memory " + std::to_string(s.launch.static_smem_bytes) + " B static + " +
         std::to_string(s.launch.dynamic_smem_bytes) + " B dynamic + driver reserve = " +
         std::to_string(t.smem_per_block) + " B/block of " + std::to_string(t.smem_per_sm) + " B/SM\n";
  out += "  theoretical " + percent(s.theoretical_pct) + " (" + std::to_string(t.active_warps()) + " of " +
         std::to_string(t.max_warps_per_sm) + " warps, " + std::to_string(t.blocks_per_sm) + " blocks/SM), limited by ";
  bool first = true;
  for (const limiter lim : all_limiters) {
    if (!t.limiters.contains(lim)) continue;
    out += (first ? "" : " and ") + std::string(describe(lim));
    first = false;
  }
  const auto limit = [](int b) { return b == unlimited ? std::string("-") : std::to_string(b); };
  out += "\n  block limits: registers " + limit(t.blocks_by_registers) + ", shared memory " +
         limit(t.blocks_by_shared_memory) + ", warps " + limit(t.blocks_by_warps) + ", SM " +
         limit(t.blocks_by_sm_limit) + ", barriers " + limit(t.blocks_by_barriers) + "\n";
  out += "  achieved    " + percent(s.achieved_pct) + " (" + fixed(s.achieved_warps, 2) + " warps/SM)\n";
  out += "  waves/SM    " + fixed(s.waves_per_sm, 2) + " on " + std::to_string(s.sm_count) + " SMs, wave bound " +
         percent(s.wave_bound_pct) + "\n";
  out += "  gap: " + s.explanation + "\n";
  if (!s.next.at_maximum()) {
    std::string steps;
    const auto step = [&](const occupancy_step& st, const std::string& words) {
      if (!st.possible()) return;
      steps += (steps.empty() ? "" : "; ") + words + std::to_string(st.value) + " (" + std::to_string(st.active_warps) +
               " warps)";
    };
    step(s.next.registers, "registers/thread <= ");
    step(s.next.shared_memory, "shared memory/block <= ");
    step(s.next.carveout, "carveout >= ");
    step(s.next.block_size, "block size ");
    if (!steps.empty()) out += "  next level: " + steps + "\n";
  }
  for (const std::string& n : s.notes) out += "  note: " + n + "\n";
  return out;
}

NAPKIN_END_NAMESPACE
