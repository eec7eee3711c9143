// SPDX-License-Identifier: Apache-2.0
// napkin/detail/switch_word.hpp — the one reader of napkin's on/off environment variables
// (NAPKIN_SYNC_LAUNCHES, NAPKIN_NVTX, NAPKIN_MONITOR): 1/0, true/false, on/off, yes/no, in any case, with
// spaces and tabs around them ignored. Anything else is not a switch word, and each caller says so naming
// its variable (switch_word_problem): NAPKIN_SYNC_LAUNCHES=no used to turn sync launches on. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

namespace detail {

enum class switch_word { on, off, other };

inline std::string_view trim_blanks(std::string_view v) noexcept {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

inline bool same_word_any_case(std::string_view v, std::string_view lower_word) noexcept {
  if (v.size() != lower_word.size()) return false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_word[i]) return false;
  }
  return true;
}

inline switch_word parse_switch_word(std::string_view value) noexcept {
  const std::string_view v = trim_blanks(value);
  for (std::string_view w : {"1", "true", "on", "yes"})
    if (same_word_any_case(v, w)) return switch_word::on;
  for (std::string_view w : {"0", "false", "off", "no"})
    if (same_word_any_case(v, w)) return switch_word::off;
  return switch_word::other;
}

// "napkin: NAPKIN_NVTX=\"maybe\" is not on or off (1/0, true/false, on/off or yes/no, any case)".
inline std::string switch_word_problem(const char* variable, std::string_view value) {
  return "napkin: " + std::string(variable) + "=\"" + std::string(value) +
         "\" is not on or off (1/0, true/false, on/off or yes/no, any case)";
}

}  // namespace detail

NAPKIN_END_NAMESPACE
