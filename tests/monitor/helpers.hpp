// Synthetic samples and kernel records for the monitor's host tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/attribution.hpp"
#include "napkin/monitor/sample.hpp"

namespace monitor_test {

// A window with every reading: SM, DRAM, L1, L2-slices %, then DRAM read and write bytes.
inline napkin::pm_sample sample(std::uint64_t start, std::uint64_t end, double sm, double dram, double l1 = 0,
                                double l2 = 0, double read = 0, double write = 0) {
  napkin::pm_sample s;
  s.start_ns = start;
  s.end_ns = end;
  s.sm_pct = sm;
  s.dram_pct = dram;
  s.l1tex_pct = l1;
  s.l2_slices_pct = l2;
  s.dram_read_bytes = read;
  s.dram_write_bytes = write;
  return s;
}

inline napkin::kernel_record kernel(std::string name, std::uint64_t start, std::uint64_t end,
                                    std::vector<std::string> phase = {}, std::uint32_t stream = 0) {
  napkin::kernel_record k;
  k.name = std::move(name);
  k.start_ns = start;
  k.end_ns = end;
  k.stream_id = stream;
  k.phase = std::move(phase);
  return k;
}

// Most hand computations are easier without the setup sample; its own tests turn it back on.
inline napkin::attribution_options keep_first(napkin::idle_model m = napkin::idle_model::no_work_when_idle) {
  napkin::attribution_options o;
  o.drop_first_sample = false;
  o.idle = m;
  return o;
}

}  // namespace monitor_test
