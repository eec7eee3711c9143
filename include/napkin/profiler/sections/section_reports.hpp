// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/sections/section_reports.hpp — the sections beyond Speed-Of-Light as report sections
// (report_section.hpp): what default_section_makers() (sections.hpp) draws in every report that holds their
// metrics — the text report, the JSON document ("sections"), the long CSV, the HTML page and diff().
//
//   warp_state    warp cycles per issued instruction, each stall reason's share (a stacked bar), the leader
//   pipes         each SM pipe's utilization by instructions and by busy cycles, the busiest named
//   memory        hit rates, sectors per request, shared-memory wavefronts and conflicts, DRAM bytes
//   occupancy     achieved against theoretical occupancy for the launch, the waves, the gap explained
//   verdict       look_deeper(): the SOL verdict one level deeper, each finding with its estimate
//
// A section is made from the report's collected metrics (sol_report::values) only; a metric CUPTI could not
// evaluate (NaN, infinity) counts as not collected here, as sol_report::get() counts it, so a report is always
// drawn. A negative counter, which no counter gives, is napkin's input error. A launch on a chip napkin's
// occupancy tables do not know makes no occupancy section. Plain C++17, no CUDA.
#pragma once

#include "napkin/config.hpp"

#include <optional>

#include "napkin/profiler/sections/report_section.hpp"

NAPKIN_BEGIN_NAMESPACE

struct sol_report;  // napkin/profiler/sol_report.hpp

std::optional<report_section> warp_state_report(const sol_report& measured);

std::optional<report_section> pipes_report(const sol_report& measured);

std::optional<report_section> memory_report(const sol_report& measured);

std::optional<report_section> occupancy_report(const sol_report& measured);

// The deeper verdict, only where the report holds a section's metrics (a SOL-only report keeps its verdicts).
std::optional<report_section> deeper_verdict_report(const sol_report& measured);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sections/section_reports_impl.hpp"
#endif
