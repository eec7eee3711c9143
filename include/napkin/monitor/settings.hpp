// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/settings.hpp — the phase monitor's settings and the NAPKIN_MONITOR environment variable
// that switches it on at run time, so that a binary can ship with the monitor off:
//
//   unset, "", 0, off, false, no          off (any case, blanks around ignored: detail/switch_word.hpp)
//   1, on, true, yes                      on, with the defaults below
//   key=value[,key=value...]              on, with these changes:
//     device=<index>                      the CUDA device to sample (default 0)
//     interval=<duration>                 the sampling interval (default 1ms): 500us, 5ms, 0.5ms, 1s (ns, us, ms, s)
//     buffer=<bytes>                      the hardware buffer: 32MiB, 64MB, 1048576 (B, KiB, MiB, GiB, kB, MB, GB)
//     samples=<count>                     decoded samples held before attribution (bounds memory)
//     report=exit|off                     print the report when the program exits, or not
//     format=text|json|csv|kv             the exit report's form (implies report=exit; default text, or
//                                         what file='s extension says: .json, .csv)
//     file=<path>                         write the exit report there instead of stderr (implies report=exit;
//                                         the path cannot hold a comma)
//     every=<duration>                    a report this often too: to monitor::on_report's callback, or written
//                                         like the exit report (format=, file=: the latest one)
//     system=on|off                       the system view: copies, host waits, idle causes, rules (default on;
//                                         docs/system.md)
//     sample=<duration>/<duration>|all    sample part of the time: 1s/30s samples the first second of every 30,
//                                         counted from the first kernel (default 1s/60s); all: all the time
//                                         (the CPU cost follows the time sampled; docs/monitor.md)
//   e.g. NAPKIN_MONITOR=interval=2ms,device=1,report=exit
// Limits (monitor_limits): device <= 1024, interval <= 60 s, every <= a day, buffer <= 16 GiB, samples <= 2^24;
// sample= needs its first duration at least 4 intervals and below the second, the second at most a day.
//
// A malformed value, or options that cannot go together (sample= against interval=), is an error naming the
// variable and the bad part: what parses, validates. monitor_settings_from_env() raises it through napkin's
// failure path; parse_monitor_settings() and try_monitor_settings_from_env() return it as a value, for a
// production binary that must not die on a typo. Plain C++17; no CUDA or CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "napkin/detail/switch_word.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

// The form of the report written at exit: to_text, the JSON document (kind "monitor-report"), its CSV, or
// to_key_values' lines.
enum class monitor_report_format { text, json, csv, key_values };
inline constexpr std::array<monitor_report_format, 4> all_monitor_report_formats{
    monitor_report_format::text, monitor_report_format::json, monitor_report_format::csv,
    monitor_report_format::key_values};

// The word NAPKIN_MONITOR's format= takes: "text", "json", "csv", "kv"; "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(monitor_report_format f) noexcept {
  switch (f) {
    case monitor_report_format::text: return "text";
    case monitor_report_format::json: return "json";
    case monitor_report_format::csv: return "csv";
    case monitor_report_format::key_values: return "kv";
  }
  return "unknown";
}

struct monitor_settings {
  bool enabled = false;
  int device = 0;
  // 1 ms: back-to-back kernels of about a millisecond resolve at 1-2 ms, mostly not at 5 ms (refused, never
  // blended). CUPTI's decode costs 0.23-0.26 CPU seconds per second sampled at 5-100 ms and ~0.45 at 1 ms (an
  // H100), so no interval sampled all the time stays near 3 % of a core: the default samples part of the time
  // (sample_for_ns below). Measurements: docs/monitor.md, "The default".
  std::uint64_t interval_ns = 1'000'000;
  // The hardware buffer of raw records. On an H200 a 512 MiB buffer held ~4,350 samples of the monitor's set at
  // 25 us (~120 KB each) and 6,118 at 200 us (~88 KB), so 32 MiB holds a few hundred: drain often, and the
  // counter-data image is sized from it (drain_plan.hpp; docs/monitor.md).
  std::uint64_t hardware_buffer_bytes = 32u << 20;
  // Decoded samples held before attribution folds them into totals (a pm_sample is ~120 bytes): 20 s at 5 ms.
  std::size_t max_samples = 4096;
  bool report_at_exit = false;
  monitor_report_format report_format = monitor_report_format::text;
  std::string report_file;  // "": stderr
  std::uint64_t report_every_ns = 0;  // 0: no periodic report
  // How often the decode thread empties the hardware buffer; 0: every 50 samples or a quarter of the buffer's
  // fill time, whichever comes first, 2-100 ms (plan_drains, drain_plan.hpp; docs/monitor.md).
  std::uint64_t drain_period_ns = 0;
  // Sampling part of the time (NAPKIN_MONITOR's sample=): the first sample_for_ns of every sample_every_ns,
  // counted from the first kernel the monitor sees (sampling_schedule, drain_plan.hpp). 0 and 0
  // (sample=all): all the time. Kernels outside those stretches are counted and timed from their activity
  // records but get no readings (their rows say not sampled or partial). The default, 1 s of every 60 s,
  // keeps the monitor under 3 % of a core on a busy GPU (docs/monitor.md, "The default").
  std::uint64_t sample_for_ns = 1'000'000'000;
  std::uint64_t sample_every_ns = 60'000'000'000;
  // The system view (napkin/system/, docs/system.md): copies, memsets and host calls beside the kernels, for
  // idle time and its causes, overlap, waits, the rules and the next kernel to profile. NAPKIN_MONITOR's system=.
  bool system = true;
};

// The largest value of each setting: beyond them a setting is a typo (or an overflow waiting in the
// arithmetic of the decode thread), and NAPKIN_MONITOR and validate_monitor_settings refuse it by name.
struct monitor_limits {
  static constexpr int max_device = 1024;                                   // device index
  static constexpr std::uint64_t max_interval_ns = 60'000'000'000;          // interval: 60 s
  static constexpr std::uint64_t max_every_ns = 86'400'000'000'000;         // every: a day
  static constexpr std::uint64_t max_buffer_bytes = std::uint64_t{16} << 30;  // buffer: 16 GiB
  static constexpr std::size_t max_samples = std::size_t{1} << 24;          // samples: 16 Mi (~2 GB decoded)
};

// Why settings cannot be used; "" when they can.
inline std::string validate_monitor_settings(const monitor_settings& s) {
  using l = monitor_limits;
  if (s.device < 0) return "napkin: monitor device must be >= 0, got " + std::to_string(s.device);
  if (s.device > l::max_device)
    return "napkin: monitor device must be at most " + std::to_string(l::max_device) + ", got " + std::to_string(s.device);
  if (s.interval_ns == 0) return "napkin: monitor interval must be > 0";
  if (s.interval_ns > l::max_interval_ns)
    return "napkin: monitor interval must be at most 60 s, got " + std::to_string(s.interval_ns) + " ns";
  if (s.report_every_ns > l::max_every_ns)
    return "napkin: monitor report period (every) must be at most a day (86400 s), got " +
           std::to_string(s.report_every_ns) + " ns";
  if (s.hardware_buffer_bytes == 0) return "napkin: monitor hardware buffer must be > 0 bytes";
  if (s.hardware_buffer_bytes > l::max_buffer_bytes)
    return "napkin: monitor hardware buffer must be at most 16 GiB, got " + std::to_string(s.hardware_buffer_bytes) +
           " bytes";
  if (s.max_samples == 0) return "napkin: monitor max_samples must be >= 1";
  if (s.sample_for_ns != 0 || s.sample_every_ns != 0) {
    // Each stretch starts with a setup sample the monitor drops: fewer than 4 intervals leave almost nothing.
    if (s.sample_for_ns < 4 * s.interval_ns)
      return "napkin: monitor sample= needs at least 4 intervals sampled per period, got " +
             std::to_string(s.sample_for_ns) + " ns at an interval of " + std::to_string(s.interval_ns) + " ns";
    if (s.sample_every_ns <= s.sample_for_ns)
      return "napkin: monitor sample= needs the period (" + std::to_string(s.sample_every_ns) +
             " ns) longer than the time sampled (" + std::to_string(s.sample_for_ns) + " ns); for all the time, sample=all (0 and 0)";
    if (s.sample_every_ns > l::max_every_ns)
      return "napkin: monitor sample= period must be at most a day (86400 s), got " + std::to_string(s.sample_every_ns) +
             " ns";
  }
  if (s.max_samples > l::max_samples)
    return "napkin: monitor max_samples must be at most " + std::to_string(l::max_samples) + ", got " +
           std::to_string(s.max_samples);
  return {};
}

inline void check_monitor_settings(const monitor_settings& s) {
  if (std::string why = validate_monitor_settings(s); !why.empty())
    detail::raise_input_error<std::invalid_argument>(std::move(why));
}

// Settings, or why the text could not be read (then `settings` holds the defaults, disabled).
struct monitor_settings_result {
  monitor_settings settings;
  std::string error;
  bool ok() const { return error.empty(); }
};

namespace detail {

inline bool monitor_word_is(std::string_view v, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (v.size() != w.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < v.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(v[i])) == static_cast<unsigned char>(w[i]);
    if (same) return true;
  }
  return false;
}

// "<digits>[.<digits>]<unit>" times the unit's size, as a whole number; false when malformed, not whole,
// or out of range. `units` are tried in order (longest first where one is a suffix of another).
inline bool monitor_scaled(std::string_view text,
                           std::initializer_list<std::pair<std::string_view, std::uint64_t>> units, bool unit_required,
                           std::uint64_t& out) {
  std::size_t digits_end = 0;
  while (digits_end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits_end])) || text[digits_end] == '.'))
    ++digits_end;
  const std::string_view number = text.substr(0, digits_end), unit = text.substr(digits_end);
  std::uint64_t scale = 0;
  if (unit.empty() && !unit_required) scale = 1;
  for (const auto& [name, size] : units)
    if (unit == name) scale = size;
  if (scale == 0 || number.empty()) return false;
  const std::size_t dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
  if (whole.empty() || frac.find('.') != std::string_view::npos || (dot != std::string_view::npos && frac.empty()) ||
      whole.size() > 12 || frac.size() > 9)
    return false;
  std::uint64_t w = 0, f = 0, f_div = 1;
  for (char c : whole) w = w * 10 + static_cast<std::uint64_t>(c - '0');
  for (char c : frac) f = f * 10 + static_cast<std::uint64_t>(c - '0'), f_div *= 10;
  if (w > UINT64_MAX / scale) return false;
  const std::uint64_t frac_scaled = f * scale;  // f < 1e9 and scale <= 1e9: fits
  if (frac_scaled % f_div != 0) return false;   // not a whole number of the smallest unit
  if (w * scale > UINT64_MAX - frac_scaled / f_div) return false;
  out = w * scale + frac_scaled / f_div;
  return true;
}

// A duration with its unit (ns, us, ms, s) in whole nanoseconds: interval=, every= and sample=.
inline bool monitor_duration(std::string_view text, std::uint64_t& ns) {
  return monitor_scaled(text, {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}}, true, ns);
}

}  // namespace detail

// Reads NAPKIN_MONITOR's value (nullptr: unset). Never raises.
inline monitor_settings_result parse_monitor_settings(const char* value) {
  monitor_settings_result r;
  if (value == nullptr) return r;
  const std::string_view v{value};
  const auto fail = [&](const std::string& why) {
    r.settings = monitor_settings{};
    r.error = "napkin: NAPKIN_MONITOR=\"" + std::string(v) + "\": " + why;
    return r;
  };
  // On or off: the one reader of napkin's on/off variables (detail/switch_word.hpp); else key=value options.
  const detail::switch_word word = detail::parse_switch_word(v);
  if (detail::trim_blanks(v).empty() || word == detail::switch_word::off) return r;
  r.settings.enabled = true;
  if (word == detail::switch_word::on) return r;
  if (v.find('=') == std::string_view::npos) {
    r.settings = monitor_settings{};
    r.error = detail::switch_word_problem("NAPKIN_MONITOR", v) + ", nor key=value options";
    return r;
  }
  constexpr std::string_view keys = "device, interval, buffer, samples, report, every, format, file, sample, system";
  unsigned seen = 0;
  bool report_off = false;
  std::size_t pos = 0;
  while (pos <= v.size()) {
    const std::size_t comma = std::min(v.find(',', pos), v.size());
    const std::string_view item = v.substr(pos, comma - pos);
    pos = comma + 1;
    const std::size_t eq = item.find('=');
    if (item.empty()) return fail("an empty option (two commas, or one at an end)");
    if (eq == std::string_view::npos)
      return fail("\"" + std::string(item) +
                  "\" is not key=value (on/off must be the whole value; keys: " + std::string(keys) + ")");
    const std::string_view key = item.substr(0, eq), val = item.substr(eq + 1);
    const std::string quoted = "\"" + std::string(val) + "\"";
    const std::string_view names[] = {"device", "interval", "buffer", "samples", "report",
                                      "every",  "format",   "file",   "sample", "system"};
    unsigned bit = 0;
    for (unsigned i = 0; i < 10; ++i)
      if (key == names[i]) bit = 1u << i;
    if (bit == 0) return fail("unknown option \"" + std::string(key) + "\" (known: " + std::string(keys) + ")");
    if (seen & bit) return fail("option \"" + std::string(key) + "\" is given twice");
    seen |= bit;
    std::uint64_t n = 0;
    if (key == "device") {
      if (!detail::monitor_scaled(val, {}, false, n) || val.find('.') != std::string_view::npos)
        return fail("device: " + quoted + " is not a device index (0, 1, ...)");
      if (n > static_cast<std::uint64_t>(monitor_limits::max_device))
        return fail("device: " + quoted + " is above " + std::to_string(monitor_limits::max_device) +
                    ", napkin's limit for a device index");
      r.settings.device = static_cast<int>(n);
    } else if (key == "interval" || key == "every") {
      if (!detail::monitor_duration(val, n) || n == 0)
        return fail(std::string(key) + ": " + quoted +
                    " is not a duration (a number above 0 and a unit: ns, us, ms or s; e.g. 5ms, 0.5ms, 250us)");
      if (key == "interval" && n > monitor_limits::max_interval_ns)
        return fail("interval: " + quoted + " is above 60 s, napkin's limit for the sampling interval");
      if (key == "every" && n > monitor_limits::max_every_ns)
        return fail("every: " + quoted + " is above a day (86400 s), napkin's limit for the report period");
      (key == "interval" ? r.settings.interval_ns : r.settings.report_every_ns) = n;
    } else if (key == "system") {
      const detail::switch_word w = detail::parse_switch_word(val);
      if (w == detail::switch_word::on) r.settings.system = true;
      else if (w == detail::switch_word::off && !val.empty()) r.settings.system = false;
      else return fail("system: " + quoted + " is not on or off");
    } else if (key == "sample") {
      const std::size_t slash = val.find('/');
      std::uint64_t every = 0;
      if (detail::monitor_word_is(val, {"all"})) {
        n = every = 0;  // all the time
      } else if (slash == std::string_view::npos || !detail::monitor_duration(val.substr(0, slash), n) ||
          !detail::monitor_duration(val.substr(slash + 1), every) || n == 0 || every == 0)
        return fail("sample: " + quoted +
                    " is not <duration>/<duration> (e.g. 1s/30s: the first second of every 30) or all");
      r.settings.sample_for_ns = n;
      r.settings.sample_every_ns = every;
    } else if (key == "buffer") {
      const std::initializer_list<std::pair<std::string_view, std::uint64_t>> byte_units = {
          {"B", 1}, {"KiB", 1u << 10}, {"MiB", 1u << 20}, {"GiB", 1u << 30},
          {"kB", 1000}, {"KB", 1000}, {"MB", 1000000}, {"GB", 1000000000}};
      if (!detail::monitor_scaled(val, byte_units, false, n) || n == 0)
        return fail("buffer: " + quoted + " is not a size in bytes (e.g. 32MiB, 64MB, 1048576)");
      if (n > monitor_limits::max_buffer_bytes)
        return fail("buffer: " + quoted + " is above 16 GiB, napkin's limit for the hardware buffer");
      r.settings.hardware_buffer_bytes = n;
    } else if (key == "samples") {
      if (!detail::monitor_scaled(val, {}, false, n) || val.find('.') != std::string_view::npos || n == 0)
        return fail("samples: " + quoted + " is not a sample count (a whole number >= 1)");
      if (n > monitor_limits::max_samples)
        return fail("samples: " + quoted + " is above " + std::to_string(monitor_limits::max_samples) +
                    ", napkin's limit for samples held");
      r.settings.max_samples = static_cast<std::size_t>(n);
    } else if (key == "format") {
      bool known = false;
      for (monitor_report_format f : all_monitor_report_formats)
        if (!known && detail::monitor_word_is(val, {to_string(f)})) {
          r.settings.report_format = f;
          known = true;
        }
      if (!known) return fail("format: " + quoted + " is not text, json, csv or kv");
      r.settings.report_at_exit = true;
    } else if (key == "file") {
      if (val.empty()) return fail("file: an empty path");
      r.settings.report_file = std::string(val);
      r.settings.report_at_exit = true;
    } else {  // report
      if (detail::monitor_word_is(val, {"exit"}))
        r.settings.report_at_exit = true;
      else if (detail::monitor_word_is(val, {"off", "none"}))
        report_off = true;
      else
        return fail("report: " + quoted + " is not exit or off (a periodic report is every=<duration>)");
    }
  }
  monitor_settings& m = r.settings;  // a long interval= without sample=: the default stretch holds 4 of them
  if (!(seen & (1u << 8)) && m.sample_every_ns != 0 && m.sample_for_ns < 4 * m.interval_ns) {
    m.sample_every_ns = m.sample_every_ns / m.sample_for_ns * 4 * m.interval_ns;  // the same share of the time
    m.sample_for_ns = 4 * m.interval_ns;
  }
  if (report_off && (seen & ((1u << 6) | (1u << 7))))
    return fail("report=off contradicts format= or file= (which write the report at exit)");
  if (!(seen & (1u << 6)) && !r.settings.report_file.empty()) {  // no format=: the file's extension says
    const auto ends_with = [&](std::string_view tail) {
      const std::string& f = r.settings.report_file;
      return f.size() >= tail.size() && detail::monitor_word_is(std::string_view(f).substr(f.size() - tail.size()), {tail});
    };
    if (ends_with(".json")) r.settings.report_format = monitor_report_format::json;
    if (ends_with(".csv")) r.settings.report_format = monitor_report_format::csv;
  }
  // What only the options together say (sample= against interval=, its period against a day): settings that
  // parse are settings that validate.
  if (std::string why = validate_monitor_settings(r.settings); !why.empty())
    return fail(why.substr(why.rfind("napkin: ", 0) == 0 ? 8 : 0));
  return r;
}

// NAPKIN_MONITOR from the environment; the error as a value.
inline monitor_settings_result try_monitor_settings_from_env() {
  return parse_monitor_settings(std::getenv("NAPKIN_MONITOR"));
}

// NAPKIN_MONITOR from the environment; a malformed value goes through napkin's failure path.
inline monitor_settings monitor_settings_from_env() {
  monitor_settings_result r = try_monitor_settings_from_env();
  if (!r.ok()) detail::raise_input_error<std::invalid_argument>(std::move(r.error));
  return r.settings;
}

NAPKIN_END_NAMESPACE
