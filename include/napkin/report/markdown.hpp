// SPDX-License-Identifier: Apache-2.0
// napkin/report/markdown.hpp — a report as GitHub-flavoured Markdown, for a CI job summary
// ($GITHUB_STEP_SUMMARY) or a pull-request comment (docs/ci.md):
//
//   document_markdown(document_value(report))   any document: a heading, its GPU, and one pipe table of its
//                                               entities (kernels, estimates, GPUs, ...) with their verdicts,
//                                               words and numbers
//   to_markdown(const report_diff&)             the gate first ("### napkin diff: FAIL", the count of
//                                               regressions and the exit status), then each number that moved
//
// Numbers are in the unit their member's path names (named_number: "2.05 ms", "66.90 TFLOP/s"), as
// `napkin diff` prints them; the documents keep the exact values. Names from files are escaped
// (markdown_escape), member names shown as code. Plain C++17; compiles with -fno-exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>

#include "napkin/document/json_writer.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/text/markdown.hpp"

NAPKIN_BEGIN_NAMESPACE

// Tables wider than this many columns are turned on their side when there are few entities: one row per
// member, one column per entity (a run of 4 kernels with 70 numbers each reads down, not across).
inline constexpr std::size_t markdown_max_columns = 12;
inline constexpr std::size_t markdown_max_side_entities = 8;

// A document (what document_value(report) returns, or report/json_read.hpp reads) as Markdown:
//   ### napkin estimate: GEMM M=4096 N=4096 K=4096, beta = 0
//   GPU: h100-sxm (H100 SXM5 80GB, CC 9.0)
//   | field | value |  ...  one row per member for one entity; one row per entity for several
// A value that is not a napkin document gives a one-line note instead of a table.
std::string document_markdown(const json_value& doc);

// The diff with its gate result first, as a CI job summary shows it:
//   ### napkin diff: FAIL
//   **Gate: FAIL**: 1 of 15 numbers worse by more than 3.0% (regression, exit status 1).
//   Baseline `a.json`, new `b.json` (estimate).
//   | entity | field | old | new | change | status |   every number beyond the threshold
//   14 of 15 numbers within 3.0%.                     then verdict changes, added and removed entities
std::string to_markdown(const report_diff& d);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/markdown_impl.hpp"
#endif
