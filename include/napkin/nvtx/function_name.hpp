// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/function_name.hpp — the name NAPKIN_FUNC_RANGE gives a range: the compiler's function
// signature (GCC/Clang __PRETTY_FUNCTION__) cleaned into the qualified name a person reads.
//
//   "static int* ns::S<T>::g() [with T = float]"            -> "ns::S<T>::g"
//   "auto main()::(anonymous class)::operator()(int) const" -> "main::lambda@42"   (42: the macro's line)
// More examples, from GCC 12 and Clang 14, in tests/nvtx/names_test.cpp.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE
namespace detail {
inline bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
}
struct bracket_pair {
  char open;
  char close;
};
inline constexpr bracket_pair parentheses{'(', ')'};
inline constexpr bracket_pair angle_brackets{'<', '>'};
inline constexpr bracket_pair square_brackets{'[', ']'};
// Where the bracket that `s`'s last character closes opens, or npos (s.back() must be b.close).
inline std::size_t opening_of_last(std::string_view s, bracket_pair b) noexcept {
  int depth = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == b.close) ++depth;
    if (s[i] == b.open && --depth == 0) return i;
  }
  return std::string_view::npos;
}
// Where the bracket opened at s[at] closes, or npos.
inline std::size_t closing_of(std::string_view s, std::size_t at, bracket_pair b) noexcept {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    if (s[i] == b.open) ++depth;
    if (s[i] == b.close && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// Turns a compiler's function signature (GCC/Clang __PRETTY_FUNCTION__) into the qualified name a
// person reads: no return type, parameters, qualifiers or template bindings; lambdas become
// "enclosing::lambda@<line>". Anything it does not understand is left as is (never dropped).
inline std::string readable_function_name(std::string_view pretty, unsigned line) {
  std::string_view s = pretty;
  auto strip_suffix = [&s](std::string_view suffix) {
    if (s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
      s.remove_suffix(suffix.size());
      return true;
    }
    return false;
  };
  // Trailing template bindings: GCC " [with T = int]", Clang " [T = int]".
  if (!s.empty() && s.back() == ']') {
    const std::size_t open = opening_of_last(s, square_brackets);
    if (open != std::string_view::npos && open > 0 && s[open - 1] == ' ') s = s.substr(0, open - 1);
  }
  while (strip_suffix(" const") || strip_suffix(" volatile") || strip_suffix(" &&") || strip_suffix(" &") ||
         strip_suffix(" noexcept")) {
  }
  // The parameter list: the parenthesis matching the final ')'.
  if (!s.empty() && s.back() == ')') {
    const std::size_t open = opening_of_last(s, parentheses);
    if (open != std::string_view::npos) s = s.substr(0, open);
  }
  // The return type ends at the last space outside brackets, before any operator name.
  std::size_t name_end = s.size();
  for (std::size_t at = s.find("operator"); at != std::string_view::npos; at = s.find("operator", at + 1)) {
    const bool starts = at == 0 || s[at - 1] == ':' || s[at - 1] == ' ';
    const bool ends = at + 8 >= s.size() || !is_identifier_char(s[at + 8]);
    if (starts && ends) {
      name_end = at;
      break;
    }
  }
  std::size_t name_begin = 0;
  int depth = 0;
  for (std::size_t i = 0; i < name_end; ++i) {
    const char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ' ' && depth == 0) name_begin = i + 1;
  }
  s = s.substr(name_begin);
  while (!s.empty() && (s.front() == '*' || s.front() == '&')) s.remove_prefix(1);

  std::string out{s};
  // Lambdas: Clang "(anonymous class)::operator()", GCC "<lambda(int)>".
  replace_all(out, "(anonymous class)::operator()", "lambda");
  for (std::size_t at = out.find("<lambda("); at != std::string::npos; at = out.find("<lambda(")) {
    const std::size_t close = closing_of(out, at, angle_brackets);
    if (close == std::string_view::npos) break;  // unbalanced: leave the rest untouched
    out.replace(at, close - at + 1, "lambda");
  }
  // Parameter lists of enclosing functions ("main()::lambda" -> "main::lambda"), but not
  // "(anonymous namespace)::", which follows a scope separator rather than a name.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != '(' || i == 0 || !(is_identifier_char(out[i - 1]) || out[i - 1] == '>')) continue;
    const std::size_t close = closing_of(out, i, parentheses);
    if (close != std::string_view::npos && out.compare(close + 1, 2, "::") == 0) out.erase(i, close - i + 1);
  }
  if (out.size() >= 6 && out.compare(out.size() - 6, 6, "lambda") == 0) {
    out += '@';
    out += std::to_string(line);
  }
  return out.empty() ? std::string{pretty} : out;
}
}  // namespace detail
NAPKIN_END_NAMESPACE
