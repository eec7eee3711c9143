// SPDX-License-Identifier: Apache-2.0
// napkin/system/host_activity.hpp — what the host was doing, for the system view's idle split
// (idle_causes): host calls of all threads to three disjoint sets of time by priority (in a blocking call
// (blocks_host), else in a launch or graph launch, else in another call), and an idle set split by them,
// the rest outside CUDA, so that the four parts add up to the idle time exactly. Plain C++17; no exceptions.
#pragma once

#include "napkin/config.hpp"

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

// The calls' time by class, each class merged on its own (the classes may overlap).
inline host_activity host_call_time(const std::vector<host_call>& calls) {
  std::vector<time_interval> waiting, launching, other;
  for (const host_call& c : calls) {
    const time_interval i{c.start_ns, c.end_ns};
    if (blocks_host(c.kind))
      waiting.push_back(i);
    else if (c.kind == host_call_kind::launch || c.kind == host_call_kind::graph_launch)
      launching.push_back(i);
    else
      other.push_back(i);
  }
  return {merge_intervals(std::move(waiting)), merge_intervals(std::move(launching)),
          merge_intervals(std::move(other))};
}

// host_call_time's classes made disjoint by priority: waiting, then launching, then other calls.
inline host_activity by_priority(const host_activity& t) {
  return {t.waiting, subtract(t.launching, t.waiting), subtract(t.other_api, unite(t.waiting, t.launching))};
}

// `idle` split by what the host was doing; host_outside_ns is the rest.
inline idle_causes split_idle(const interval_set& idle, const host_activity& h) {
  idle_causes c;
  c.host_waiting_ns = total_length(intersect(idle, h.waiting));
  c.host_launching_ns = total_length(intersect(idle, h.launching));
  c.host_other_api_ns = total_length(intersect(idle, h.other_api));
  c.host_outside_ns = total_length(idle) - c.host_waiting_ns - c.host_launching_ns - c.host_other_api_ns;
  return c;
}

inline void add_causes(idle_causes& a, const idle_causes& b) noexcept {
  a.host_waiting_ns += b.host_waiting_ns;
  a.host_launching_ns += b.host_launching_ns;
  a.host_other_api_ns += b.host_other_api_ns;
  a.host_outside_ns += b.host_outside_ns;
}

NAPKIN_END_NAMESPACE
