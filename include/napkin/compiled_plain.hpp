// SPDX-License-Identifier: Apache-2.0
// napkin/compiled_plain.hpp — the bodies of napkin's plain-C++ headers that NAPKIN_SEPARATE_COMPILATION leaves out:
// the text toolkit, documents, reports and their pages, the profiler's report types and sections, the monitor's
// and the system view's reports. No CUDA or CUPTI header.
//
// napkin/compiled.hpp includes it, with the profiler's and the monitor's own bodies (which need CUDA's runtime
// and CUPTI). A program that uses only plain-C++ parts (napkin math and occupancy, reading, writing and
// comparing reports) includes this header instead, in the one source file that compiles the bodies, and
// needs no toolkit: tests/report's report_separate_compilation_plain links so. docs/compile-time.md.
#pragma once

#include "napkin/config.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "napkin/compiled_plain.hpp compiles napkin's bodies for NAPKIN_SEPARATE_COMPILATION=1; define it for every unit of the program (header-only napkin needs no such file)"
#endif

#include "napkin/document/csv_impl.hpp"
#include "napkin/document/document_impl.hpp"
#include "napkin/document/json_writer_impl.hpp"
#include "napkin/document/rank_impl.hpp"
#include "napkin/document/text_file_impl.hpp"
#include "napkin/monitor/monitor_documents_impl.hpp"
#include "napkin/monitor/monitor_report_impl.hpp"
#include "napkin/profiler/comparison_impl.hpp"
#include "napkin/profiler/report_impl.hpp"
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
