// SPDX-License-Identifier: Apache-2.0
// napkin/document/json_writer.hpp's JSON value and its text: the function bodies. Included by json_writer.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "napkin/document/json_writer.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC json_value json_value::number(double d) {
  if (!std::isfinite(d)) return {};
  json_value v(type::number);
  v.number_ = d;
  return v;
}

NAPKIN_DETAIL_FUNC json_value& json_value::set(std::string_view key, json_value v) {
  for (std::size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return items_[i] = std::move(v);
  keys_.emplace_back(key);
  items_.push_back(std::move(v));
  return items_.back();
}

NAPKIN_DETAIL_FUNC const json_value* json_value::find(std::string_view key) const noexcept {
  if (type_ != type::object) return nullptr;
  for (std::size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return &items_[i];
  return nullptr;
}

namespace detail {

NAPKIN_DETAIL_FUNC std::string json_number_text(double v) {
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
NAPKIN_DETAIL_FUNC std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
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

NAPKIN_DETAIL_FUNC void write_json_string(std::string& out, std::string_view s) {
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
NAPKIN_DETAIL_FUNC void write_json_value(std::string& out, const json_value& v, int indent, int depth) {
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

NAPKIN_DETAIL_FUNC std::string write_json(const json_value& v, int indent) {
  std::string out;
  detail::write_json_value(out, v, indent, 0);
  out += '\n';
  return out;
}

NAPKIN_END_NAMESPACE
