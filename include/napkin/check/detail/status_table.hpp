// SPDX-License-Identifier: Apache-2.0
// napkin/check/detail/status_table.hpp — lookup in the generated status tables (*_names.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

struct status_entry {
  std::int64_t value;
  const char* name;
  const char* text;
};

template <std::size_t N>
constexpr const status_entry* find_status(const status_entry (&table)[N], std::int64_t value) noexcept {
  for (const status_entry& e : table)
    if (e.value == value) return &e;
  return nullptr;
}

// Name of `value` in `table`, or `unknown` (a name that says the code is not in this toolkit's header).
template <std::size_t N>
constexpr const char* status_table_name(const status_entry (&table)[N], std::int64_t value,
                                        const char* unknown) noexcept {
  const status_entry* e = find_status(table, value);
  return e ? e->name : unknown;
}

template <std::size_t N>
constexpr const char* status_table_text(const status_entry (&table)[N], std::int64_t value) noexcept {
  const status_entry* e = find_status(table, value);
  return e ? e->text : "";
}

// The status_traits members of a library whose names and texts come from a generated table.
template <class Status, const auto& Table>
struct table_status_names {
  static const char* name(Status s) noexcept {
    return status_table_name(Table, static_cast<std::int64_t>(s), "(a status unknown to this toolkit's header)");
  }
  static const char* description(Status s) noexcept {
    return status_table_text(Table, static_cast<std::int64_t>(s));
  }
};

}  // namespace detail
NAPKIN_END_NAMESPACE
