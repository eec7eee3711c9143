// SPDX-License-Identifier: Apache-2.0
// napkin/text.hpp — text for people (the umbrella header): how napkin turns numbers and outside names into
// what a terminal shows. Every to_text renderer of napkin and the `napkin` tool builds on these parts.
//
//   text/numbers.hpp    fixed, significant, percent, percent_of, si, duration, estimate_duration, general
//   text/printable.hpp  printable, printable_lines, quote_input: outside text shown, never obeyed, by a terminal
//   text/table.hpp      text_width, pad_left, pad_right, wrap, text_table: columns and paragraphs
//   text/enum_names.hpp from_string(name, all_values): an enum's to_string name read back
//   text/markdown.hpp   markdown_escape, markdown_code, markdown_table: GitHub Markdown (CI summaries)
//
// Plain C++17. JSON and CSV documents do not use these forms: their numbers round-trip exactly
// (document/json_writer.hpp).
#pragma once

#include "napkin/text/enum_names.hpp"
#include "napkin/text/markdown.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"
