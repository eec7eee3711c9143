// SPDX-License-Identifier: Apache-2.0
// A plain-text table: a header row and right- or left-aligned columns, two spaces apart. Widths count
// characters, not bytes ("µs" is one column wide). The renderers keep every table within 100 columns
// (tests/cli checks every command's output).
#pragma once

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace napkin::cli {

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

class text_table {
 public:
  enum class align { left, right };

  void column(std::string header, align a = align::right) {
    headers_.push_back(std::move(header));
    aligns_.push_back(a);
  }
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  void print(std::ostream& out) const {
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      width[c] = text_width(headers_[c]);
      for (const auto& r : rows_) width[c] = std::max(width[c], text_width(r[c]));
    }
    const auto line = [&](const std::vector<std::string>& cells) {
      std::string text;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (c > 0) text += "  ";
        text += aligns_[c] == align::left ? pad_right(cells[c], width[c]) : pad_left(cells[c], width[c]);
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out << text << "\n";
    };
    line(headers_);
    for (const auto& r : rows_) line(r);
  }

 private:
  std::vector<std::string> headers_;
  std::vector<align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace napkin::cli
