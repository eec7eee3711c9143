// SPDX-License-Identifier: Apache-2.0
// Size sweeps: each size argument of a workload command is one size or a list of them.
//
//   4096             one size (8K, 2^12 and 4M work as everywhere: binary multiples)
//   1K,2K,8K         these sizes
//   1024..16384*2    start..stop*FACTOR: 1024, 2048, 4096, 8192, 16384 (stops at the last <= stop)
//   1K..8K+1K        start..stop+STEP:   1024, 2048, ..., 8192
//
// Several swept sizes give every combination (the first size varies slowest); at most max_sweep_cases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "parse.hpp"

namespace napkin::cli {

inline constexpr std::size_t max_sweep_cases = 10000;

struct size_axis {
  std::string name;                  // "M"
  std::string typed;                 // as typed: a single size keeps its spelling in titles ("2^12")
  std::vector<std::int64_t> values;  // one or more
};

// One size argument as a list of sizes. `count` allows zero (padding); every other size is positive.
inline size_axis parse_axis(const std::string& text, const char* name, bool allow_zero = false) {
  const auto one = [&](const std::string& t) { return allow_zero ? parse_count(t, name) : parse_size(t, name); };
  size_axis axis{name, text, {}};
  const auto fail = [&](const std::string& why) {
    throw usage_error(std::string(name) + " is not a size or a sweep: '" + quote_input(text) + "' (" + why + ")");
  };
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) {
    if (text.find(',') == std::string::npos) {
      axis.values.push_back(one(text));
      return axis;
    }
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      axis.values.push_back(one(text.substr(start, comma - start)));
      if (axis.values.size() > max_sweep_cases) fail("more than " + std::to_string(max_sweep_cases) + " sizes");
      start = comma + 1;
    }
    return axis;
  }
  const std::string rest = text.substr(dots + 2);
  const std::size_t op = rest.find_first_of("*+");
  if (op == std::string::npos) fail("a range needs a factor or a step: start..stop*2 or start..stop+1K");
  const std::int64_t first = one(text.substr(0, dots));
  const std::int64_t last = one(rest.substr(0, op));
  const bool geometric = rest[op] == '*';
  const std::int64_t by = parse_size(rest.substr(op + 1), geometric ? "the factor" : "the step");
  if (geometric && by < 2) fail("the factor must be at least 2");
  if (last < first) fail("the stop is below the start");
  for (std::int64_t v = first; v <= last;) {
    axis.values.push_back(v);
    if (axis.values.size() > max_sweep_cases) fail("more than " + std::to_string(max_sweep_cases) + " sizes");
    if (geometric ? v > std::numeric_limits<std::int64_t>::max() / by
                  : v > std::numeric_limits<std::int64_t>::max() - by)
      break;
    v = geometric ? (v == 0 ? last + 1 : v * by) : v + by;  // 0 * factor stays 0: a count sweep from 0 ends
  }
  return axis;
}

// Every combination of the axes' values, the first axis varying slowest.
inline std::vector<std::vector<std::int64_t>> sweep_cases(const std::vector<size_axis>& axes) {
  std::size_t total = 1;
  for (const size_axis& a : axes) {
    total *= a.values.size();
    if (total > max_sweep_cases)
      throw usage_error("the sweep has more than " + std::to_string(max_sweep_cases) + " cases");
  }
  std::vector<std::vector<std::int64_t>> cases(total, std::vector<std::int64_t>(axes.size()));
  std::size_t repeat = total;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    repeat /= axes[a].values.size();
    for (std::size_t i = 0; i < total; ++i) cases[i][a] = axes[a].values[(i / repeat) % axes[a].values.size()];
  }
  return cases;
}

}  // namespace napkin::cli
