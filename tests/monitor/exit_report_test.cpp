// The report napkin::monitor writes at exit (napkin/monitor/exit_report.hpp): the form NAPKIN_MONITOR asks
// for, to a file or stderr, and a clear message (never a crash) when the file cannot be written.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "monitor/helpers.hpp"
#include "napkin/monitor/exit_report.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/system/system_view.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
monitor_report one_kernel() {
  const std::vector<kernel_record> k = {kernel("copy", 0, 1000, {"step"})};
  return make_monitor_report(k, attribute({sample(0, 1000, 20, 80, 30, 40, 600, 400)}, k, {}, keep_first()));
}
std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("each form") {
  const monitor_report r = one_kernel();
  CHECK(render_monitor_report(r, monitor_report_format::text) == to_text(r));
  CHECK(render_monitor_report(r, monitor_report_format::json) == to_json(r) + "\n");
  CHECK(render_monitor_report(r, monitor_report_format::csv) == to_csv(r));
  CHECK(render_monitor_report(r, monitor_report_format::key_values) == to_key_values(r) + "\n");
}

TEST_CASE("NAPKIN_MONITOR=file=PATH.json writes the JSON document there") {
  const std::string path = std::string(NAPKIN_MONITOR_TEST_OUT) + "/exit_report.json";
  std::remove(path.c_str());
  const monitor_settings_result s = parse_monitor_settings(("file=" + path).c_str());
  REQUIRE(s.ok());
  CHECK(write_monitor_report(one_kernel(), s.settings).empty());
  const std::string written = read(path);
  CHECK(written.rfind("{\n  \"schema\": \"napkin.monitor-report\"", 0) == 0);
  CHECK(written.find("\"name\": \"kernel: copy\"") != std::string::npos);
}

TEST_CASE("CSV with a system view: its table goes to PATH.system.csv beside the monitor's") {
  CHECK(system_csv_path("out/report.csv") == "out/report.system.csv");
  CHECK(system_csv_path("report") == "report.system.csv");
  CHECK(system_csv_path(".csv") == ".system.csv");
  CHECK(system_csv_path("a.csv.txt") == "a.csv.txt.system.csv");

  // One kernel of phase 1 ("step") [1000, 1100) ns: the run's row says 1 kernel, span 100 ns.
  monitor_report r = one_kernel();
  system_view v;
  system_records records;
  gpu_work k;
  k.start_ns = 1000;
  k.end_ns = 1100;
  k.phase = 1;
  k.instance = 1;
  k.name = "copy";
  records.work.push_back(k);
  v.add(records);
  r.system = v.report({"", "step"});

  const std::string path = std::string(NAPKIN_MONITOR_TEST_OUT) + "/exit_report.csv";
  const std::string system_path = std::string(NAPKIN_MONITOR_TEST_OUT) + "/exit_report.system.csv";
  std::remove(path.c_str());
  std::remove(system_path.c_str());
  monitor_settings s;
  s.report_format = monitor_report_format::csv;
  s.report_file = path;
  CHECK(write_monitor_report(r, s).empty());
  CHECK(read(path) == to_csv(r));  // the monitor's table alone
  const std::string system = read(system_path);
  CHECK(system.rfind("phase,instances,span_ns,busy_ns,idle_ns,", 0) == 0);
  CHECK(system.find("\n(run),1,100,100,0,0,") != std::string::npos);  // the run's counts: the phases' totals
  CHECK(system.find("\nstep,1,100,100,0,0,") != std::string::npos);

  s.report_file = std::string(NAPKIN_MONITOR_TEST_OUT) + "/no such folder/r.csv";
  CHECK(write_monitor_report(r, s).find("napkin: monitor: cannot write the report to \"") == 0);
}

TEST_CASE("a file that cannot be written: a message, no crash") {
  monitor_settings s;
  s.report_file = std::string(NAPKIN_MONITOR_TEST_OUT) + "/no such folder/report.json";
  const std::string why = write_monitor_report(one_kernel(), s);
  CHECK(why.find("napkin: monitor: cannot write the report to \"") == 0);
  CHECK(why.find("no such folder/report.json\": No such file or directory") != std::string::npos);
}

TEST_CASE("report_schedule: every period from the start; missed periods are skipped, not fired in a burst") {
  report_schedule s(100, 1000);  // due at 1100, 1200, ...
  CHECK_FALSE(s.due(1099));
  CHECK(s.due(1100));
  CHECK_FALSE(s.due(1150));  // once per period
  CHECK(s.due(1250));
  CHECK(s.next_ns() == 1300);
  CHECK(s.due(1730));  // 1300..1700 missed: one report, the next at 1800
  CHECK(s.next_ns() == 1800);
  CHECK_FALSE(s.due(1799));
  report_schedule never(0, 1000);  // every= unset
  CHECK_FALSE(never.due(1000));
  CHECK_FALSE(never.due(~std::uint64_t{0}));
}
