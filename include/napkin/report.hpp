// SPDX-License-Identifier: Apache-2.0
// napkin/report.hpp — napkin's answers as documents you keep, compare and gate (the umbrella header):
// JSON and CSV for every report type, and diff() of two documents (docs/reports.md).
//
//   std::cout << napkin::to_json(report);           // a profiler report, an estimate, an occupancy, a GPU
//   std::cout << napkin::to_csv(kernels);           // one row per kernel
//   auto d = napkin::diff(baseline, napkin::to_document(report));
//   return d.exit_code();                           // 0 no regression, 1 regression, 2 bad input
//
// Plain C++17, no CUDA, no CUPTI, no other library; compiles with -fno-exceptions. The parts:
//   document/json_writer.hpp         json_value and write_json (escaping, exact numbers, no NaN)
//   document/document.hpp            the document header, report_document (flattened), flatten()
//   document/csv.hpp                 csv_table and write_csv (RFC 4180)
//   monitor/monitor_documents.hpp    monitor_report (napkin::monitor's), with its system view's member
//                                    (system/system_documents.hpp)
//   report/profiler_documents.hpp    sol_report, kernel_reports, phase_reports, the napkin comparison
//   report/math_documents.hpp        estimate_report, gpu_spec(s), occupancy_advice / occupancy_result
//   report/compare.hpp               diff(), report_diff, to_text, operator<<
//   report/roofline_chart.hpp        roofline_chart: ceilings, points, before/after pairs (a value)
//   report/roofline_svg.hpp          to_svg(chart): a self-contained SVG
//   report/html_page.hpp             to_html(report_page): one self-contained HTML page per run
//   report/markdown.hpp              document_markdown, to_markdown(diff): GitHub Markdown for CI summaries
//   report/ncu_csv_read.hpp          read_ncu_csv: Nsight Compute's raw CSV as kernel_reports
//   report/source_lines_documents.hpp  source_lines_report (sample_source_lines: hot lines, PCs, stalls)
//   report/nvbench_json_read.hpp     read_nvbench_json: nvbench's JSON (a parsed json_value) as kernel_reports
// Not included here: report/json_read.hpp (reading JSON back), which needs nlohmann/json.
#pragma once

#include "napkin/config.hpp"

#include "napkin/document/csv.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/document/text_file.hpp"
#include "napkin/system/communication.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/markdown.hpp"
#include "napkin/report/math_documents.hpp"
#include "napkin/report/ncu_csv_read.hpp"
#include "napkin/report/nvbench_json_read.hpp"
#include "napkin/report/profiler_documents.hpp"
#include "napkin/report/roofline_chart.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "napkin/report/source_lines_documents.hpp"
