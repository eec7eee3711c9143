// SPDX-License-Identifier: Apache-2.0
// The text layout every renderer of the `napkin` tool shares (render.hpp, gpu_facts.hpp): the column limit,
// bytes with their binary value, report rows, counts. Numbers become text through napkin/text/numbers.hpp.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

namespace napkin::cli {

// Every line of the CLI's text output fits in this many columns (tests/cli checks it).
inline constexpr std::size_t max_columns = 100;

// Bytes in decimal units (bandwidths are decimal) and, where it differs, the binary value beside them:
// "4.295 GB (4 GiB)", "100.7 MB (96 MiB)", "512 B".
inline std::string bytes_text(double bytes) {
  const std::string decimal = si(bytes, "B");
  static constexpr struct {
    double scale;
    const char* unit;
  } binary[] = {{1125899906842624.0, "PiB"}, {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"},
                {1024.0, "KiB"}};
  for (const auto& b : binary)
    if (bytes >= b.scale) {
      const double v = bytes / b.scale;
      return decimal + " (" + (v == static_cast<double>(static_cast<long long>(v)) ? fixed(v, 0) : significant(v)) + " " +
             b.unit + ")";
    }
  return decimal;
}

inline std::string flop_per_byte(double v) { return significant(v) + " FLOP/B"; }

// One report row: "  <label padded to 14><value>[   <note>]", the note wrapped under itself.
inline void print_row(std::ostream& out, const char* label, const std::string& value, const std::string& note = {}) {
  std::string line = "  " + pad_right(label, 14) + value;
  if (!note.empty()) {
    const std::size_t column = text_width(line) + 3;
    line += "   " + wrap(note, max_columns, column < 60 ? column : 18, column);
  }
  out << line << "\n";
}

inline std::string count_text(int n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace napkin::cli
