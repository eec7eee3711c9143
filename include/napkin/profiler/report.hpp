// SPDX-License-Identifier: Apache-2.0
// What a measurement says, and how it is printed: the report (sol_report.hpp), its two verdicts
// (verdicts.hpp), the comparison with napkin math (comparison.hpp), and the renderers below: to_text (like
// ncu's "GPU Speed Of Light Throughput" section, then the verdicts and the report's sections,
// profiler/sections/) and to_key_values (one line for scripts).
//
// Plain C++17; no CUPTI or CUDA needed, so everything here is tested in CI.
#pragma once

#include "napkin/config.hpp"

#include <iosfwd>
#include <string>

#include "napkin/profiler/comparison.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

// The report; then its sections (profiler/sections/), when `makers` make any: nothing more when none do.
std::string to_text(const sol_report& r, const section_makers& makers = default_section_makers());

std::ostream& operator<<(std::ostream& os, const sol_report& r);

// One line, key=value, for scripts: "NAPKIN_SOL name=... passes=9 gpu__time_duration.sum=1234 ...".
// Spaces in the name become '_'. Values as C++ streams print them with 10 significant digits (scripts parse
// them; napkin/text/numbers.hpp's forms are for people).
std::string to_key_values(const sol_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/report_impl.hpp"
#endif
