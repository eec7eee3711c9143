// SPDX-License-Identifier: Apache-2.0
// napkin/text/markdown.hpp — GitHub-flavoured Markdown for a CI job summary or a pull-request comment
// (napkin/text.hpp): outside text made inert, and a pipe table. The GFM specification
// (https://github.github.com/gfm/, "Tables (extension)" and "Backslash escapes") is where the rules come from.
//
//   markdown_escape("a|b *c*")   "a\|b \*c\*"    any ASCII punctuation may be backslash-escaped; these
//                                                  would otherwise end a cell, start emphasis, code, a link,
//                                                  HTML, strike-through or math
//   markdown_code("sm_pct")      "`sm_pct`"       a name as code (a member name, a command)
//   markdown_table({"field", "value"}, {false, true}, {{"flop", "137.4 GFLOP"}})
//       "| field | value |\n|:---|---:|\n| flop | 137.4 GFLOP |\n"
//
// Cells are escaped by the caller (so that a cell may hold **bold** or `code`); a line break in a cell would
// end the row, so it becomes a space. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <string_view>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Outside text as literal Markdown: terminal controls and bidi overrides shown (printable()), then each
// character that Markdown or a table would read as syntax backslash-escaped.
std::string markdown_escape(std::string_view text);

// A name as inline code, `name`: only a '|' needs its backslash inside a table's code span (GFM); a name
// holding a backtick is escaped text instead.
std::string markdown_code(std::string_view name);

// A pipe table: the header, the alignment row (`right[c]`: right-aligned, for numbers) and the rows, each
// as wide as the header (missing cells empty, extra ones dropped). Cells are Markdown already.
std::string markdown_table(const std::vector<std::string>& header, const std::vector<bool>& right,
                           const std::vector<std::vector<std::string>>& rows);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/text/markdown_impl.hpp"
#endif
