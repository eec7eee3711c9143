// SPDX-License-Identifier: Apache-2.0
// The memory chart of ncu's Memory Workload Analysis (memory_chart.hpp): the function bodies. Included by
// memory_chart.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <vector>

#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::optional<double> shared_access::conflict_pct() const {
  const auto r = detail::section_ratio(bank_conflicts, wavefronts);
  if (!r) return std::nullopt;
  return *r * 100.0;
}

NAPKIN_DETAIL_FUNC std::optional<double> memory_chart_section::l2_sm_sector_pct() const {
  if (!l2_sectors || !l2_sectors_from_fabric || *l2_sectors_from_fabric > *l2_sectors) return std::nullopt;
  const auto r = detail::section_ratio(l2_sectors_from_sms, std::optional<double>(*l2_sectors - *l2_sectors_from_fabric));
  if (!r) return std::nullopt;
  return *r * 100.0;
}

NAPKIN_DETAIL_FUNC std::optional<double> memory_chart_section::dram_read_pct() const {
  if (!dram_read_bytes || !dram_write_bytes) return std::nullopt;
  const auto r = detail::section_ratio(dram_read_bytes, std::optional<double>(*dram_read_bytes + *dram_write_bytes));
  if (!r) return std::nullopt;
  return *r * 100.0;
}

NAPKIN_DETAIL_FUNC std::optional<memory_chart_section> memory_chart(const sol_report& r) {
  memory_chart_section s;
  bool any = false;
  const auto read = [&](const char* metric) {
    auto v = detail::section_value(r, metric);
    if (v)
      any = true;
    else
      s.missing.push_back(metric);
    return v;
  };
  const auto read_either = [&](const char* metric, const char* alternative) {
    if (auto v = detail::section_value(r, alternative); v && !r.values.count(metric)) {
      any = true;
      return v;
    }
    return read(metric);
  };
  s.l1_hit_rate_pct = read(metric::l1_hit_rate_pct);
  s.l2_hit_rate_pct = read(metric::l2_hit_rate_pct);
  s.l2_sectors = read(metric::l2_sectors);
  s.l2_sectors_from_sms = read(metric::l2_sectors_from_sms);
  s.l2_sectors_from_fabric = read(metric::l2_sectors_from_fabric);
  s.global_load_sectors = read(metric::global_load_sectors);
  s.global_load_requests = read(metric::global_load_requests);
  s.global_store_sectors = read(metric::global_store_sectors);
  s.global_store_requests = read(metric::global_store_requests);
  s.shared_loads = {read_either(metric::shared_load_instructions, metric::shared_load_instructions_sass),
                    read(metric::shared_load_wavefronts), read(metric::shared_load_bank_conflicts)};
  s.shared_stores = {read_either(metric::shared_store_instructions, metric::shared_store_instructions_sass),
                     read(metric::shared_store_wavefronts), read(metric::shared_store_bank_conflicts)};
  s.dram_read_bytes = read(metric::dram_bytes_read);
  s.dram_write_bytes = read(metric::dram_bytes_write);
  if (!any) return std::nullopt;
  return s;
}

NAPKIN_DETAIL_FUNC std::string to_text(const memory_chart_section& s) {
  const auto num = [](const std::optional<double>& v, int decimals) {
    return v ? fixed(*v, decimals) : std::string("-");
  };
  const auto pct = [](const std::optional<double>& v) { return v ? percent(*v) : std::string("-"); };
  std::string out = "Memory chart\n";
  text_table t;
  t.column("", text_table::align::left);
  t.column("value");
  t.column("ideal", text_table::align::left);
  t.row({"L1/TEX hit rate", pct(s.l1_hit_rate_pct), ""});
  t.row({"L2 hit rate", pct(s.l2_hit_rate_pct),
         s.l2_hit_rate_is_kernels() ? std::string()
                                    : "not the kernel's: " + percent(*s.l2_sm_sector_pct()) +
                                          " of L2 sectors from its loads and stores, the rest other units' traffic"});
  t.row({"global load sectors/request", num(s.global_load_sectors_per_request(), 2), "4 (32 x 4 B, coalesced)"});
  t.row({"global store sectors/request", num(s.global_store_sectors_per_request(), 2), "4 (32 x 4 B, coalesced)"});
  t.row({"shared load wavefronts/request", num(s.shared_loads.wavefronts_per_request(), 2), "1 (no bank conflict)"});
  t.row({"  bank conflicts", pct(s.shared_loads.conflict_pct()), "of the wavefronts"});
  t.row({"shared store wavefronts/request", num(s.shared_stores.wavefronts_per_request(), 2), "1 (no bank conflict)"});
  t.row({"  bank conflicts", pct(s.shared_stores.conflict_pct()), "of the wavefronts"});
  t.row({"DRAM read", s.dram_read_bytes ? si(*s.dram_read_bytes, "B") : "-", ""});
  t.row({"DRAM write", s.dram_write_bytes ? si(*s.dram_write_bytes, "B") : "-",
         s.dram_read_pct() ? percent(*s.dram_read_pct()) + " of DRAM traffic read" : ""});
  out += t.text("  ");
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_key_values(const memory_chart_section& s) {
  return "NAPKIN_MEMORY_CHART" + detail::section_field("l1_hit_pct", s.l1_hit_rate_pct) +
         detail::section_field("l2_hit_pct", s.l2_hit_rate_pct) +
         detail::section_field("l2_sm_sector_pct", s.l2_sm_sector_pct()) +
         detail::section_field("global_load_sectors_per_request", s.global_load_sectors_per_request()) +
         detail::section_field("global_store_sectors_per_request", s.global_store_sectors_per_request()) +
         detail::section_field("shared_load_wavefronts_per_request", s.shared_loads.wavefronts_per_request()) +
         detail::section_field("shared_load_conflict_pct", s.shared_loads.conflict_pct()) +
         detail::section_field("shared_store_wavefronts_per_request", s.shared_stores.wavefronts_per_request()) +
         detail::section_field("shared_store_conflict_pct", s.shared_stores.conflict_pct()) +
         detail::section_field("dram_read_bytes", s.dram_read_bytes) +
         detail::section_field("dram_write_bytes", s.dram_write_bytes);
}

NAPKIN_END_NAMESPACE
