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

#include "napkin/profiler/sections/section_values.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

// One direction of shared-memory traffic (loads or stores).
struct shared_access {
  std::optional<double> instructions;    // warp-level shared load/store instructions (requests)
  std::optional<double> wavefronts;      // L1 data-pipe wavefronts they needed
  std::optional<double> bank_conflicts;  // wavefronts beyond the ideal
  std::optional<double> wavefronts_per_request() const { return detail::section_ratio(wavefronts, instructions); }
  // The share of wavefronts that were bank conflicts, in %.
  std::optional<double> conflict_pct() const;
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
  std::optional<double> l2_sm_sector_pct() const;
  bool l2_hit_rate_is_kernels() const { return !l2_sm_sector_pct() || *l2_sm_sector_pct() >= 50.0; }
  // Reads as a share of DRAM traffic, in %; none without traffic.
  std::optional<double> dram_read_pct() const;
};

// The section from a report holding the memory-chart metrics; std::nullopt when it holds none of them.
// Shared instructions: the hardware counters napkin collects, else ncu's SASS-patched ones. Bad values are an
// input error. A hit rate above 100 % is kept: ncu shows them too (L2 112.7 % on the zoo's FP64 kernel, which
// touches almost no memory).
std::optional<memory_chart_section> memory_chart(const sol_report& r);

// The section for people.
std::string to_text(const memory_chart_section& s);

// One line for scripts: "NAPKIN_MEMORY_CHART l1_hit_pct=... l2_hit_pct=... ..." ("nan" where not measured).
std::string to_key_values(const memory_chart_section& s);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/memory_chart_impl.hpp"
#endif
