// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/attributes.hpp — what a range, a mark or a name accepts after its name, and as its name.
//
//   napkin::category{7}             (name it with napkin::name_category<D>(7, "I/O"))
//   napkin::payload{std::int64_t{n}}  (also int32/uint32/uint64/float/double)
//   napkin::color / rgb / argb      (napkin/nvtx/color.hpp)
// Attributes come in any order after the name. A name is a string literal, const char*, std::string,
// std::string_view, napkin::format(...) or any callable returning a string.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/color.hpp"
#include "napkin/nvtx/config.hpp"

#include <string_view>
#include <type_traits>

NAPKIN_BEGIN_NAMESPACE

using category = nvtx3::v1::category;  // napkin::category{7}
using payload = nvtx3::v1::payload;    // napkin::payload{std::int64_t{n}}

namespace detail {
template <class T>
inline constexpr bool is_attribute_v =
    std::is_same_v<T, payload> || std::is_base_of_v<category, T> || std::is_convertible_v<const T&, color>;
template <class T>
inline constexpr bool is_color_v = std::is_convertible_v<const T&, color>;
template <class... Ts>
using if_attributes = std::enable_if_t<(is_attribute_v<Ts> && ...), int>;
// A constructor taking a format and its arguments: at least one argument, none of them an attribute.
template <class... Ts>
using if_format_arguments = std::enable_if_t<(sizeof...(Ts) > 0) && (!is_attribute_v<Ts> && ...), int>;

// What napkin accepts as a name (besides NAPKIN_RANGE's call sites).
template <class Name>
inline constexpr bool is_name_v = std::is_convertible_v<const Name&, const char*> ||
                                  std::is_convertible_v<const Name&, std::string_view> ||
                                  std::is_invocable_v<const Name&>;
// The one wording of "this is not a name", wherever a name's type is checked (Accepted: the check).
template <class Name, bool Accepted = is_name_v<Name>>
constexpr void require_name() noexcept {
  static_assert(Accepted, "napkin NVTX names are string literals, const char*, std::string, "
                                 "std::string_view, napkin::format(...) or a callable returning a string");
}
}  // namespace detail

NAPKIN_END_NAMESPACE
