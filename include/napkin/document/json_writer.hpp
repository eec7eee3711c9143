// SPDX-License-Identifier: Apache-2.0
// napkin/document/json_writer.hpp — a JSON value (json_value) and its text (write_json): what every napkin
// report document is built from before it is written, and what report/json_read.hpp reads back into.
//
// Plain C++17, no dependency. The text follows RFC 8259:
//   - strings: `"` and `\` escaped, control characters (U+0000..U+001F) as \n, \t, ... or \u00XX; UTF-8
//     passes through unchanged; a byte sequence that is not valid UTF-8 becomes U+FFFD (so the document
//     is always valid JSON, whatever bytes a kernel name holds);
//   - numbers: the shortest of %.15g / %.16g / %.17g that reads back as the same double (so every value
//     round-trips exactly), whatever the C locale's decimal point; counts (std::uint64_t) as integers;
//   - NaN and infinities are never written: json_value::number() of a non-finite value is null.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// A JSON value. Objects keep their members in insertion order (stable documents, readable diffs).
class json_value {
 public:
  enum class type { null, boolean, number, count, string, array, object };

  json_value() = default;
  static json_value null() { return {}; }
  static json_value boolean(bool b) {
    json_value v(type::boolean);
    v.boolean_ = b;
    return v;
  }
  // A non-finite double becomes null: JSON has no NaN or infinity.
  static json_value number(double d);
  static json_value count(std::uint64_t n) {
    json_value v(type::count);
    v.count_ = n;
    return v;
  }
  static json_value string(std::string s) {
    json_value v(type::string);
    v.string_ = std::move(s);
    return v;
  }
  static json_value array() { return json_value(type::array); }
  static json_value object() { return json_value(type::object); }

  type kind() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == type::null; }
  bool is_number() const noexcept { return type_ == type::number || type_ == type::count; }
  bool is_string() const noexcept { return type_ == type::string; }
  bool is_object() const noexcept { return type_ == type::object; }
  bool is_array() const noexcept { return type_ == type::array; }
  bool as_boolean() const noexcept { return boolean_; }
  // A count reads as a double too (exact up to 2^53).
  double as_number() const noexcept { return type_ == type::count ? static_cast<double>(count_) : number_; }
  std::uint64_t as_count() const noexcept { return count_; }
  const std::string& as_string() const noexcept { return string_; }

  // Arrays: the items. Objects: the member values, in order; keys() holds their names.
  const std::vector<json_value>& items() const noexcept { return items_; }
  const std::vector<std::string>& keys() const noexcept { return keys_; }

  // Appends to an array (returns the new item).
  json_value& push(json_value v) {
    items_.push_back(std::move(v));
    return items_.back();
  }
  // Sets an object member (replaces one of the same name; returns it).
  json_value& set(std::string_view key, json_value v);
  // Appends a member the caller knows to be new, without the search of set() (the JSON reader keeps an index
  // of the names it has seen, so that reading an object of n members is not n^2 work).
  json_value& add_member(std::string key, json_value v) {
    keys_.push_back(std::move(key));
    items_.push_back(std::move(v));
    return items_.back();
  }
  // The member or item at position i (i < items().size()).
  json_value& item_at(std::size_t i) { return items_[i]; }
  // The member `key` of an object; nullptr when absent (or when this is not an object).
  const json_value* find(std::string_view key) const noexcept;

 private:
  explicit json_value(type t) : type_(t) {}
  type type_ = type::null;
  bool boolean_ = false;
  double number_ = 0;
  std::uint64_t count_ = 0;
  std::string string_;
  std::vector<std::string> keys_;   // objects: member names, parallel to items_
  std::vector<json_value> items_;  // arrays: items; objects: member values
};

// "null", "boolean", ... for error messages.
constexpr std::string_view to_string(json_value::type t) noexcept {
  switch (t) {
    case json_value::type::null: return "null";
    case json_value::type::boolean: return "boolean";
    case json_value::type::number: return "number";
    case json_value::type::count: return "number";
    case json_value::type::string: return "string";
    case json_value::type::array: return "array";
    case json_value::type::object: return "object";
  }
  return "unknown";
}

namespace detail {

// A finite double as the shortest %.15g..%.17g text that reads back as the same value. The locale's
// decimal point (snprintf and strtod both follow it) is written as '.'.
std::string json_number_text(double v);

}  // namespace detail

// The value as JSON text: pretty-printed with `indent` spaces (2 by default), or on one line with -1.
// Documents end with a newline.
std::string write_json(const json_value& v, int indent = 2);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/document/json_writer_impl.hpp"
#endif
