// The value lists of the enums the profiler's and the monitor's documents and settings read back from text
// (report/json_read_run.hpp, report/json_read_monitor.hpp, monitor/settings.hpp): each enumerator once, every
// name read back, an unknown name read as nothing.
#include <doctest/doctest.h>

#include "napkin/monitor/monitor_totals.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/monitor/settings.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/profiler/verdicts.hpp"
#include "support/value_lists.hpp"

using namespace napkin;

TEST_CASE("value lists of the profiler's and the monitor's enums") {
  napkin_test::check_value_list(all_bottlenecks, 8);
  napkin_test::check_value_list(all_measured_by, 7);
  napkin_test::check_value_list(all_rate_statuses, 7);
  napkin_test::check_value_list(all_idle_models, 2);
  napkin_test::check_value_list(all_monitor_report_formats, 4);
}

TEST_CASE("the names documents and settings use") {
  CHECK(from_string("memory-bound-dram", all_bottlenecks) == bottleneck::memory_bound_dram);
  CHECK(from_string("application-replay", all_measured_by) == measured_by::application_replay);
  CHECK(from_string("too-few-windows", all_rate_statuses) == rate_status::too_few_windows);
  CHECK(from_string("time-share", all_idle_models) == idle_model::time_share);
  CHECK(from_string("kv", all_monitor_report_formats) == monitor_report_format::key_values);
  CHECK_FALSE(from_string("memory-bound (DRAM)", all_bottlenecks).has_value());  // describe's words are not names
  CHECK(to_string(static_cast<monitor_report_format>(9)) == "unknown");
}
