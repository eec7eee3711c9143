// SPDX-License-Identifier: Apache-2.0
// napkin/text/printable.hpp — a name from outside (a kernel, a phase, a host, a file's entity) as text
// for a terminal: what could steer the terminal or reorder what the reader sees is shown, not sent.
//
//   - C0 controls (ESC, BEL, CR, LF, ...) and DEL become \xNN: "\x1b[31m" prints as \x1b[31m;
//   - C1 controls (U+0080..U+009F, UTF-8 C2 80..C2 9F) become \u0080..\u009f;
//   - Unicode's bidirectional formatting characters (embeddings and overrides U+202A..U+202E, isolates
//     U+2066..U+2069, the marks U+200E and U+200F: "Trojan Source", CVE-2021-42574) become <U+202E>.
// The same bidi characters are shown the same way in HTML and SVG (report/roofline_svg.hpp's xml_escape).
// Every text renderer of napkin/report, the profiler and the monitor passes names through printable().
// Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The bidi formatting character that starts s[i..] (UTF-8: 3 bytes), or 0.
unsigned bidi_control_at(std::string_view s, std::size_t i);

// "<U+202E>" for a code point.
std::string code_point_text(unsigned cp);

}  // namespace detail

std::string printable(std::string_view s);

// A whole text for a terminal: each line printable(), the line breaks kept.
std::string printable_lines(std::string_view s);

// The user's text quoted back in a message: at most 40 bytes (cut at a UTF-8 character boundary, then "…"),
// control characters as \xNN (a terminal escape in an argument is shown, not sent to the terminal).
std::string quote_input(std::string_view text);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/text/printable_impl.hpp"
#endif
