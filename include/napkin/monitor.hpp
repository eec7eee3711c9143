// SPDX-License-Identifier: Apache-2.0
// napkin::monitor — an always-on phase monitor on CUPTI's PM sampling (napkin/monitor/monitor.hpp), with its
// report (monitor_report.hpp) and its settings (settings.hpp, NAPKIN_MONITOR). Header-only, it also brings
// what the monitor runs on: samples and kernel records (sample.hpp), the attribution rules (attribution.hpp),
// the report's builder (make_monitor_report.hpp); with NAPKIN_SEPARATE_COMPILATION=1 those are compiled in the
// file that includes napkin/compiled.hpp instead. Link napkin::profiler (CUPTI).
#pragma once

#include "napkin/config.hpp"
#include "napkin/monitor/monitor.hpp"
