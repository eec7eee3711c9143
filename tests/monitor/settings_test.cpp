// NAPKIN_MONITOR (napkin/monitor/settings.hpp): every accepted form, every error, the error as a value, and
// the environment itself.
#include "napkin/monitor/settings.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

using namespace napkin;

namespace {
monitor_settings ok(const char* v) {
  const monitor_settings_result r = parse_monitor_settings(v);
  CAPTURE(v);
  CHECK_MESSAGE(r.ok(), r.error);
  return r.settings;
}

std::string error(const char* v) {
  const monitor_settings_result r = parse_monitor_settings(v);
  CAPTURE(v);
  CHECK_FALSE(r.ok());
  CHECK_FALSE(r.settings.enabled);  // a bad value never switches the monitor on
  return r.error;
}
}  // namespace

TEST_CASE("the defaults, and why") {
  const monitor_settings d;
  CHECK_FALSE(d.enabled);
  CHECK(d.device == 0);
  CHECK(d.interval_ns == 1'000'000);           // 1 ms: kernels of about a millisecond resolve back to back
  // The first second of every minute: decoding follows the time sampled (0.45 CPU-s per sampled second at
  // 1 ms on an H100), so sampling all the time costs 30-60 % of a core and a sixtieth of it stays under 3 %.
  CHECK(d.sample_for_ns == 1'000'000'000);
  CHECK(d.sample_every_ns == 60'000'000'000);
  CHECK(d.hardware_buffer_bytes == 33554432);  // 32 MiB
  CHECK(d.max_samples == 4096);
  CHECK_FALSE(d.report_at_exit);
  CHECK(d.report_every_ns == 0);
  CHECK(validate_monitor_settings(d).empty());
}

TEST_CASE("off and on") {
  // One reader for every on/off variable (detail/switch_word.hpp): any case, blanks around ignored.
  for (const char* off : {"", " ", "0", "off", "OFF", "false", "FALSE", "no", "No", " off\t"}) CHECK_FALSE(ok(off).enabled);
  CHECK_FALSE(parse_monitor_settings(nullptr).settings.enabled);
  CHECK(parse_monitor_settings(nullptr).ok());
  for (const char* on : {"1", "on", "ON", "true", "True", "yes", "YES", " on "}) {
    const monitor_settings s = ok(on);
    CHECK(s.enabled);
    CHECK(s.interval_ns == monitor_settings{}.interval_ns);
  }
}

TEST_CASE("options") {
  const monitor_settings s = ok("interval=2ms,device=1,report=exit");
  CHECK(s.enabled);
  CHECK(s.interval_ns == 2'000'000);
  CHECK(s.device == 1);
  CHECK(s.report_at_exit);
  CHECK(s.hardware_buffer_bytes == monitor_settings{}.hardware_buffer_bytes);  // untouched

  CHECK(ok("interval=250ns").interval_ns == 250);
  CHECK(ok("interval=250us").interval_ns == 250'000);
  CHECK(ok("interval=0.5ms").interval_ns == 500'000);
  CHECK(ok("interval=1.25us").interval_ns == 1250);
  CHECK(ok("interval=2s").interval_ns == 2'000'000'000);
  CHECK(ok("every=10s").report_every_ns == 10'000'000'000);
  CHECK(ok("buffer=1048576").hardware_buffer_bytes == 1048576);
  CHECK(ok("buffer=512B").hardware_buffer_bytes == 512);
  CHECK(ok("buffer=4KiB").hardware_buffer_bytes == 4096);
  CHECK(ok("buffer=64MiB").hardware_buffer_bytes == 64ull << 20);
  CHECK(ok("buffer=1GiB").hardware_buffer_bytes == 1ull << 30);
  CHECK(ok("buffer=64MB").hardware_buffer_bytes == 64'000'000);
  CHECK(ok("buffer=2kB").hardware_buffer_bytes == 2000);
  CHECK(ok("buffer=2KB").hardware_buffer_bytes == 2000);
  CHECK(ok("buffer=1GB").hardware_buffer_bytes == 1'000'000'000);
  CHECK(ok("buffer=1.5MiB").hardware_buffer_bytes == 1572864);
  CHECK(ok("samples=100").max_samples == 100);
  CHECK_FALSE(ok("report=off").report_at_exit);
  CHECK_FALSE(ok("report=none").report_at_exit);
  CHECK(ok("device=0").enabled);  // any option switches it on
}

TEST_CASE("every error names the variable and the bad part") {
  CHECK(error("interval=2xs") ==
        "napkin: NAPKIN_MONITOR=\"interval=2xs\": interval: \"2xs\" is not a duration (a number above 0 and a "
        "unit: ns, us, ms or s; e.g. 5ms, 0.5ms, 250us)");
  for (const char* bad :
       {"interval=2000", "interval=0ms", "interval=ms", "interval=", "interval=-1ms", "interval=1.ms", "interval=.5ms",
        "interval=1.2.3ms", "interval=0.5ns", "interval=2 ms", "interval=99999999999999s", "interval=1.0000000001s"})
    CHECK(error(bad).find("interval: \"") != std::string::npos);
  CHECK(error("every=5").find("every: \"5\" is not a duration") != std::string::npos);
  for (const char* bad : {"device=-1", "device=x", "device=1.5", "device="})
    CHECK(error(bad).find("is not a device index") != std::string::npos);
  for (const char* bad : {"buffer=0", "buffer=12XB", "buffer=MiB", "buffer=0.5B", "buffer=99999999999999GiB"})
    CHECK(error(bad).find("buffer: \"") != std::string::npos);
  for (const char* bad : {"samples=0", "samples=1.5", "samples=many"})
    CHECK(error(bad).find("is not a sample count") != std::string::npos);
  CHECK(error("report=sometimes").find("report: \"sometimes\" is not exit or off") != std::string::npos);
  CHECK(error("intervall=2ms") ==
        "napkin: NAPKIN_MONITOR=\"intervall=2ms\": unknown option \"intervall\" (known: device, interval, buffer, "
        "samples, report, every, format, file, sample, system)");
  CHECK(error("interval=2ms,interval=3ms").find("option \"interval\" is given twice") != std::string::npos);
  CHECK(error("interval=2ms,,device=1").find("an empty option") != std::string::npos);
  CHECK(error("interval=2ms,").find("an empty option") != std::string::npos);
  CHECK(error(",interval=2ms").find("an empty option") != std::string::npos);
  CHECK(error("on,interval=2ms").find("\"on\" is not key=value (on/off must be the whole value") != std::string::npos);
  CHECK(error("maybe") == "napkin: NAPKIN_MONITOR=\"maybe\" is not on or off (1/0, true/false, on/off or yes/no, any "
                          "case), nor key=value options");
  CHECK(error("offf").find("is not on or off") != std::string::npos);
}

// Each field has a limit, and the error names the field and the limit (a buffer of 10^15 bytes, a sample
// count of 4 G or a report period of 10^6 hours used to be taken).
TEST_CASE("every field is bounded, the error names it and its limit") {
  CHECK(error("device=99999") ==
        "napkin: NAPKIN_MONITOR=\"device=99999\": device: \"99999\" is above 1024, napkin's limit for a device index");
  CHECK(error("interval=61s").find("interval: \"61s\" is above 60 s, napkin's limit") != std::string::npos);
  CHECK(error("every=86401s").find("every: \"86401s\" is above a day (86400 s)") != std::string::npos);
  CHECK(error("buffer=17GiB").find("buffer: \"17GiB\" is above 16 GiB, napkin's limit") != std::string::npos);
  CHECK(error("buffer=1000000GB").find("above 16 GiB") != std::string::npos);
  CHECK(error("samples=99999999999").find("samples: \"99999999999\" is above 16777216") != std::string::npos);
  CHECK(error("samples=4294967296").find("is above 16777216") != std::string::npos);
  CHECK(ok("device=1024,interval=60s,every=86400s,buffer=16GiB,samples=16777216").enabled);
  monitor_settings s;
  s.max_samples = std::size_t{1} << 30;
  CHECK(validate_monitor_settings(s) == "napkin: monitor max_samples must be at most 16777216, got 1073741824");
  s = monitor_settings{};
  s.device = 5000;
  CHECK(validate_monitor_settings(s) == "napkin: monitor device must be at most 1024, got 5000");
  s = monitor_settings{};
  s.hardware_buffer_bytes = std::uint64_t{1} << 40;
  CHECK(validate_monitor_settings(s).find("hardware buffer must be at most 16 GiB") != std::string::npos);
}

TEST_CASE("the exit report's form and file") {
  const monitor_settings d = ok("on");
  CHECK(d.report_format == monitor_report_format::text);
  CHECK(d.report_file.empty());
  const monitor_settings json = ok("format=json");
  CHECK(json.report_at_exit);  // format= implies a report at exit
  CHECK(json.report_format == monitor_report_format::json);
  CHECK(json.report_file.empty());  // stderr
  CHECK(ok("format=CSV").report_format == monitor_report_format::csv);
  CHECK(ok("format=kv").report_format == monitor_report_format::key_values);
  CHECK(ok("format=text,report=exit").report_format == monitor_report_format::text);
  const monitor_settings file = ok("file=/tmp/run 1/monitor.json,interval=1ms");
  CHECK(file.report_at_exit);
  CHECK(file.report_file == "/tmp/run 1/monitor.json");
  CHECK(file.report_format == monitor_report_format::json);  // from the extension
  CHECK(file.interval_ns == 1'000'000);
  CHECK(ok("file=out.CSV").report_format == monitor_report_format::csv);
  CHECK(ok("file=out.txt").report_format == monitor_report_format::text);
  CHECK(ok("file=out.json,format=text").report_format == monitor_report_format::text);  // format= wins
  CHECK(ok("format=kv,file=m.json").report_format == monitor_report_format::key_values);
  CHECK(error("format=xml").find("format: \"xml\" is not text, json, csv or kv") != std::string::npos);
  CHECK(error("file=").find("file: an empty path") != std::string::npos);
  CHECK(error("file=a.json,report=off").find("report=off contradicts format= or file=") != std::string::npos);
  CHECK(error("format=json,format=csv").find("option \"format\" is given twice") != std::string::npos);
}

TEST_CASE("validation of settings made in code") {
  monitor_settings s;
  s.interval_ns = 0;
  CHECK(validate_monitor_settings(s) == "napkin: monitor interval must be > 0");
  CHECK_THROWS_WITH_AS(check_monitor_settings(s), "napkin: monitor interval must be > 0", std::invalid_argument);
  s = {};
  s.device = -1;
  CHECK(validate_monitor_settings(s).find("device must be >= 0, got -1") != std::string::npos);
  s = {};
  s.hardware_buffer_bytes = 0;
  CHECK(validate_monitor_settings(s).find("hardware buffer") != std::string::npos);
  s = {};
  s.max_samples = 0;
  CHECK(validate_monitor_settings(s).find("max_samples") != std::string::npos);
  CHECK_NOTHROW(check_monitor_settings(monitor_settings{}));
}

TEST_CASE("from the environment: the error raised, or as a value") {
  setenv("NAPKIN_MONITOR", "interval=1ms,report=exit", 1);
  const monitor_settings s = monitor_settings_from_env();
  CHECK(s.enabled);
  CHECK(s.interval_ns == 1'000'000);
  CHECK(s.report_at_exit);
  setenv("NAPKIN_MONITOR", "interval=1xs", 1);
  const monitor_settings_result r = try_monitor_settings_from_env();
  CHECK_FALSE(r.ok());
  CHECK(r.error.find("NAPKIN_MONITOR=\"interval=1xs\"") != std::string::npos);
  CHECK_THROWS_WITH_AS(monitor_settings_from_env(), doctest::Contains("interval: \"1xs\" is not a duration"),
                       std::invalid_argument);
  unsetenv("NAPKIN_MONITOR");
  CHECK_FALSE(monitor_settings_from_env().enabled);
}

TEST_CASE("system=: the system view on (the default) or off") {
  CHECK(napkin::monitor_settings{}.system);
  CHECK(napkin::parse_monitor_settings("on").settings.system);
  CHECK(napkin::parse_monitor_settings("system=on").settings.system);
  const napkin::monitor_settings_result off = napkin::parse_monitor_settings("system=off,interval=2ms");
  REQUIRE(off.ok());
  CHECK_FALSE(off.settings.system);
  CHECK(off.settings.enabled);
  CHECK(off.settings.interval_ns == 2'000'000);
  CHECK_FALSE(napkin::parse_monitor_settings("system=no").settings.system);
  for (const char* bad : {"system=", "system=maybe", "system=2"}) {
    CAPTURE(bad);
    const napkin::monitor_settings_result r = napkin::parse_monitor_settings(bad);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("system: \"") != std::string::npos);
    CHECK(r.error.find("is not on or off") != std::string::npos);
  }
  CHECK(napkin::parse_monitor_settings("system=on,system=off").error.find("given twice") != std::string::npos);
}

TEST_CASE("sample=: part of the time") {
  const monitor_settings s = ok("sample=1s/30s");
  CHECK(s.sample_for_ns == 1'000'000'000);
  CHECK(s.sample_every_ns == 30'000'000'000);
  CHECK(validate_monitor_settings(s).empty());
  CHECK(ok("interval=1ms,sample=250ms/10s").sample_for_ns == 250'000'000);
  const monitor_settings all = ok("sample=all");  // all the time
  CHECK(all.sample_for_ns == 0);
  CHECK(all.sample_every_ns == 0);
  CHECK(validate_monitor_settings(all).empty());
  CHECK(ok("sample=ALL,interval=5ms").sample_every_ns == 0);
  // A long interval without sample=: the default stretch grows to 4 intervals, the same sixtieth of the time.
  const monitor_settings slow = ok("interval=500ms");
  CHECK(slow.sample_for_ns == 2'000'000'000);
  CHECK(slow.sample_every_ns == 120'000'000'000);
  CHECK(validate_monitor_settings(slow).empty());
  CHECK(ok("interval=250ms").sample_for_ns == 1'000'000'000);  // 4 x 250 ms fits the default second
  // What only options together refuse, the parser refuses with the validator's reason (once the fuzzer's
  // find: sample=4s/4s and a period above a day parsed, then failed validation).
  CHECK(error("interval=500ms,sample=1s/60s").find("at least 4 intervals") != std::string::npos);
  CHECK(error("sample=1s/60s,interval=500ms").find("at least 4 intervals") != std::string::npos);
  CHECK(error("sample=4s/4s").find("longer than the time sampled") != std::string::npos);
  CHECK(error("sample=4s/6744064s").find("at most a day") != std::string::npos);
  CHECK(error("sample=4s/4s").find("NAPKIN_MONITOR=\"sample=4s/4s\": monitor sample=") != std::string::npos);
  CHECK(ok("sample=4s/86400s").sample_every_ns == 86'400'000'000'000);  // a day is allowed
  CHECK(error("sample=al").find("or all") != std::string::npos);
  for (const char* bad : {"sample=1s", "sample=1s/", "sample=/30s", "sample=1/30", "sample=0s/30s", "sample=1s/0s",
                          "sample=1s-30s"})
    CHECK(error(bad).find("sample: \"") != std::string::npos);
  CHECK(error("sample=1s/30s,sample=2s/30s").find("given twice") != std::string::npos);
  // What parses but cannot be used: validation says why (the monitor stays off with it in status()).
  monitor_settings v;
  v.interval_ns = 5'000'000;
  v.sample_for_ns = 10'000'000;  // 2 intervals of 5 ms
  v.sample_every_ns = 1'000'000'000;
  CHECK(validate_monitor_settings(v).find("at least 4 intervals") != std::string::npos);
  v.sample_for_ns = 2'000'000'000;  // longer than its period
  CHECK(validate_monitor_settings(v).find("longer than the time sampled") != std::string::npos);
  v.sample_every_ns = 100'000'000'000'000;  // above a day
  CHECK(validate_monitor_settings(v).find("at most a day") != std::string::npos);
  v.sample_for_ns = 0;  // one without the other
  v.sample_every_ns = 30'000'000'000;
  CHECK_FALSE(validate_monitor_settings(v).empty());
}
