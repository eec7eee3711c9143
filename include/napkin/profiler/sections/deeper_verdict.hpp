// SPDX-License-Identifier: Apache-2.0
// The SOL verdict one level deeper: what the sections beyond SOL (warp state, pipes, memory chart) say about the
// limiter the SOL table named, as findings in the manner of Nsight Compute's rules, each with the numbers it rests
// on and, where a fix has a measurable size, "fix this and expect about N x" (measured_quantify.hpp).
//
//   latency-bound        the top stall reasons and the achieved occupancy (beside the theoretical, and the gap
//                        explained, where the report holds the launch: occupancy.hpp)
//   compute-bound        the busiest pipe (by busy cycles, ncu's HighPipeUtilization, or by instructions for the
//                        pipes without a cycle count: XU, LSU, ...)
//   memory-bound (DRAM)  the DRAM read/write split and the L2 hit rate
//   internal congestion  bank conflicts, uncoalesced accesses, else the cache levels' traffic
//   any verdict          bank conflicts, uncoalesced global accesses and thread divergence wherever measured
//
// Each estimate is Amdahl's law over the part of the time the problem can explain, said in the finding's text:
// uncoalesced accesses over Memory % (the busiest memory unit's share of its peak), bank conflicts over L1/TEX %,
// divergence over the warp cycles not spent waiting on memory. The rules and their thresholds: deeper_findings.hpp.
// docs/why.md, "Deeper verdicts and estimates", compares the estimates with ncu's own on the H200 zoo. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <vector>

#include "napkin/profiler/sections/deeper_findings.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

struct deeper_verdict {
  bottleneck top = bottleneck::not_measured;  // the SOL table's verdict (sol_report::sol_table())
  std::string headline;                       // the verdict and its leading finding in one line
  // The causes estimated at deeper_leading_speedup or more (largest first), the verdict's own finding (the stall
  // reasons for a latency-bound kernel), the other causes, and the stall reasons.
  std::vector<finding> findings;
  std::vector<std::string> not_looked_at;     // what the report lacked, in words (nothing is guessed in its place)
};

// The deeper verdict on a report: the SOL table's verdict refined with the sections' numbers. A report without the
// sections or the SOL numbers says so in `not_looked_at` and the headline; one whose passes disagree gets no findings.
// Bad counter values (NaN, negative) are an input error, as in the sections.
deeper_verdict look_deeper(const sol_report& r, const deeper_options& o = {});

// Each finding's sentences, with their numbers and the estimate's assumption, for a report section's findings list
// (the rule, summary and numbers are in v.findings for a document's members).
std::vector<std::string> finding_texts(const deeper_verdict& v);

// The verdict for people.
std::string to_text(const deeper_verdict& v);

// One line for scripts: "NAPKIN_DEEPER top=latency-bound findings=stall-reasons,..." and each finding's estimated
// speed-up ("bank_conflicts_speedup=").
std::string to_key_values(const deeper_verdict& v);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/deeper_verdict_impl.hpp"
#endif
