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
//   t.column("count", text_table::align::right, 5);  // at least 5 wide; t.note("...") a line between rows
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

// Columns as wide as their widest cell (or a column's least width), two spaces apart, each line's trailing
// spaces dropped. A note is a line of its own between rows (a name too long for its column, a row's
// remarks): printed after the indent as it is, and no part of any column's width.
class text_table {
 public:
  enum class align { left, right };

  // `min_width`: the column is at least this wide, so that a table keeps its layout whatever the rows hold.
  void column(std::string header, align a = align::right, std::size_t min_width = 0) {
    headers_.push_back(std::move(header));
    aligns_.push_back(a);
    min_widths_.push_back(min_width);
  }
  void row(std::vector<std::string> cells) { lines_.push_back({std::move(cells), false}); }
  void note(std::string line) { lines_.push_back({{std::move(line)}, true}); }

  bool empty() const {
    for (const auto& l : lines_)
      if (!l.note) return false;
    return true;
  }

  // The header (unless `with_header` is false) and every row and note, each line starting with `indent`.
  std::string text(const std::string& indent = "", bool with_header = true) const {
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

  void print(std::ostream& out) const { out << text(); }

 private:
  struct table_line {
    std::vector<std::string> cells;
    bool note;
  };
  std::vector<std::string> headers_;
  std::vector<align> aligns_;
  std::vector<std::size_t> min_widths_;
  std::vector<table_line> lines_;
};

NAPKIN_END_NAMESPACE
