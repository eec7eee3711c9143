// SPDX-License-Identifier: Apache-2.0
// napkin/document/rank.hpp's rank detection and host name: the function bodies. Included by rank.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include <unistd.h>

#include "napkin/document/rank.hpp"
#include "napkin/document/report_context.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::optional<std::string> process_environment(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

namespace detail {

// A non-negative decimal integer that fits int64; surrounding spaces are not accepted (a launcher never
// writes them, so they mean something else went wrong). Returns a problem or "".
NAPKIN_DETAIL_FUNC std::string parse_rank_number(const char* variable, const std::string& text, std::int64_t& out) {
  const std::string quoted = "'" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
  if (text.empty()) return std::string("napkin: ") + variable + " is set but empty";
  if (text[0] == '-') return std::string("napkin: ") + variable + " is negative: " + quoted;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::string("napkin: ") + variable + " is not a non-negative integer: " + quoted;
    const int digit = c - '0';
    if (v > (INT64_MAX - digit) / 10) return std::string("napkin: ") + variable + " overflows 64 bits: " + quoted;
    v = v * 10 + digit;
  }
  out = v;
  return {};
}

// Reads `variable` into `out` when it is set. Returns a problem or "".
NAPKIN_DETAIL_FUNC std::string read_rank_variable(const environment_lookup& env, const char* variable,
                                                  std::optional<std::int64_t>& out) {
  if (variable == nullptr || *variable == '\0') return {};
  const std::optional<std::string> text = env(variable);
  if (!text) return {};
  std::int64_t v = 0;
  std::string problem = parse_rank_number(variable, *text, v);
  if (problem.empty()) out = v;
  return problem;
}

}  // namespace detail

NAPKIN_DETAIL_FUNC detected_rank detect_rank(const environment_lookup& env) {
  detected_rank out;
  const auto fail = [&out](std::string problem) {
    detected_rank bad;
    bad.source = out.source;
    bad.problem = std::move(problem);
    return bad;
  };
  for (const rank_convention& c : rank_conventions) {
    if (!env(c.rank)) continue;
    out.source = std::string(c.launcher) + " (" + c.rank + ")";
    for (const auto& [variable, target] : {std::pair<const char*, std::optional<std::int64_t>*>{c.rank, &out.rank},
                                           {c.size, &out.world_size},
                                           {c.local_rank, &out.local_rank}}) {
      std::string problem = detail::read_rank_variable(env, variable, *target);
      if (!problem.empty()) return fail(std::move(problem));
    }
    if (out.world_size && *out.world_size == 0) return fail(std::string("napkin: ") + c.size + " is 0: a job has at least one rank");
    if (out.world_size && *out.rank >= *out.world_size)
      return fail("napkin: " + std::string(c.rank) + "=" + std::to_string(*out.rank) + " is not below " + c.size + "=" +
                  std::to_string(*out.world_size) + " (ranks count from 0)");
    if (out.world_size && out.local_rank && *out.local_rank >= *out.world_size)
      return fail("napkin: " + std::string(c.local_rank) + "=" + std::to_string(*out.local_rank) + " is not below " +
                  c.size + "=" + std::to_string(*out.world_size));
    return out;
  }
  // No rank anywhere: a local rank alone (a single-node launcher that sets only LOCAL_RANK).
  std::string problem = detail::read_rank_variable(env, "LOCAL_RANK", out.local_rank);
  if (!problem.empty()) return fail(std::move(problem));
  if (out.local_rank) out.source = "LOCAL_RANK";
  return out;
}

NAPKIN_DETAIL_FUNC std::optional<std::string> host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return std::nullopt;
  return std::string(buf);
}

NAPKIN_DETAIL_FUNC report_context process_context(const environment_lookup& env, std::string* problem) {
  report_context c;
  c.host = host_name();
  const detected_rank d = detect_rank(env);
  if (problem != nullptr) *problem = d.problem;
  c.rank = d.rank;
  c.world_size = d.world_size;
  c.local_rank = d.local_rank;
  return c;
}

NAPKIN_END_NAMESPACE
