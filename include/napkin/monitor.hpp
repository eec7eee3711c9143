// SPDX-License-Identifier: Apache-2.0
// napkin::monitor — an always-on phase monitor on CUPTI's PM sampling (napkin/monitor/monitor.hpp), with its
// plain-C++ parts: samples and kernel records (sample.hpp), the attribution rules (attribution.hpp), the
// report (monitor_report.hpp; make_monitor_report.hpp builds it) and its settings (settings.hpp, NAPKIN_MONITOR).
// Link napkin::profiler (CUPTI).
#pragma once

#include "napkin/config.hpp"
#include "napkin/monitor/monitor.hpp"
