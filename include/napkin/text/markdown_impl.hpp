// SPDX-License-Identifier: Apache-2.0
// napkin/text/markdown.hpp's GitHub-flavoured Markdown (escaping, code, pipe tables): the function bodies.
// Included by markdown.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/text/markdown.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string markdown_escape(std::string_view text) {
  const std::string shown = printable(text);
  std::string out;
  out.reserve(shown.size());
  for (char c : shown) {
    if (std::string_view("\\`*_[]<>|~&$#!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

NAPKIN_DETAIL_FUNC std::string markdown_code(std::string_view name) {
  const std::string shown = printable(name);
  if (shown.empty() || shown.find('`') != std::string::npos) return markdown_escape(name);
  std::string out = "`";
  for (char c : shown) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out + "`";
}

NAPKIN_DETAIL_FUNC std::string markdown_table(const std::vector<std::string>& header, const std::vector<bool>& right,
                                              const std::vector<std::vector<std::string>>& rows) {
  const auto line = [&header](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (std::size_t c = 0; c < header.size(); ++c) {
      std::string cell = c < cells.size() ? cells[c] : std::string();
      for (char& ch : cell)
        if (ch == '\n' || ch == '\r') ch = ' ';
      out += " " + cell + " |";
    }
    return out + "\n";
  };
  std::string out = line(header) + "|";
  for (std::size_t c = 0; c < header.size(); ++c) out += c < right.size() && right[c] ? "---:|" : ":---|";
  out += "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

NAPKIN_END_NAMESPACE
