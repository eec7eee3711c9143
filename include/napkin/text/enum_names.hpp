// SPDX-License-Identifier: Apache-2.0
// napkin/text/enum_names.hpp — reading an enum's short stable name back: from_string(name, all_values) loops
// over the enum's one value list and compares each value's to_string, so the names a reader accepts are
// exactly the names a writer prints, with no second string table (docs/CONTRIBUTING.md, "Enum to text").
//
// Plain C++17, no exceptions, usable in constant expressions: the math headers use it.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// The value of `values` whose to_string (found beside the enum) is `name`, exactly (case matters); nullopt
// for any other name, "unknown" included.
//   from_string(std::string_view("fp16-tc"), all_pipes)  // pipe::fp16_tensor
template <class E, std::size_t N>
constexpr std::optional<E> from_string(std::string_view name, const std::array<E, N>& values) noexcept {
  for (const E value : values)
    if (to_string(value) == name) return value;
  return std::nullopt;
}

NAPKIN_END_NAMESPACE
