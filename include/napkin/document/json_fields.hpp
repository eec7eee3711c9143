// SPDX-License-Identifier: Apache-2.0
// napkin/document/json_fields.hpp — the members every document reader takes out of a parsed JSON object: one
// member, a string, a count, each refused as napkin's input error (napkin/error.hpp) naming where it is
// ("napkin: run.json: kernels[2].name: expected a string"). The run, monitor and source-lines readers share
// them (napkin/report/json_read_*.hpp). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "napkin/document/json_writer.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

[[noreturn]] inline void bad_json_field(const std::string& where, const std::string& what) {
  raise_input_error("napkin: " + where + ": " + what);
}

inline const json_value& json_member(const json_value& o, const char* field, const std::string& where) {
  const json_value* v = o.is_object() ? o.find(field) : nullptr;
  if (v == nullptr) bad_json_field(where, std::string("no \"") + field + "\"");
  return *v;
}

inline std::string json_text(const json_value& o, const char* field, const std::string& where) {
  const json_value& v = json_member(o, field, where);
  if (!v.is_string()) bad_json_field(where + "." + field, "expected a string");
  return v.as_string();
}

inline bool is_json_count(const json_value& v) {
  // 2^63 at most: converting a larger double to an integer is undefined.
  return v.is_number() && v.as_number() >= 0 && v.as_number() <= 9.2e18 && v.as_number() == std::floor(v.as_number());
}

// `where` names the value itself.
inline std::uint64_t json_count_value(const json_value& v, const std::string& where) {
  if (!is_json_count(v)) bad_json_field(where, "expected a count (a whole number >= 0)");
  return v.kind() == json_value::type::count ? v.as_count() : static_cast<std::uint64_t>(v.as_number());
}

inline std::uint64_t json_count(const json_value& o, const char* field, const std::string& where) {
  return json_count_value(json_member(o, field, where), where + "." + field);
}

}  // namespace detail
NAPKIN_END_NAMESPACE
