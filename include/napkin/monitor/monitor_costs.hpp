// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/monitor_costs.hpp — what napkin::monitor costs the host: CPU time by part (monitor::cpu())
// and wall time inside CUPTI's decode calls (monitor::decode_time()), for the overhead table in
// docs/monitor.md. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>

NAPKIN_BEGIN_NAMESPACE

// CPU seconds spent by whichever thread drained (mostly the monitor's own), by part.
struct monitor_cpu_use {
  double decode_s = 0;     // CUPTI's decode and evaluation of the samples
  double activity_s = 0;   // flushing and reading CUPTI's kernel records
  double attribute_s = 0;  // attributing samples to kernels and phases
  std::size_t decoded_samples = 0, kernels = 0;
  double total_s() const { return decode_s + activity_s + attribute_s; }
};

// Wall seconds inside the sampler's decode steps, by CUPTI call group.
struct monitor_decode_wall {
  double decode_s = 0, evaluate_s = 0, initialize_s = 0;
  monitor_decode_wall& operator+=(const monitor_decode_wall& o) noexcept {
    decode_s += o.decode_s;
    evaluate_s += o.evaluate_s;
    initialize_s += o.initialize_s;
    return *this;
  }
};

NAPKIN_END_NAMESPACE
