// Checks of an enum's one value list (docs/CONTRIBUTING.md, "Enum to text"): every enumerator is in it once,
// every name reads back through from_string, and a name it never prints reads back as nothing.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "napkin/text/enum_names.hpp"

namespace napkin_test {

// `count`: the number of enumerators, values 0 .. count-1 (each of these enums counts up from 0).
template <class E, std::size_t N>
void check_value_list(const std::array<E, N>& values, std::size_t count) {
  CHECK(N == count);
  std::set<std::size_t> seen;
  std::set<std::string> names;
  for (const E e : values) {
    const auto index = static_cast<std::size_t>(e);
    CHECK(index < count);
    CHECK(seen.insert(index).second);  // each enumerator once
    const std::string_view name = to_string(e);
    CHECK(name != "unknown");
    CHECK(names.insert(std::string(name)).second);  // no two enumerators print the same name
    const std::optional<E> back = napkin::from_string(name, values);
    REQUIRE(back.has_value());
    CHECK(*back == e);
  }
  CHECK(seen.size() == count);
  CHECK_FALSE(napkin::from_string("unknown", values).has_value());
  CHECK_FALSE(napkin::from_string("", values).has_value());
  CHECK_FALSE(napkin::from_string("no-such-name", values).has_value());
  CHECK_FALSE(napkin::from_string(std::string(to_string(values[0])) + " ", values).has_value());
}

}  // namespace napkin_test
