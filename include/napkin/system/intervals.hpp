// SPDX-License-Identifier: Apache-2.0
// napkin/system/intervals.hpp — sets of time intervals for the system view: half-open [start, end) ns
// intervals, kept sorted and disjoint, with union, intersection, difference and length. The view's spans,
// busy time and idle time are lengths of such sets (docs/system.md). Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

struct time_interval {
  std::uint64_t start_ns = 0, end_ns = 0;
};

// A set of instants as sorted, disjoint, non-empty intervals.
using interval_set = std::vector<time_interval>;

namespace detail {
// A lambda, not a function: std::sort inlines it (a function pointer costs a call per comparison).
inline constexpr auto starts_before = [](const time_interval& a, const time_interval& b) noexcept {
  return a.start_ns < b.start_ns;
};
}  // namespace detail

// The union of any intervals (in any order, overlapping or touching, empty ones dropped), in v's own
// storage (the system view reuses its buffers from one settle to the next).
inline void merge_in_place(std::vector<time_interval>& v) {
  if (!std::is_sorted(v.begin(), v.end(), detail::starts_before))  // the analysis hands most in order
    std::sort(v.begin(), v.end(), detail::starts_before);
  std::size_t n = 0;
  for (const time_interval& i : v) {
    if (i.end_ns <= i.start_ns) continue;
    if (n > 0 && i.start_ns <= v[n - 1].end_ns)
      v[n - 1].end_ns = std::max(v[n - 1].end_ns, i.end_ns);
    else
      v[n++] = i;
  }
  v.resize(n);
}

// The same union, as a new set.
inline interval_set merge_intervals(std::vector<time_interval> v) {
  merge_in_place(v);
  return v;
}

inline std::uint64_t total_length(const interval_set& s) noexcept {
  std::uint64_t n = 0;
  for (const time_interval& i : s) n += i.end_ns - i.start_ns;
  return n;
}

inline interval_set unite(const interval_set& a, const interval_set& b) {
  std::vector<time_interval> v(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), v.begin(), detail::starts_before);  // both sorted: linear
  merge_in_place(v);  // sorted already: coalesced where it lies
  return v;
}

namespace detail {
// The first interval of s[from, end) that ends after t: a step when it is near (two sets of like density),
// a binary search when it is far (a few pieces against thousands of intervals).
inline std::size_t first_ending_after(const interval_set& s, std::size_t from, std::uint64_t t) noexcept {
  for (int step = 0; step < 8; ++step, ++from)
    if (from >= s.size() || s[from].end_ns > t) return from;
  return static_cast<std::size_t>(std::partition_point(s.begin() + static_cast<std::ptrdiff_t>(from), s.end(),
                                                       [t](const time_interval& i) { return i.end_ns <= t; }) -
                                  s.begin());
}
}  // namespace detail

inline interval_set intersect(const interval_set& a, const interval_set& b) {
  interval_set out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    // Skip what cannot meet: a's intervals that end before b[j] starts, and b's before a[i].
    i = detail::first_ending_after(a, i, b[j].start_ns);
    if (i >= a.size()) break;
    j = detail::first_ending_after(b, j, a[i].start_ns);
    if (j >= b.size()) break;
    const std::uint64_t s = std::max(a[i].start_ns, b[j].start_ns);
    const std::uint64_t e = std::min(a[i].end_ns, b[j].end_ns);
    if (s < e) out.push_back({s, e});
    (a[i].end_ns < b[j].end_ns) ? ++i : ++j;
  }
  return out;
}

// a without b.
inline interval_set subtract(const interval_set& a, const interval_set& b) {
  interval_set out;
  out.reserve(a.size() + a.size() / 4);  // mostly one piece per interval of a
  std::size_t j = 0;
  for (const time_interval& x : a) {
    std::uint64_t s = x.start_ns;
    j = detail::first_ending_after(b, j, s);
    std::size_t k = j;
    while (k < b.size() && b[k].start_ns < x.end_ns) {
      if (b[k].start_ns > s) out.push_back({s, b[k].start_ns});
      s = std::max(s, b[k].end_ns);
      if (s >= x.end_ns) break;
      ++k;
    }
    if (s < x.end_ns) out.push_back({s, x.end_ns});
  }
  return out;
}

// The length of [start, end) that `s` covers.
inline std::uint64_t covered_length(const interval_set& s, std::uint64_t start, std::uint64_t end) noexcept {
  auto it = std::lower_bound(s.begin(), s.end(), start,
                             [](const time_interval& i, std::uint64_t t) { return i.end_ns <= t; });
  std::uint64_t n = 0;
  for (; it != s.end() && it->start_ns < end; ++it) {
    const std::uint64_t a = std::max(it->start_ns, start), b = std::min(it->end_ns, end);
    if (a < b) n += b - a;
  }
  return n;
}

// Keeps the latest `keep` intervals (the system view's bounded history of earlier chunks).
inline void keep_latest(interval_set& s, std::size_t keep) {
  if (s.size() > keep) s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() - keep));
}

NAPKIN_END_NAMESPACE
