// SPDX-License-Identifier: Apache-2.0
// The `napkin` CLI's parsing of the user's text: sizes (8K, 2^28; binary multiples), compute
// capabilities, durations (1.2ms) and rates (66.9T; decimal multiples). Names (GPUs, types, pipes) are in
// names.hpp. Plain C++17 without CLI11, so that the fuzz target builds it alone.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "napkin/occupancy.hpp"

namespace napkin::cli {

// Free functions of the user's text: each returns the value or throws usage_error whose message names
// the argument (`what`) and quotes the text as typed, shortened by quote_input(). They never recurse and
// never throw anything else (but std::bad_alloc), so a fuzzer can call them directly:
//   std::string   quote_input(std::string_view text)
//   std::int64_t  parse_quantity(const std::string& text, const char* what)   >= 0: 4096, 8K, 2^28
//   std::int64_t  parse_size(const std::string& text, const char* what)       > 0
//   std::int64_t  parse_count(const std::string& text, const char* what)      >= 0
//   int           parse_int(const std::string& text, const char* what, bool allow_zero = true)
//   int           parse_carveout(const std::string& text)                    -1 (default) or 0..100
//   compute_capability parse_cc(const std::string& text)                     9.0, 90, sm_90, sm_90a
//   double        parse_duration(const std::string& text, const char* what)  seconds: 1.2ms, 850us, 3s
//   double        parse_rate(const std::string& text, const char* what, unit) 66.9T, 3.35TB/s (decimal)

// The longest text a size may have: 19 digits fit in int64, a power like 2^62 or 1K^4 is shorter.
inline constexpr std::size_t max_quantity_length = 64;

namespace detail {

// Digits, optionally followed by K, M, G or T (binary multiples). Returns nullptr and sets `value`, or
// the reason the text is not a number.
inline const char* parse_number(std::string_view s, std::int64_t& value) {
  constexpr const char* expected = "expected digits, optionally followed by K, M, G or T, or a power like 2^28";
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0) return expected;
  std::int64_t multiplier = 1;
  if (digits + 1 == s.size()) {
    switch (s[digits]) {
      case 'k': case 'K': multiplier = std::int64_t{1} << 10; break;
      case 'm': case 'M': multiplier = std::int64_t{1} << 20; break;
      case 'g': case 'G': multiplier = std::int64_t{1} << 30; break;
      case 't': case 'T': multiplier = std::int64_t{1} << 40; break;
      default: return expected;
    }
  } else if (digits != s.size()) {
    return expected;
  }
  std::int64_t v = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const int d = s[i] - '0';
    if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) return "too large for 64 bits";
    v = v * 10 + d;
  }
  if (v > std::numeric_limits<std::int64_t>::max() / multiplier) return "too large for 64 bits";
  value = v * multiplier;
  return nullptr;
}

}  // namespace detail

// A non-negative quantity: 4096, 8K (8·1024), 4M, 2G, 1T (binary multiples, as in "4K context"), or a
// power BASE^EXPONENT of two such numbers (2^28; 2^0 = 1). At most max_quantity_length characters.
inline std::int64_t parse_quantity(const std::string& text, const char* what) {
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw usage_error(std::string(what) + " is not a size: '" + quote_input(text) + "' (" + why + ")");
  };
  if (text.size() > max_quantity_length)
    return fail(std::to_string(text.size()) + " characters; a size has at most " +
                std::to_string(max_quantity_length));
  if (text.empty()) return fail("empty");
  if (text[0] == '-') throw usage_error(std::string(what) + " must not be negative, got '" + quote_input(text) + "'");
  const std::string_view s = text;
  const std::size_t caret = s.find('^');
  std::int64_t base = 0;
  if (const char* why = detail::parse_number(s.substr(0, caret), base)) return fail(why);
  if (caret == std::string_view::npos) return base;
  if (s.find('^', caret + 1) != std::string_view::npos) return fail("at most one '^': BASE^EXPONENT, e.g. 2^28");
  std::int64_t exponent = 0;
  if (const char* why = detail::parse_number(s.substr(caret + 1), exponent)) return fail(why);
  if (exponent == 0) return 1;
  if (base <= 1) return base;  // 0^k = 0 and 1^k = 1, without looping `exponent` times
  std::int64_t v = 1;
  for (std::int64_t i = 0; i < exponent; ++i) {  // at most 63 rounds: base >= 2 overflows by then
    if (v > std::numeric_limits<std::int64_t>::max() / base) return fail("too large for 64 bits");
    v *= base;
  }
  return v;
}

// A positive size, written as parse_quantity reads it.
inline std::int64_t parse_size(const std::string& text, const char* what = "size") {
  if (!text.empty() && text[0] == '-')
    throw usage_error(std::string(what) + " must be positive, got '" + quote_input(text) + "'");
  const std::int64_t v = parse_quantity(text, what);
  if (v == 0) {
    const bool plain_zero = text.find_first_not_of('0') == std::string::npos;
    throw usage_error(std::string(what) + " must be positive, got '" + quote_input(text) + "'" +
                      (plain_zero ? "" : " (= 0)"));
  }
  return v;
}

// A non-negative count (padding, number of inputs, ops per element): "0", "00" and "0K" are zero.
inline std::int64_t parse_count(const std::string& text, const char* what) { return parse_quantity(text, what); }

// A count or size that fits in an int.
inline int parse_int(const std::string& text, const char* what, bool allow_zero = true) {
  const std::int64_t v = allow_zero ? parse_count(text, what) : parse_size(text, what);
  if (v > std::numeric_limits<int>::max())
    throw usage_error(std::string(what) + " is too large: '" + quote_input(text) + "'");
  return static_cast<int>(v);
}

// cudaFuncAttributePreferredSharedMemoryCarveout as napkin::kernel_resources takes it: -1 (or
// "default") for the driver's default, else a percentage 0..100.
inline int parse_carveout(const std::string& text) {
  if (text == "-1" || text == "default") return -1;
  const bool digits = !text.empty() && text.size() <= 3 && text.find_first_not_of("0123456789") == std::string::npos;
  const int v = digits ? std::stoi(text) : -2;
  if (v < 0 || v > 100)
    throw usage_error("carveout must be -1 (the driver's default) or 0..100, got '" + quote_input(text) + "'");
  return v;
}

// A compute capability: "9.0", "12.1", "90", "120", "sm_90", "compute_90", and the architecture- and
// family-specific targets "sm_90a", "sm_100f" (same compute capability).
inline compute_capability parse_cc(const std::string& text) {
  const auto fail = [&]() -> compute_capability {
    throw usage_error("not a compute capability: '" + quote_input(text) + "' (e.g. 9.0, 12.1, 90, sm_90 or sm_90a)");
  };
  std::string_view s = text;
  const auto digits_only = [](std::string_view d, std::size_t min, std::size_t max) {
    return d.size() >= min && d.size() <= max && d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const auto number = [](std::string_view d) {
    int v = 0;
    for (char c : d) v = v * 10 + (c - '0');
    return v;
  };
  bool target = false;  // sm_XY / compute_XY
  for (std::string_view prefix : {std::string_view("sm_"), std::string_view("compute_")})
    if (s.substr(0, prefix.size()) == prefix) {
      s.remove_prefix(prefix.size());
      target = true;
      break;
    }
  if (target && !s.empty() && (s.back() == 'a' || s.back() == 'f')) s.remove_suffix(1);
  const std::size_t dot = s.find('.');
  if (!target && dot != std::string_view::npos) {
    const std::string_view major = s.substr(0, dot), minor = s.substr(dot + 1);
    if (!digits_only(major, 1, 2) || !digits_only(minor, 1, 1)) return fail();
    return {number(major), number(minor)};
  }
  if (!digits_only(s, 2, 3)) return fail();
  return {number(s.substr(0, s.size() - 1)), s.back() - '0'};
}

namespace detail {

// A plain decimal number ("1.2", "66.9", "3e12"): its length in `s` (0 when there is none) and value.
// strtod alone would also take "inf", "nan", hex and leading blanks; the characters are checked first.
inline std::size_t leading_decimal(std::string_view s, double& value) {
  std::size_t n = 0;
  bool digits = false;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n, digits = true;
  if (n < s.size() && s[n] == '.') {
    ++n;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n, digits = true;
  }
  if (!digits) return 0;
  if (n + 1 < s.size() && (s[n] == 'e' || s[n] == 'E')) {  // an exponent only when digits follow
    std::size_t e = n + 1;
    if (s[e] == '+' || s[e] == '-') ++e;
    const std::size_t first = e;
    while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
    if (e > first) n = e;
  }
  const std::string number(s.substr(0, n));
  value = std::strtod(number.c_str(), nullptr);
  return n;
}

}  // namespace detail

// A measured duration with its unit: "1.2ms", "850us" (or "850µs"), "42ns", "0.5s"; a space before the
// unit is allowed. A bare number is refused: 1.2 could be any unit.
inline double parse_duration(const std::string& text, const char* what) {
  const auto fail = [&](const char* why) -> double {
    throw usage_error(std::string(what) + " is not a duration: '" + quote_input(text) + "' (" + why + ")");
  };
  if (text.size() > max_quantity_length) return fail("too long");
  std::string_view s = text;
  double v = 0;
  const std::size_t n = detail::leading_decimal(s, v);
  if (n == 0) return fail("expected a number and a unit, e.g. 1.2ms, 850us, 3s");
  s.remove_prefix(n);
  if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  double scale = 0;
  if (s == "s") scale = 1;
  else if (s == "ms") scale = 1e-3;
  else if (s == "us" || s == "µs") scale = 1e-6;
  else if (s == "ns") scale = 1e-9;
  else return fail(s.empty() ? "give a unit: ns, us, ms or s" : "the unit must be ns, us, ms or s");
  const double seconds = v * scale;
  if (!(seconds > 0) || !std::isfinite(seconds)) return fail("must be positive");
  // 1 ps to 10^6 s (11.6 days): outside it no kernel's time, and 5e-324 s gave "inf FLOP/s", 1e300 s a
  // 300-digit line.
  if (seconds < 1e-12 || seconds > 1e6) return fail("must be within 1 ps and 1e6 s");
  return seconds;
}

// A rate with an optional DECIMAL prefix (k, M, G, T, P: 66.9T = 66.9e12, as datasheets quote peaks and
// bandwidths) and optionally the unit itself: "66.9T", "66.9e12", "989.4TFLOP/s", "3.35TB/s".
inline double parse_rate(const std::string& text, const char* what, std::string_view unit) {
  const auto fail = [&](const std::string& why) -> double {
    throw usage_error(std::string(what) + " is not a rate: '" + quote_input(text) + "' (" + why + ")");
  };
  if (text.size() > max_quantity_length) return fail("too long");
  std::string_view s = text;
  double v = 0;
  const std::size_t n = detail::leading_decimal(s, v);
  if (n == 0) return fail("expected a number with an optional k, M, G, T or P, e.g. 66.9T");
  s.remove_prefix(n);
  if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  double scale = 1;
  if (!s.empty()) {
    switch (s.front()) {
      case 'k': scale = 1e3; break;
      case 'M': scale = 1e6; break;
      case 'G': scale = 1e9; break;
      case 'T': scale = 1e12; break;
      case 'P': scale = 1e15; break;
      default: break;
    }
    if (scale != 1) s.remove_prefix(1);
  }
  if (!s.empty() && s != unit)
    return fail("after the number: k, M, G, T or P (decimal), then optionally " + std::string(unit));
  const double rate = v * scale;
  if (!(rate > 0) || !std::isfinite(rate)) return fail("must be positive");
  return rate;
}

}  // namespace napkin::cli
