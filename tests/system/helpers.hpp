// Synthetic records for the system view's tests: kernels, copies, memsets and host calls by hand, in
// microseconds from a base time (CUPTI times are never 0, and the view refuses 0).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_report.hpp"
#include "napkin/system/system_rules.hpp"

namespace napkin_test {

inline constexpr std::uint64_t us = 1000;
inline constexpr std::uint64_t t0 = 1'000'000'000;  // the base time, 1 s on the clock

// [t0 + start_us, t0 + end_us)
inline napkin::gpu_work kernel(double start_us, double end_us, std::uint32_t phase, std::uint64_t instance,
                               std::uint32_t stream = 1, std::string name = "k") {
  napkin::gpu_work w;
  w.kind = napkin::gpu_work_kind::kernel;
  w.start_ns = t0 + static_cast<std::uint64_t>(start_us * us);
  w.end_ns = t0 + static_cast<std::uint64_t>(end_us * us);
  w.phase = phase;
  w.instance = instance;
  w.stream = stream;
  w.name = std::move(name);
  return w;
}

inline napkin::gpu_work copy(double start_us, double end_us, std::uint32_t phase, std::uint64_t instance,
                             std::uint32_t stream, napkin::copy_direction d, napkin::host_memory m,
                             std::uint64_t bytes, std::uint32_t correlation = 0) {
  napkin::gpu_work w = kernel(start_us, end_us, phase, instance, stream, "");
  w.kind = napkin::gpu_work_kind::copy;
  w.direction = d;
  w.memory = m;
  w.bytes = bytes;
  w.correlation = correlation;
  return w;
}

inline napkin::host_call call(napkin::host_call_kind k, double start_us, double end_us, std::uint32_t phase,
                              std::uint64_t instance, std::uint32_t thread = 1, std::uint32_t correlation = 0) {
  napkin::host_call c;
  c.kind = k;
  c.start_ns = t0 + static_cast<std::uint64_t>(start_us * us);
  c.end_ns = t0 + static_cast<std::uint64_t>(end_us * us);
  c.phase = phase;
  c.instance = instance;
  c.thread = thread;
  c.correlation = correlation;
  return c;
}

inline const napkin::system_phase* find_phase(const napkin::system_report& r, const std::string& name) {
  for (const napkin::system_phase& p : r.phases)
    if (p.name == name) return &p;
  return nullptr;
}
// A phase of a temporary report would dangle: keep the report in a variable.
const napkin::system_phase* find_phase(napkin::system_report&& r, const std::string& name) = delete;

// The rules that fired, in the report's order.
inline std::vector<napkin::system_rule> fired(const napkin::system_report& r) {
  std::vector<napkin::system_rule> v;
  for (const napkin::system_finding& f : r.findings) v.push_back(f.rule);
  return v;
}

inline const napkin::system_finding* finding(const napkin::system_report& r, napkin::system_rule rule) {
  for (const napkin::system_finding& f : r.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

}  // namespace napkin_test
