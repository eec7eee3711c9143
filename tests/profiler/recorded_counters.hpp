// SPDX-License-Identifier: Apache-2.0
// The zoo kernels' counters ncu recorded on an H200 (tests/profiler/data/zoo_h200_*.csv: kernel,metric,value
// lines, made by data/make_zoo_why.py and make_zoo_deeper.py), each kernel as a sol_report holding them: what
// the sections' and the deeper verdict's tests read.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "napkin/profiler/sol_report.hpp"

namespace recorded_counters {

// Adds the file's counters to `out`, one report per kernel.
inline void read_into(std::map<std::string, napkin::sol_report>& out, const std::string& file) {
  std::ifstream in(std::string(NAPKIN_PROFILER_TEST_DATA "/") + file);
  REQUIRE(in);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kernel, metric, value;
    std::getline(fields, kernel, ',');
    std::getline(fields, metric, ',');
    std::getline(fields, value);
    napkin::sol_report& r = out[kernel];
    r.name = kernel;
    r.chip = "GH100";
    r.metric_set = "ncu";
    r.values[metric] = std::stod(value);
  }
}

}  // namespace recorded_counters
