// SPDX-License-Identifier: Apache-2.0
// napkin/text/table.hpp's text layout (padding, wrap, text_table): the function bodies. Included by table.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::size_t text_width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

NAPKIN_DETAIL_FUNC std::string pad_right(std::string text, std::size_t width) {
  const std::size_t w = text_width(text);
  if (w < width) text.append(width - w, ' ');
  return text;
}

NAPKIN_DETAIL_FUNC std::string pad_left(const std::string& text, std::size_t width) {
  const std::size_t w = text_width(text);
  return w < width ? std::string(width - w, ' ') + text : text;
}

NAPKIN_DETAIL_FUNC std::string wrap(const std::string& text, std::size_t width, std::size_t indent,
                                    std::size_t first_column) {
  std::string out;
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    const std::size_t line_end = std::min(text.find('\n', line_start), text.size());
    const std::string source = text.substr(line_start, line_end - line_start);
    const std::size_t lead = std::min(source.find_first_not_of(' '), source.size());
    std::string line(lead, ' ');
    std::size_t column = first_column + lead;
    bool empty = true;
    std::size_t start = lead;
    while (start < source.size()) {
      std::size_t end = source.find(' ', start);
      if (end == std::string::npos) end = source.size();
      const std::string word = source.substr(start, end - start);
      start = end + 1;
      if (word.empty()) continue;
      const std::size_t w = text_width(word);
      if (!empty && column + 1 + w > width) {
        out += line + "\n";
        line = std::string(indent, ' ');
        column = indent;
      } else if (!empty) {
        line += ' ';
        ++column;
      }
      line += word;
      column += w;
      empty = false;
    }
    out += line;
    if (line_end >= text.size()) break;
    out += "\n";
    line_start = line_end + 1;
    first_column = 0;
  }
  return out;
}

NAPKIN_DETAIL_FUNC bool text_table::empty() const {
  for (const auto& l : lines_)
    if (!l.note) return false;
  return true;
}

NAPKIN_DETAIL_FUNC std::string text_table::text(const std::string& indent, bool with_header) const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = std::max(with_header ? text_width(headers_[c]) : 0, min_widths_[c]);
    for (const auto& l : lines_)
      if (!l.note) width[c] = std::max(width[c], c < l.cells.size() ? text_width(l.cells[c]) : 0);
  }
  std::string out;
  const auto emit = [&out](std::string text) {
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text = indent;
    for (std::size_t c = 0; c < cells.size() && c < headers_.size(); ++c) {
      if (c > 0) text += "  ";
      text += aligns_[c] == align::left ? pad_right(cells[c], width[c]) : pad_left(cells[c], width[c]);
    }
    emit(std::move(text));
  };
  if (with_header) line(headers_);
  for (const auto& l : lines_) {
    if (l.note) emit(indent + l.cells.front());
    else line(l.cells);
  }
  return out;
}

NAPKIN_DETAIL_FUNC void text_table::print(std::ostream& out) const { out << text(); }

NAPKIN_END_NAMESPACE
