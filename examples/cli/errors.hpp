// SPDX-License-Identifier: Apache-2.0
// The `napkin` CLI's bad-input error and the text helpers every part uses: quote_input() for the user's
// text in messages, comma_list(). No CLI11 here: the fuzz target (tests/fuzz/cli_numbers.cpp) builds
// parse.hpp with this header alone.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace napkin::cli {

// Bad command-line input: main prints "napkin <command>: <message>" and exits with 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `text` as a message quotes it: at most 40 bytes (cut at a UTF-8 character boundary, then "…"), control
// characters as \xNN (a terminal escape in an argument is shown, not sent to the terminal).
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

// "a, b, c": the names of `items`, as `name(item)` gives them.
template <class Items, class Name>
std::string comma_list(const Items& items, Name name) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ", ") + std::string(name(item));
  return list;
}

}  // namespace napkin::cli
