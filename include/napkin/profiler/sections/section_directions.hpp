// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sections/section_directions.hpp — which way each number of a report section improves,
// by its flattened document name "sections.<name>.<field>": what diff() (report/compare.hpp) reads, and what
// sections_of() (sections.hpp) holds every made number to. Apart from the sections themselves so that
// compare.hpp includes no profiler code.
//
// Plain C++17, no dependency.
#pragma once

#include "napkin/config.hpp"

#include <string_view>
#include <vector>

#include "napkin/document/better.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// A share of a whole (a stall reason's share of all stalls) has no direction, whatever section it is in.
inline bool is_share_field(std::string_view field) {
  constexpr std::string_view suffix = "_share_pct";
  return field.size() >= suffix.size() && field.substr(field.size() - suffix.size()) == suffix;
}
}  // namespace detail

// One section field's direction for diff(): `section` and `field` as the section names them.
struct section_field_direction_entry {
  std::string_view section;
  std::string_view field;
  better direction;
};

// Every section number with a direction (a number not listed has none; a field ending in _share_pct never
// has one). docs/reports.md lists the same. A section plugged into default_section_makers() adds its
// numbers here.
inline const std::vector<section_field_direction_entry>& section_field_directions() {
  static const std::vector<section_field_direction_entry> table{
      // Memory chart (memory_chart.hpp's names): hits are good; sectors and wavefronts per request above the
      // ideal, and bank conflicts, are wasted traffic.
      {"memory", "l1_hit_rate_pct", better::higher},
      {"memory", "l2_hit_rate_pct", better::higher},
      {"memory", "global_load_sectors_per_request", better::lower},
      {"memory", "global_store_sectors_per_request", better::lower},
      {"memory", "shared_load_wavefronts_per_request", better::lower},
      {"memory", "shared_store_wavefronts_per_request", better::lower},
      {"memory", "shared_load_conflict_pct", better::lower},
      {"memory", "shared_store_conflict_pct", better::lower},
      {"memory", "dram_read_bytes", better::lower},
      {"memory", "dram_write_bytes", better::lower},
      // Occupancy: achieved warps are what hide latency.
      {"occupancy", "achieved_occupancy_pct", better::higher},
      {"occupancy", "achieved_warps_per_sm", better::higher},
      {"occupancy", "theoretical_occupancy_pct", better::higher},
      // Warp state: cycles between two instructions of a warp.
      {"warp_state", "warp_cycles_per_issued_instruction", better::lower},
  };
  return table;
}

// The direction of a section's field by its flattened name, "sections.<name>.<field>" (report/compare.hpp's
// better_direction asks here for every name that starts with "sections."): the table's entry; none for a
// share (_share_pct), a field not in the table, or a name of another shape.
better section_field_direction(std::string_view flattened_field);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/section_directions_impl.hpp"
#endif
