// SPDX-License-Identifier: Apache-2.0
// napkin/system/host_activity.hpp — what the host was doing, for the system view's idle split
// (idle_causes): host calls of all threads to three disjoint sets of time by priority (in a blocking call
// (blocks_host), else in a launch or graph launch, else in another call), and an idle set split by them,
// the rest outside CUDA, so that the four parts add up to the idle time exactly. Plain C++17; no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "napkin/system/intervals.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

struct host_activity {
  interval_set waiting;    // some thread in a blocking call
  interval_set launching;  // else some thread in a launch or graph launch
  interval_set other_api;  // else some thread in another call
};

// The three classes of host time, in priority order (host_activity's members).
enum class host_time_class : unsigned char { waiting, launching, other_api };
constexpr host_time_class time_class_of(host_call_kind k) noexcept {
  if (blocks_host(k)) return host_time_class::waiting;
  if (k == host_call_kind::launch || k == host_call_kind::graph_launch) return host_time_class::launching;
  return host_time_class::other_api;
}

// Host time as it is gathered: intervals by class, in any order, overlapping ones of a class merged as they
// come (two threads' calls at once, or a call made inside another, are one interval).
struct host_time_pieces {
  std::array<std::vector<time_interval>, 3> by_class;

  // True when the interval made a new piece (false: merged into the class's latest one).
  bool add(host_time_class c, time_interval i) {
    std::vector<time_interval>& v = by_class[static_cast<std::size_t>(c)];
    if (!v.empty() && i.start_ns <= v.back().end_ns && i.end_ns >= v.back().start_ns) {
      v.back() = {std::min(v.back().start_ns, i.start_ns), std::max(v.back().end_ns, i.end_ns)};
      return false;
    }
    v.push_back(i);
    return true;
  }
  std::size_t size() const noexcept { return by_class[0].size() + by_class[1].size() + by_class[2].size(); }
};

inline host_activity by_priority(const host_activity& t) {
  return {t.waiting, subtract(t.launching, t.waiting), subtract(t.other_api, unite(t.waiting, t.launching))};
}

// The idle time of `span` (the parts `busy` does not cover) split by what the host was doing, the rest
// host_outside_ns: one sweep over the idle gaps as they come, no set built, the host's three sets read with
// cursors that only move forward (the gaps rise). The system view's hot path: a phase's idle gaps are one
// per kernel on a busy stream (docs/system.md, "Cost").
inline idle_causes idle_split(const interval_set& span, const interval_set& busy, const host_activity& h) {
  idle_causes c;
  std::size_t cursor[3] = {0, 0, 0};
  const interval_set* sets[3] = {&h.waiting, &h.launching, &h.other_api};
  std::uint64_t* parts[3] = {&c.host_waiting_ns, &c.host_launching_ns, &c.host_other_api_ns};
  const auto gap = [&](std::uint64_t s, std::uint64_t e) {
    c.host_outside_ns += e - s;  // the classes' parts are taken out below
    for (int k = 0; k < 3; ++k) {
      const interval_set& set = *sets[k];
      cursor[k] = detail::first_ending_after(set, cursor[k], s);
      for (std::size_t i = cursor[k]; i < set.size() && set[i].start_ns < e; ++i) {
        const std::uint64_t a = std::max(set[i].start_ns, s), b = std::min(set[i].end_ns, e);
        if (a < b) *parts[k] += b - a;
      }
    }
  };
  std::size_t j = 0;
  for (const time_interval& x : span) {  // subtract(span, busy)'s walk, each piece handed to gap()
    std::uint64_t s = x.start_ns;
    j = detail::first_ending_after(busy, j, s);
    for (std::size_t k = j; k < busy.size() && busy[k].start_ns < x.end_ns; ++k) {
      if (busy[k].start_ns > s) gap(s, busy[k].start_ns);
      s = std::max(s, busy[k].end_ns);
      if (s >= x.end_ns) break;
    }
    if (s < x.end_ns) gap(s, x.end_ns);
  }
  c.host_outside_ns -= c.host_waiting_ns + c.host_launching_ns + c.host_other_api_ns;
  return c;
}

inline void add_causes(idle_causes& a, const idle_causes& b) noexcept {
  a.host_waiting_ns += b.host_waiting_ns;
  a.host_launching_ns += b.host_launching_ns;
  a.host_other_api_ns += b.host_other_api_ns;
  a.host_outside_ns += b.host_outside_ns;
}

NAPKIN_END_NAMESPACE
