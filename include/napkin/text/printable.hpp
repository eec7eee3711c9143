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

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// The bidi formatting character that starts s[i..] (UTF-8: 3 bytes), or 0.
inline unsigned bidi_control_at(std::string_view s, std::size_t i) {
  if (i + 2 >= s.size() || static_cast<unsigned char>(s[i]) != 0xE2) return 0;
  const auto b1 = static_cast<unsigned char>(s[i + 1]), b2 = static_cast<unsigned char>(s[i + 2]);
  const unsigned cp = 0x2000u | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
  if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return 0;
  if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F) return cp;
  return 0;
}

// "<U+202E>" for a code point.
inline std::string code_point_text(unsigned cp) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "<U+";
  for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
  return out + ">";
}

}  // namespace detail

inline std::string printable(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      out += "\\u00";
      out += hex[c1 >> 4];
      out += hex[c1 & 0xF];
      ++i;
    } else if (const unsigned cp = detail::bidi_control_at(s, i); cp != 0) {
      out += detail::code_point_text(cp);
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// A whole text for a terminal: each line printable(), the line breaks kept.
inline std::string printable_lines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t start = 0; start <= s.size();) {
    const std::size_t end = std::min(s.find('\n', start), s.size());
    out += printable(s.substr(start, end - start));
    if (end == s.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

// The user's text quoted back in a message: at most 40 bytes (cut at a UTF-8 character boundary, then "…"),
// control characters as \xNN (a terminal escape in an argument is shown, not sent to the terminal).
inline std::string quote_input(std::string_view text) {
  constexpr std::size_t max_bytes = 40;
  std::size_t n = text.size();
  if (n > max_bytes) {
    n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // not inside a character
  }
  std::string out;
  out.reserve(n + 8);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (n < text.size()) out += "…";
  return out;
}

NAPKIN_END_NAMESPACE
