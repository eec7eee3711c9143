// SPDX-License-Identifier: Apache-2.0
// napkin/text/table.hpp — text layout for people (napkin/text.hpp): padding, wrap() for paragraphs, and a
// plain-text table (a header row and right- or left-aligned columns, two spaces apart). Widths count
// characters, not bytes ("µs" is one column wide). Every to_text of napkin and the `napkin` tool's renderers
// lay their columns out with these.
//
//   pad_right("gemm", 6)      "gemm  "
//   pad_left("2.05 ms", 9)    "  2.05 ms"
//   text_table t; t.column("entity", text_table::align::left); t.column("old"); t.row({"gemm", "2.05 ms"});
//   t.text("  ")              "  entity      old\n  gemm    2.05 ms\n"
//
// Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Characters of UTF-8 text: bytes that do not continue a character.
inline std::size_t text_width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

inline std::string pad_right(std::string text, std::size_t width) {
  const std::size_t w = text_width(text);
  if (w < width) text.append(width - w, ' ');
  return text;
}

inline std::string pad_left(const std::string& text, std::size_t width) {
  const std::size_t w = text_width(text);
  return w < width ? std::string(width - w, ' ') + text : text;
}

// `text` in lines of at most `width` characters, broken at spaces; each line of `text` keeps its leading
// spaces, and the lines a break makes start with `indent` spaces. `first_column`: where the text starts.
inline std::string wrap(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_column = 0) {
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

class text_table {
 public:
  enum class align { left, right };

  void column(std::string header, align a = align::right) {
    headers_.push_back(std::move(header));
    aligns_.push_back(a);
  }
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  bool empty() const { return rows_.empty(); }

  // The header and every row, each line starting with `indent`; a column as wide as its widest cell.
  std::string text(const std::string& indent = "") const {
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      width[c] = text_width(headers_[c]);
      for (const auto& r : rows_) width[c] = std::max(width[c], c < r.size() ? text_width(r[c]) : 0);
    }
    std::string out;
    const auto line = [&](const std::vector<std::string>& cells) {
      std::string text = indent;
      for (std::size_t c = 0; c < cells.size() && c < headers_.size(); ++c) {
        if (c > 0) text += "  ";
        text += aligns_[c] == align::left ? pad_right(cells[c], width[c]) : pad_left(cells[c], width[c]);
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + "\n";
    };
    line(headers_);
    for (const auto& r : rows_) line(r);
    return out;
  }

  void print(std::ostream& out) const { out << text(); }

 private:
  std::vector<std::string> headers_;
  std::vector<align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

NAPKIN_END_NAMESPACE
