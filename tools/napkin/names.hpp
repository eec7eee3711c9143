// SPDX-License-Identifier: Apache-2.0
// The names the `napkin` CLI accepts: GPU keys and their aliases, element types, pipes, counting
// conventions. Every lookup is case-insensitive and an unknown name gets a did-you-mean from the
// closest known names (edit distance).
//
// The GPU aliases live here, in the CLI, not in napkin/math/gpu_table.hpp: they are typing shortcuts
// ("h100" for the SXM part), a choice of default SKU that a library user should make explicitly.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "napkin/math.hpp"

namespace napkin::cli {

// Each alias names exactly one table entry (tests/cli checks that every target is a key).
struct gpu_alias {
  std::string_view alias;
  std::string_view key;
};
inline constexpr std::array<gpu_alias, 12> gpu_aliases{{
    {"v100", "v100-sxm2"},
    {"a100", "a100-sxm-80gb"},
    {"a100-40gb", "a100-sxm-40gb"},
    {"a100-pcie", "a100-pcie-80gb"},
    {"h100", "h100-sxm"},
    {"h200", "h200-sxm"},
    {"3090", "rtx-3090"},
    {"rtx3090", "rtx-3090"},
    {"4090", "rtx-4090"},
    {"rtx4090", "rtx-4090"},
    {"6000-ada", "rtx-6000-ada"},
    {"rtx6000ada", "rtx-6000-ada"},
}};

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Levenshtein distance with adjacent transpositions (optimal string alignment), case-insensitive.
inline std::size_t edit_distance(std::string_view a_in, std::string_view b_in) {
  const std::string a = lower(a_in), b = lower(b_in);
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// " (did you mean 'x' or 'y'?)" for the candidates nearest to `typed`, within a third of its length (at
// least 2 edits); also those that start with what was typed. Empty when nothing is close.
inline std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates) {
  if (typed.size() > 64) return {};  // the distance table is quadratic; nobody mistypes 64 characters
  const std::size_t limit = std::max<std::size_t>(2, typed.size() / 3);
  std::size_t best = limit + 1;
  std::vector<std::string> near;
  for (const std::string& c : candidates) {
    std::size_t d = edit_distance(typed, c);
    if (typed.size() >= 2 && lower(c).rfind(lower(typed), 0) == 0) d = std::min<std::size_t>(d, 1);
    if (d < best) {
      best = d;
      near.clear();
    }
    if (d == best && d <= limit && std::find(near.begin(), near.end(), c) == near.end()) near.push_back(c);
  }
  if (near.empty()) return {};
  if (near.size() > 4) near.resize(4);
  std::string text = " (did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i)
    text += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + ("'" + near[i] + "'");
  return text + "?)";
}

// "h100" for h100-sxm: the aliases naming a table entry, comma-separated.
inline std::string aliases_of(const gpu_spec& g) {
  std::string list;
  for (const gpu_alias& a : gpu_aliases)
    if (a.key == g.key) list += (list.empty() ? "" : ", ") + std::string(a.alias);
  return list;
}

inline std::vector<std::string> gpu_names() {
  std::vector<std::string> names;
  for (const gpu_spec& g : gpu_table) names.emplace_back(g.key);
  for (const gpu_alias& a : gpu_aliases) names.emplace_back(a.alias);
  return names;
}

// The table entry for a key or an alias, any case; nullptr when there is none.
inline const gpu_spec* find_gpu_entry(std::string_view typed) {
  std::string key = lower(typed);
  for (const gpu_alias& a : gpu_aliases)
    if (a.alias == key) key = std::string(a.key);
  for (const gpu_spec& g : gpu_table)
    if (g.key == key) return &g;
  return nullptr;
}

inline const gpu_spec& lookup_gpu(std::string_view typed) {
  if (const gpu_spec* g = find_gpu_entry(typed)) return *g;
  throw usage_error("unknown GPU '" + quote_input(typed) + "'" + did_you_mean(typed, gpu_names()) +
                    "; `napkin gpus` lists the known GPUs: " +
                    comma_list(gpu_table, [](const gpu_spec& g) { return g.key; }));
}

// Other spellings napkin::parse_dtype accepts (napkin::dtype_aliases), for `napkin dtypes`: "f64, double".
inline std::string dtype_spellings(dtype t) {
  std::string text;
  for (const dtype_alias& a : dtype_aliases)
    if (a.type == t) text += (text.empty() ? "" : ", ") + std::string(a.alias);
  return text;
}

inline dtype parse_dtype_arg(std::string_view typed, const char* option = "--dtype") {
  try {
    return napkin::parse_dtype(lower(typed));
  } catch (const std::invalid_argument&) {
    std::vector<std::string> names;
    for (dtype t : all_dtypes) names.emplace_back(to_string(t));
    throw usage_error(std::string(option) + ": unknown element type '" + quote_input(typed) + "'" +
                      did_you_mean(typed, names) + " (fp64, fp32, tf32, fp16, bf16, fp8, int8 or int32; " +
                      "`napkin dtypes`)");
  }
}

inline pipe parse_pipe_arg(std::string_view typed) {
  try {
    return napkin::parse_pipe(lower(typed));
  } catch (const std::invalid_argument&) {
    std::vector<std::string> names;
    for (pipe p : all_pipes) names.emplace_back(to_string(p));
    throw usage_error("unknown pipe '" + quote_input(typed) + "'" + did_you_mean(typed, names) + " (" +
                      comma_list(all_pipes, [](pipe p) { return to_string(p); }) + "; `napkin pipes`)");
  }
}

inline counting parse_counting(std::string_view typed) {
  const std::string s = lower(typed);
  if (s == "standard") return counting::standard();
  if (s == "macs") return counting::macs();
  if (s == "dongarra") return counting::dongarra();
  throw usage_error("unknown counting convention '" + quote_input(typed) + "'" +
                    did_you_mean(typed, {"standard", "macs", "dongarra"}) + " (standard, macs or dongarra)");
}

}  // namespace napkin::cli
