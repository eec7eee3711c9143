// SPDX-License-Identifier: Apache-2.0
// napkin/text.hpp — text for people (the umbrella header): how napkin turns numbers and outside names into
// what a terminal shows. Every to_text renderer of napkin and the `napkin` tool builds on these parts.
//
//   text/numbers.hpp    fixed, significant, percent, percent_of, si, duration, estimate_duration, general
//   text/printable.hpp  printable, printable_lines: a name from outside shown, never obeyed, by a terminal
//
// Plain C++17. JSON and CSV documents do not use these forms: their numbers round-trip exactly
// (report/json_writer.hpp).
#pragma once

#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
