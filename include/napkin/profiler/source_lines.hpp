// SPDX-License-Identifier: Apache-2.0
// Where a kernel spends its time, by source line: the aggregation from sampled PCs to source lines (the plain
// types of the result are source_lines_report.hpp), with the stall reasons of each line, as Nsight Compute's
// Source page shows them ("Warp Stall Sampling (All Samples)" per line, one column per stall reason).
//
// What CUPTI's PC Sampling API gives (CUDA 13.0's cupti_pcsampling.h, CUpti_PCSamplingPCData): per sampled
// PC its function, its offset in the function and a sample count per stall reason. CUPTI's reason names come
// in pairs: "smsp__pcsamp_warps_issue_stalled_<reason>" counts every sample of the PC whose warp had that
// reason, and "..._<reason>_not_issued" the subset of those taken on a cycle where the warp issued nothing
// (ncu's "Not-issued Samples"). A PC's samples are the sum over the first kind only; the second is kept
// apart, never added (NVIDIA's CUPTI documentation, "PC Sampling", the stall reason table).
//
// Plain C++17: no CUPTI or CUDA, so the aggregation is tested in CI on synthetic samples
// (tests/profiler/source_lines_test.cpp). The measurement that fills these types is
// napkin/profiler/source_sampler.hpp; docs/source-lines.md.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "napkin/profiler/source_lines_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// How many lines and PCs each function keeps, and which functions (a readable name containing one of
// `functions`; empty: all).
struct source_lines_options {
  std::size_t top_lines = 10;
  std::size_t top_pcs = 5;
  std::vector<std::string> functions;
};

// Sampled PCs -> per function, the top source lines (a line's samples are the sum over its PCs, its stall
// reasons too) and the top PCs. Records of one PC drained in several buffers add up. Order: most samples
// first; ties by file, line, PC offset, so that the result does not depend on the order of the records.
std::vector<function_lines> aggregate_source_lines(const std::vector<pc_record>& records,
                                                   const source_lines_options& options = {});

// The report for people: a cost line, then per function its top lines (file:line, samples, share of the
// function's samples, the leading stall reasons) and, when it has no line information, its top PCs and how to
// get lines.
std::string to_text(const source_lines_report& r);

// For scripts: one line per function, "NAPKIN_SOURCE function=<name> samples=<n> top=<file:line|+0xPC>
// top_samples=<n> top_stall=<reason> line_info=<0|1>" followed by the run's totals and host times (seconds).
// Names have spaces replaced by '_'.
std::string to_key_values(const source_lines_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/source_lines_impl.hpp"
#endif
