// SPDX-License-Identifier: Apache-2.0
// napkin/report/ncu_csv_read.hpp — Nsight Compute's raw CSV (`ncu --csv --page raw --print-units base`, or
// `ncu -i REPORT.ncu-rep --csv --page raw --print-units base`) read as napkin's kernel_reports: one sol_report
// per row (one profiled kernel), every numeric metric cell in `values` under its ncu name, so napkin's SOL
// numbers, verdicts and sections are computed from ncu's numbers the way the library computes them from its
// own (docs/reports.md, "Reading ncu's CSV").
//
// The format, as ncu 2025.3 writes it (checked on tests/report/data/ncu_zoo_raw.csv): a header row ("ID",
// "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size", "Grid Size",
// "Device", "CC", then one column per metric), a units row (empty ID cell), then one row per kernel. Numbers
// carry thousands separators ("1,039,040"); a metric ncu could not give is "n/a", "nan" or "no data"; a few
// metrics are text ("NVIDIA H200", "CachePreferNone"). Without --print-units base ncu scales each cell to a
// unit of its own ("usecond", "Mbyte"): such a file is refused, naming the flag.
//
// What is left out of `values`, each with a note (ncu_csv_run::notes), never guessed: text cells of unitless
// columns, "n/a"/"nan"/"no data" cells, and numbers napkin's documents refuse (a negative counter, a
// percentage above 1000: detail::measured_number_problem), so the run written as JSON reads back.
// Bad input (no ncu header, no units row, a ragged row, a cell that is not a number in a column with a unit,
// a number that is not finite) is napkin's input error naming the file, row and column.
//
// Plain C++17, no dependency: a small RFC 4180 reader (quoted fields, doubled quotes, CRLF or LF, a UTF-8
// BOM); reading the file is the caller's (the tool uses read_file_text, report/json_read.hpp).
#pragma once

#include "napkin/config.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// An ncu raw CSV read as napkin's reports.
struct ncu_csv_run {
  std::string file;          // as given, for messages and the reports' metric_set
  gpu_identity gpu;          // name (device__attribute_display_name) and compute capability (CC); no key
  kernel_reports run;        // one sol_report per row, measured_by::ncu, in the file's order
  std::vector<std::string> notes;  // what was left out and why, one line per metric
};

// The metric_set napkin gives an imported report: the source, so every document and page names it.
std::string ncu_csv_metric_set(const std::string& file);

namespace detail {

// A number as ncu writes it: an optional '-', digits (with ',' thousands separators in groups of three), an
// optional fraction and exponent. nullopt for anything else ("n/a", "1.2.3", "0x10", "inf").
std::optional<double> ncu_number(std::string_view s);

}  // namespace detail

// Whether `text` starts as ncu's raw CSV does: its first header cells are "ID" then "Process ID" (a BOM may
// come first). The tool picks this reader by it.
bool looks_like_ncu_csv(std::string_view text);

// The reports in ncu raw CSV `text`, read from `file` (named in messages and in each report's metric_set).
ncu_csv_run read_ncu_csv(std::string_view text, const std::string& file);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/ncu_csv_read_impl.hpp"
#endif
