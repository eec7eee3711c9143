// SPDX-License-Identifier: Apache-2.0
// Two answers' text beyond the tables of render.hpp: `napkin gpus GPU`, one GPU's facts (its peak and ridge per
// pipe, the pipes without a figure, the sources), and `napkin occupancy`'s best block size as a tie range.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "answer.hpp"
#include "layout.hpp"
#include "names.hpp"
#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

namespace napkin::cli {

// `napkin gpus h100`: one GPU's facts, each pipe's peak and ridge, and where the numbers come from.
inline void render_gpu_facts(std::ostream& out, const chosen_gpu& c) {
  const gpu_spec& g = c.spec;
  const std::string aliases = aliases_of(g);
  out << c.label << (aliases.empty() ? "" : "; aliases: " + aliases) << "\n";
  print_row(out, "compute cap.", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor));
  print_row(out, "SMs", g.sm_count ? std::to_string(g.sm_count) : "unknown");
  print_row(out, "boost clock", g.boost_clock_mhz > 0 ? napkin::general(g.boost_clock_mhz) + " MHz" : "unknown");
  print_row(out, "DRAM", si(g.memory_bandwidth, "B/s"));
  print_row(out, "L2", g.l2_bytes ? bytes_text(static_cast<double>(g.l2_bytes)) : "unknown");
  text_table t;
  t.column("  pipe", text_table::align::left);
  t.column("dense peak");
  t.column("ridge");
  t.column("", text_table::align::left);
  for (pipe p : all_pipes) {
    if (!g.has(p)) continue;
    t.row({"  " + std::string(to_string(p)), si(g.peak(p), p == pipe::int8_tensor ? "OP/s" : "FLOP/s"),
           flop_per_byte(ridge_point(g, p)), std::string(describe(p))});
  }
  out << "\n";
  t.print(out);
  std::string absent;
  for (pipe p : all_pipes)
    if (!g.has(p)) absent += (absent.empty() ? "" : ", ") + std::string(to_string(p));
  if (!absent.empty()) out << wrap("  no figure for: " + absent, max_columns, 4) << "\n";
  if (!g.source.empty()) out << wrap("  source: " + std::string(g.source), max_columns, 4) << "\n";
}

// The runtime's pick is the largest block of the most resident threads: said as a tie range where smaller
// blocks do as well, so that "1024 threads" does not read as advice (occupancy_answer::smallest).
inline std::string best_block_size_text(const occupancy_answer& a) {
  const auto blocks = [](const block_size_choice& c) { return count_text(c.blocks_per_sm, "block/SM", "blocks/SM"); };
  const std::string grid = a.limits.sm_count > 0 ? ", min grid " + std::to_string(a.best.min_grid_size(a.limits.sm_count)) +
                                                       " on " + count_text(a.limits.sm_count, "SM", "SMs")
                                                 : std::string();
  const std::string warps = count_text(a.best.active_warps, "warp", "warps");
  const std::string range = std::to_string(a.smallest.block_size) + " to " + std::to_string(a.best.block_size);
  if (a.r.valid() && a.r.active_warps() == a.best.active_warps && a.smallest.block_size < a.best.block_size)
    return count_text(a.threads, "thread", "threads") + " already reach the most warps, " + std::to_string(a.best.active_warps) +
           " (so do " + range + "; the runtime picks " + std::to_string(a.best.block_size) + ": " + blocks(a.best) +
           grid + ")";
  if (a.smallest.block_size < a.best.block_size)
    return range + " threads reach the most warps, " + std::to_string(a.best.active_warps) + " (" +
           std::to_string(a.smallest.block_size) + ": " + blocks(a.smallest) + "; the runtime picks " +
           std::to_string(a.best.block_size) + ": " + blocks(a.best) + grid + ")";
  return count_text(a.best.block_size, "thread", "threads") + " (" + blocks(a.best) + ", " + warps + ")" +
         (grid.empty() ? "" : ";" + grid.substr(1));
}

}  // namespace napkin::cli
