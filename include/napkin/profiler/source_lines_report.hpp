// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/source_lines_report.hpp — the plain types of a PC-sampling result (napkin::sample_source_lines,
// source_sampler.hpp): per sampled function its hot source lines and SASS PCs with their stall reasons, and what
// sampling cost. Apart from the aggregation and the text (source_lines.hpp) so that writing, reading or drawing
// the report (report/source_lines_documents.hpp, json_read_source_lines.hpp, source_lines_page.hpp) compiles
// neither. Where the numbers come from: CUPTI's PC Sampling API (CUDA 13.0's cupti_pcsampling.h,
// CUpti_PCSamplingPCData; NVIDIA's CUPTI documentation, "PC Sampling"). docs/source-lines.md.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Samples of one stall reason. `reason` is CUPTI's name less its "smsp__pcsamp_warps_issue_stalled_" prefix
// ("long_scoreboard", "long_scoreboard_not_issued").
struct stall_samples {
  std::string reason;
  std::uint64_t samples = 0;
};

// A file and line from the module's line information; line 0 when the module has none for the PC.
struct source_location {
  std::string file;  // as the compiler recorded it (the name given to nvcc)
  std::string dir;   // the directory nvcc ran in, when recorded
  std::uint32_t line = 0;
  bool known() const noexcept { return line != 0 && !file.empty(); }
};

// One sampled PC as CUPTI gave it, with its source location once correlated.
struct pc_record {
  std::string function;  // readable name ("zoo_strided_load"), from the symbol
  std::string symbol;    // the mangled symbol, as CUPTI gives it
  std::uint64_t pc_offset = 0;  // bytes from the function's first instruction (nvdisasm's /*0040*/)
  std::uint64_t cubin_crc = 0;
  std::vector<stall_samples> stalls;
  source_location where;
};

// The prefix of CUPTI's stall-reason names, and the suffix of the not-issued subset.
inline constexpr std::string_view stall_reason_prefix = "smsp__pcsamp_warps_issue_stalled_";
inline constexpr std::string_view not_issued_suffix = "_not_issued";

// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard"; other names unchanged.
inline std::string short_stall_reason(std::string_view cupti_name) {
  if (cupti_name.substr(0, stall_reason_prefix.size()) == stall_reason_prefix)
    cupti_name.remove_prefix(stall_reason_prefix.size());
  return std::string(cupti_name);
}

inline bool is_not_issued(std::string_view reason) noexcept {
  return reason.size() >= not_issued_suffix.size() &&
         reason.substr(reason.size() - not_issued_suffix.size()) == not_issued_suffix;
}

// A source line's samples, over every PC that maps to it.
struct source_line {
  source_location where;
  std::uint64_t samples = 0;     // all samples (the sum over the reasons that are not "_not_issued")
  std::uint64_t not_issued = 0;  // the subset taken while the warp issued nothing
  std::vector<stall_samples> stalls;  // all-sample reasons, most first
  std::vector<std::uint64_t> pcs;     // the PC offsets sampled on this line, ascending
};

// One sampled PC of a function, kept whether or not the module has line information.
struct hot_pc {
  std::uint64_t pc_offset = 0;
  std::uint64_t samples = 0;
  std::uint64_t not_issued = 0;
  std::vector<stall_samples> stalls;
  source_location where;
};

// One function's hot lines and PCs. A function is what CUPTI names: a kernel, or a device function the
// compiler did not inline.
struct function_lines {
  std::string function;
  std::string symbol;
  std::uint64_t samples = 0;
  std::uint64_t not_issued = 0;
  bool line_info = false;              // some PC of it maps to a file:line
  std::vector<stall_samples> stalls;   // over the whole function, most first
  std::vector<source_line> lines;      // the top lines, most samples first
  std::vector<hot_pc> pcs;             // the top PCs, most samples first
  std::size_t lines_sampled = 0;       // lines with samples, before the top-N cut
  std::size_t pcs_sampled = 0;         // PCs with samples, before the top-N cut
  std::string note;                    // why there are no lines, when there are none
};

// What sampling cost and what CUPTI counted (CUpti_PCSamplingData's totals, summed over every drain).
struct source_sampling_cost {
  std::uint64_t total_samples = 0;     // CUPTI's totalSamples: user and non-user kernels and dropped samples
  std::uint64_t dropped_samples = 0;   // dropped by the hardware (buffer back-pressure)
  std::uint64_t non_user_samples = 0;  // in kernels CUPTI gives no PCs for (driver-internal ones)
  std::uint64_t pc_records = 0;        // PC records drained
  std::size_t drains = 0;              // cuptiPCSamplingGetData calls that returned records
  bool hardware_buffer_full = false;
  std::uint32_t period_log2 = 0;       // sampling period 2^n cycles per SM sub-partition (0: not known)
  double setup_s = 0;                  // enable, configure, stall-reason table (host)
  double run_s = 0;                    // the sampled work, start to stop (wall)
  double drain_s = 0;                  // stop, cuptiPCSamplingGetData until empty, disable (host)
  double correlate_s = 0;              // PC -> file:line through the cubins, and the aggregation (host)
  double total_s() const noexcept { return setup_s + run_s + drain_s + correlate_s; }
};

// The result: one entry per sampled function, most samples first.
struct source_lines_report {
  std::vector<function_lines> functions;
  source_sampling_cost cost;
  std::vector<std::string> notes;  // what was missing (cubins not seen, dropped samples, ...)
  const function_lines* find(std::string_view function) const noexcept {
    for (const auto& f : functions)
      if (f.function == function || f.symbol == function) return &f;
    return nullptr;
  }
};

inline constexpr std::string_view no_line_info_note =
    "no line information: build with -lineinfo (nvcc) to get source lines; the top SASS PCs are shown";

namespace detail {
// A PC offset as nvdisasm's listing and ncu's Source page show it: "+0x0040" (4 hex digits at least).
inline std::string pc_text(std::uint64_t offset) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  do {
    hex.insert(hex.begin(), digits[offset & 15u]);
    offset >>= 4;
  } while (offset != 0);
  while (hex.size() < 4) hex.insert(hex.begin(), '0');
  return "+0x" + hex;
}
}  // namespace detail

NAPKIN_END_NAMESPACE
