// SPDX-License-Identifier: Apache-2.0
// Which way each section number improves (section_directions.hpp): the function bodies. Included by
// section_directions.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string_view>

#include "napkin/profiler/sections/section_directions.hpp"
#include "napkin/document/better.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC better section_field_direction(std::string_view flattened_field) {
  constexpr std::string_view prefix = "sections.";
  if (flattened_field.substr(0, prefix.size()) != prefix) return better::none;
  const std::string_view rest = flattened_field.substr(prefix.size());
  const std::size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return better::none;
  const std::string_view section = rest.substr(0, dot), field = rest.substr(dot + 1);
  if (field.find('.') != std::string_view::npos || detail::is_share_field(field)) return better::none;
  for (const section_field_direction_entry& e : section_field_directions())
    if (e.section == section && e.field == field) return e.direction;
  return better::none;
}

NAPKIN_END_NAMESPACE
