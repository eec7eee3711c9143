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

#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// Characters of UTF-8 text: bytes that do not continue a character.
std::size_t text_width(const std::string& s);

std::string pad_right(std::string text, std::size_t width);

std::string pad_left(const std::string& text, std::size_t width);

// `text` in lines of at most `width` characters, broken at spaces; each line of `text` keeps its leading
// spaces, and the lines a break makes start with `indent` spaces. `first_column`: where the text starts.
std::string wrap(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_column = 0);

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

  bool empty() const;

  // The header (unless `with_header` is false) and every row and note, each line starting with `indent`.
  std::string text(const std::string& indent = "", bool with_header = true) const;

  void print(std::ostream& out) const;

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

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/text/table_impl.hpp"
#endif
