// SPDX-License-Identifier: Apache-2.0
// napkin/compiled.hpp — the bodies that NAPKIN_SEPARATE_COMPILATION leaves out of the headers, compiled once.
//
// With NAPKIN_SEPARATE_COMPILATION=1 defined for every unit of a program, include this header in exactly one
// source file of it (a file of its own is simplest):
//
//   // napkin_compiled.cpp, built with -DNAPKIN_SEPARATE_COMPILATION=1 like the rest of the program
//   #include <napkin/compiled.hpp>
//
// Every other unit includes napkin/monitor.hpp, napkin/profiler.hpp and the rest as usual and gets the
// declarations only. Without that file the link fails naming the missing napkin functions; with it in two
// files, it fails naming them twice. It needs what the profiler and the monitor need (CUDA's runtime, CUPTI:
// link napkin::profiler). It includes every *_impl.hpp under napkin/ (build_headers checks that none is
// missing). docs/compile-time.md has the figures.
#pragma once

#include "napkin/config.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "napkin/compiled.hpp compiles napkin's bodies for NAPKIN_SEPARATE_COMPILATION=1; define it for every unit of the program (header-only napkin needs no such file)"
#endif

#include "napkin/document/csv_impl.hpp"
#include "napkin/document/document_impl.hpp"
#include "napkin/document/json_writer_impl.hpp"
#include "napkin/document/rank_impl.hpp"
#include "napkin/document/text_file_impl.hpp"
#include "napkin/monitor/monitor_documents_impl.hpp"
#include "napkin/monitor/monitor_impl.hpp"
#include "napkin/monitor/monitor_report_impl.hpp"
#include "napkin/profiler/comparison_impl.hpp"
#include "napkin/profiler/launches_impl.hpp"
#include "napkin/profiler/phase_impl.hpp"
#include "napkin/profiler/report_impl.hpp"
#include "napkin/profiler/scope_impl.hpp"
#include "napkin/profiler/sections/deeper_findings_impl.hpp"
#include "napkin/profiler/sections/deeper_verdict_impl.hpp"
#include "napkin/profiler/sections/measured_quantify_impl.hpp"
#include "napkin/profiler/sections/memory_chart_impl.hpp"
#include "napkin/profiler/sections/occupancy_impl.hpp"
#include "napkin/profiler/sections/pipes_impl.hpp"
#include "napkin/profiler/sections/report_section_impl.hpp"
#include "napkin/profiler/sections/section_directions_impl.hpp"
#include "napkin/profiler/sections/section_metrics_impl.hpp"
#include "napkin/profiler/sections/section_reports_impl.hpp"
#include "napkin/profiler/sections/section_text_impl.hpp"
#include "napkin/profiler/sections/section_values_impl.hpp"
#include "napkin/profiler/sections/sections_impl.hpp"
#include "napkin/profiler/sections/warp_state_impl.hpp"
#include "napkin/profiler/session_impl.hpp"
#include "napkin/profiler/sol_fast_impl.hpp"
#include "napkin/profiler/sol_report_impl.hpp"
#include "napkin/profiler/source_lines_impl.hpp"
#include "napkin/profiler/verdicts_impl.hpp"
#include "napkin/report/compare_impl.hpp"
#include "napkin/report/html_page_impl.hpp"
#include "napkin/report/markdown_impl.hpp"
#include "napkin/report/math_documents_impl.hpp"
#include "napkin/report/ncu_csv_read_impl.hpp"
#include "napkin/report/nvbench_json_read_impl.hpp"
#include "napkin/report/profiler_documents_impl.hpp"
#include "napkin/report/roofline_chart_impl.hpp"
#include "napkin/report/roofline_svg_impl.hpp"
#include "napkin/report/section_documents_impl.hpp"
#include "napkin/report/section_html_impl.hpp"
#include "napkin/report/source_lines_documents_impl.hpp"
#include "napkin/system/system_documents_impl.hpp"
#include "napkin/system/system_text_impl.hpp"
#include "napkin/text/markdown_impl.hpp"
#include "napkin/text/numbers_impl.hpp"
#include "napkin/text/printable_impl.hpp"
#include "napkin/text/table_impl.hpp"
