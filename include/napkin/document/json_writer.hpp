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

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
  static json_value number(double d) {
    if (!std::isfinite(d)) return {};
    json_value v(type::number);
    v.number_ = d;
    return v;
  }
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
  json_value& set(std::string_view key, json_value v) {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return items_[i] = std::move(v);
    keys_.emplace_back(key);
    items_.push_back(std::move(v));
    return items_.back();
  }
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
  const json_value* find(std::string_view key) const noexcept {
    if (type_ != type::object) return nullptr;
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return &items_[i];
    return nullptr;
  }

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
inline std::string json_number_text(double v) {
  char buf[40];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (digits == 17 || std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  for (char& c : s)
    if (c == ',') c = '.';
  return s;
}

// The length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF).
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) n = 3, lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
  else if (b0 >= 0xF0 && b0 <= 0xF4) n = 4, lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

inline void write_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(s, i);
      if (n == 0) {
        out += "\\ufffd";  // not UTF-8: the replacement character, one per bad byte
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

// `indent` < 0: one line; otherwise pretty-printed with `indent` spaces per level.
inline void write_json_value(std::string& out, const json_value& v, int indent, int depth) {
  const auto newline = [&](int level) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
  switch (v.kind()) {
    case json_value::type::null: out += "null"; return;
    case json_value::type::boolean: out += v.as_boolean() ? "true" : "false"; return;
    case json_value::type::number: out += json_number_text(v.as_number()); return;
    case json_value::type::count: out += std::to_string(v.as_count()); return;
    case json_value::type::string: write_json_string(out, v.as_string()); return;
    case json_value::type::array:
    case json_value::type::object: {
      const bool object = v.is_object();
      out += object ? '{' : '[';
      const auto& items = v.items();
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        newline(depth + 1);
        if (object) {
          write_json_string(out, v.keys()[i]);
          out += indent < 0 ? ":" : ": ";
        }
        write_json_value(out, items[i], indent, depth + 1);
      }
      if (!items.empty()) newline(depth);
      out += object ? '}' : ']';
      return;
    }
  }
}

}  // namespace detail

// The value as JSON text: pretty-printed with `indent` spaces (2 by default), or on one line with -1.
// Documents end with a newline.
inline std::string write_json(const json_value& v, int indent = 2) {
  std::string out;
  detail::write_json_value(out, v, indent, 0);
  out += '\n';
  return out;
}

NAPKIN_END_NAMESPACE
