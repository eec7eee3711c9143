// SPDX-License-Identifier: Apache-2.0
// The memory chart of ncu's Memory Workload Analysis: L1/TEX and L2 hit rates, sectors per request for global
// loads and stores (coalescing), shared-memory wavefronts per request and bank conflicts, the DRAM read/write
// split.
//
// Definitions as ncu's Memory Workload Analysis tables and rules state them (Nsight Compute Kernel Profiling
// Guide, "Memory Workload Analysis", https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html):
// sectors per request = l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum / l1tex__t_requests_..._{ld,st}.sum
// (4 for 32 threads reading consecutive 4-byte words, 32 when each thread touches its own sector); shared
// wavefronts per request = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum / shared instructions
// (ncu's "N-way bank conflict across all R shared load requests"), and the bank conflicts are the wavefronts
// beyond the ideal (ncu: "B bank conflicts, which represent P% of the overall W wavefronts"). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <vector>

#include "napkin/profiler/sections/section_metrics.hpp"
#include "napkin/profiler/sections/section_values.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

// One direction of shared-memory traffic (loads or stores).
struct shared_access {
  std::optional<double> instructions;    // warp-level shared load/store instructions (requests)
  std::optional<double> wavefronts;      // L1 data-pipe wavefronts they needed
  std::optional<double> bank_conflicts;  // wavefronts beyond the ideal
  std::optional<double> wavefronts_per_request() const { return detail::section_ratio(wavefronts, instructions); }
  // The share of wavefronts that were bank conflicts, in %.
  std::optional<double> conflict_pct() const {
    const auto r = detail::section_ratio(bank_conflicts, wavefronts);
    if (!r) return std::nullopt;
    return *r * 100.0;
  }
};

struct memory_chart_section {
  std::optional<double> l1_hit_rate_pct;  // l1tex__t_sector_hit_rate.pct
  std::optional<double> l2_hit_rate_pct;  // lts__t_sector_hit_rate.pct
  std::optional<double> l2_sectors, l2_sectors_from_sms;  // lts__t_sectors, the part from the SMs (L1/TEX)
  std::optional<double> l2_sectors_from_fabric;            // the far partition's lookups again (an echo)
  std::optional<double> global_load_sectors, global_load_requests;
  std::optional<double> global_store_sectors, global_store_requests;
  shared_access shared_loads, shared_stores;
  std::optional<double> dram_read_bytes, dram_write_bytes;
  std::vector<std::string> missing;  // metrics the report lacks

  std::optional<double> global_load_sectors_per_request() const {
    return detail::section_ratio(global_load_sectors, global_load_requests);
  }
  std::optional<double> global_store_sectors_per_request() const {
    return detail::section_ratio(global_store_sectors, global_store_requests);
  }
  // The SMs' share of the L2 sectors (the fabric's echoes left out), in %: under half, the L2 hit rate is
  // mostly other units' traffic. None without the fabric's count (collected on GH100; the portable set
  // leaves it out, and a share without it would count the echoes as other units' traffic).
  std::optional<double> l2_sm_sector_pct() const {
    if (!l2_sectors || !l2_sectors_from_fabric || *l2_sectors_from_fabric > *l2_sectors) return std::nullopt;
    const auto r = detail::section_ratio(l2_sectors_from_sms, std::optional<double>(*l2_sectors - *l2_sectors_from_fabric));
    if (!r) return std::nullopt;
    return *r * 100.0;
  }
  bool l2_hit_rate_is_kernels() const { return !l2_sm_sector_pct() || *l2_sm_sector_pct() >= 50.0; }
  // Reads as a share of DRAM traffic, in %; none without traffic.
  std::optional<double> dram_read_pct() const {
    if (!dram_read_bytes || !dram_write_bytes) return std::nullopt;
    const auto r = detail::section_ratio(dram_read_bytes, std::optional<double>(*dram_read_bytes + *dram_write_bytes));
    if (!r) return std::nullopt;
    return *r * 100.0;
  }
};

// The section from a report holding the memory-chart metrics; std::nullopt when it holds none of them.
// Shared instructions: the hardware counters napkin collects, else ncu's SASS-patched ones. Bad values are an
// input error. A hit rate above 100 % is kept: ncu shows them too (L2 112.7 % on the zoo's FP64 kernel, which
// touches almost no memory).
inline std::optional<memory_chart_section> memory_chart(const sol_report& r) {
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

// The section for people.
inline std::string to_text(const memory_chart_section& s) {
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

// One line for scripts: "NAPKIN_MEMORY_CHART l1_hit_pct=... l2_hit_pct=... ..." ("nan" where not measured).
inline std::string to_key_values(const memory_chart_section& s) {
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
