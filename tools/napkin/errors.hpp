// SPDX-License-Identifier: Apache-2.0
// The `napkin` CLI's bad-input error and the text helpers every part uses: quote_input() (napkin/text/printable.hpp)
// for the user's text in messages, comma_list(). No CLI11 here: the fuzz target (tests/fuzz/cli_numbers.cpp) builds
// parse.hpp with this header alone.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "napkin/text/printable.hpp"

namespace napkin::cli {

// Bad command-line input: main prints "napkin <command>: <message>" and exits with 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// quote_input(): the user's text in a message (napkin/text/printable.hpp).
using napkin::quote_input;

// "a, b, c": the names of `items`, as `name(item)` gives them.
template <class Items, class Name>
std::string comma_list(const Items& items, Name name) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ", ") + std::string(name(item));
  return list;
}

}  // namespace napkin::cli
