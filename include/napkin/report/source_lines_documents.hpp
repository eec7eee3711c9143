// SPDX-License-Identifier: Apache-2.0
// napkin/report/source_lines_documents.hpp — a PC-sampling result (napkin::sample_source_lines,
// profiler/source_lines_report.hpp) as the "source-lines" JSON document and as a CSV table: Nsight Compute's
// Source page in a file that diff(), `napkin report` and `napkin diff` take.
//
// The document's entities are its "rows", one per sampled function, then that function's hot lines, then its
// hot PCs, as the monitor-report's rows are phases, paths and kernels:
//
//   "sampling": {"period_log2": 11, "total_samples": 87332, ..., "total_s": 0.89},
//   "notes": [],
//   "rows": [{"name": "function: strided_load", "by": "function", "samples": 87332, "share_pct": 100, ...},
//            {"name": "line: strided_load kernel.cu:20", "by": "line", "file": "kernel.cu", "line": 20,
//             "samples": 85252, "share_pct": 97.6, "stalls": {"long_scoreboard": 85082, ...}, ...},
//            {"name": "pc: strided_load +0x0040", "by": "pc", "pc_offset": 64, ...}]
//
// so diff() matches a line across two runs by its function, file and line, and compares its numbers:
// `samples`, `not_issued_samples` and `share_pct` better lower (report/compare.hpp), a stall reason's samples
// (`stalls.<reason>`) without a direction. A line's share is of its function's samples, a function's of all
// the functions' samples. Reading back: report/json_read_source_lines.hpp. docs/source-lines.md, docs/reports.md.
//
// A report that cannot be written (validate_source_lines) is napkin's input error, never a document.
// Plain C++17, no CUDA; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/profiler/source_lines_report.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// part / whole x 100, none when the whole is 0 (null in JSON, an empty CSV cell: never a made-up 0).
std::optional<double> source_share_pct(std::uint64_t part, std::uint64_t whole);

std::uint64_t source_functions_samples(const source_lines_report& r);

// The rows' names: what diff() matches across two runs. A PC is named by its offset alone: a rebuild moves it.
std::string source_location_text(const source_location& where);

}  // namespace detail

// Why `r` cannot be written as a document, or "" when it can: a function without a name, a hot line without a
// file and line, a line or PC with more samples than its function, a stall reason without a name or given twice
// in one list (each becomes a JSON member). What aggregate_source_lines makes always passes.
std::string validate_source_lines(const source_lines_report& r);

// validate_source_lines, as napkin's input error (std::invalid_argument by default).
void check_source_lines(const source_lines_report& r);

// The source-lines document: the header (document_options: the GPU and context the report does not know),
// "sampling" (CUPTI's totals, the period, napkin's host time), "notes" and the "rows".
json_value document_value(const source_lines_report& r, const document_options& options = {});

std::string to_json(const source_lines_report& r, const document_options& o = {});

report_document to_document(const source_lines_report& r, const document_options& o = {});

// CSV, one row per document row: by, name, function, file, line, pc_offset, samples, not_issued_samples,
// share_pct, stalls ("reason=samples;..." most first). A function row has no file, line or PC; a line row no
// PC (its PCs are in the JSON); a PC's line is empty when the module has no line information.
std::string to_csv(const source_lines_report& r);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/source_lines_documents_impl.hpp"
#endif
