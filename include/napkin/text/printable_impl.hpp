// SPDX-License-Identifier: Apache-2.0
// napkin/text/printable.hpp's names made safe for a terminal: the function bodies. Included by printable.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC unsigned bidi_control_at(std::string_view s, std::size_t i) {
  if (i + 2 >= s.size() || static_cast<unsigned char>(s[i]) != 0xE2) return 0;
  const auto b1 = static_cast<unsigned char>(s[i + 1]), b2 = static_cast<unsigned char>(s[i + 2]);
  const unsigned cp = 0x2000u | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
  if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return 0;
  if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F) return cp;
  return 0;
}

NAPKIN_DETAIL_FUNC std::string code_point_text(unsigned cp) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "<U+";
  for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
  return out + ">";
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string printable(std::string_view s) {
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

NAPKIN_DETAIL_FUNC std::string printable_lines(std::string_view s) {
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

NAPKIN_DETAIL_FUNC std::string quote_input(std::string_view text) {
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
