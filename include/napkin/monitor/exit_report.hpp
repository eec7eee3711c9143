// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/exit_report.hpp — the report napkin::monitor writes when it ends (NAPKIN_MONITOR's
// report=exit, format=, file=): in the chosen form, to a file or to stderr. A failure to write is returned
// as text (the monitor prints it on stderr): a program never dies on its way out because of the monitor.
// Plain C++17; no CUDA or CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "napkin/document/document.hpp"
#include "napkin/document/text_file.hpp"
#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/settings.hpp"
#include "napkin/system/system_documents.hpp"

NAPKIN_BEGIN_NAMESPACE

// The report as text, JSON (kind "monitor-report"), CSV or key=value lines; every form ends with a newline.
inline std::string render_monitor_report(const monitor_report& r, monitor_report_format format,
                                         const document_options& options = {}) {
  switch (format) {
    case monitor_report_format::json: return to_json(r, options) + "\n";
    case monitor_report_format::csv: return to_csv(r);
    case monitor_report_format::key_values: return to_key_values(r) + "\n";
    case monitor_report_format::text: break;
  }
  return to_text(r);
}

// Where a CSV report's system view goes: a CSV file holds one table, so the system view's (one row per
// phase, system_documents.hpp) is written beside the monitor's: PATH.csv -> PATH.system.csv, PATH -> PATH.system.csv.
inline std::string system_csv_path(const std::string& report_path) {
  constexpr std::string_view csv = ".csv";
  const bool has_csv = report_path.size() >= csv.size() &&
                       std::string_view(report_path).substr(report_path.size() - csv.size()) == csv;
  return (has_csv ? report_path.substr(0, report_path.size() - csv.size()) : report_path) + ".system.csv";
}

// Writes the report as `s` asks (s.report_format, to s.report_file or stderr). Returns "" or why it could not.
// CSV with a system view: on stderr the two tables, a blank line between; to a file, the system view's table
// to system_csv_path(file).
inline std::string write_monitor_report(const monitor_report& r, const monitor_settings& s) {
  const std::string text = render_monitor_report(r, s.report_format);
  const bool system_table = s.report_format == monitor_report_format::csv && r.system.has_value();
  if (s.report_file.empty()) {
    std::fputs(text.c_str(), stderr);
    if (system_table) std::fputs(("\n" + to_csv(*r.system)).c_str(), stderr);
    return {};
  }
  const auto failed = [](const std::string& path, const std::string& why) {
    return "napkin: monitor: cannot write the report to \"" + path + "\": " + why;
  };
  if (const std::string why = write_text_file(s.report_file, text); !why.empty()) return failed(s.report_file, why);
  if (!system_table) return {};
  const std::string system_path = system_csv_path(s.report_file);
  const std::string why = write_text_file(system_path, to_csv(*r.system));
  return why.empty() ? why : failed(system_path, why);
}

// When the next periodic report is due (NAPKIN_MONITOR's every=, monitor::on_report): every `period_ns`
// from the start, skipping the periods a slow drain missed instead of firing them in a burst. Times are any
// monotonic nanosecond count; period 0 never fires.
class report_schedule {
 public:
  report_schedule() = default;
  report_schedule(std::uint64_t period_ns, std::uint64_t start_ns) : period_(period_ns), next_(start_ns + period_ns) {}

  // True (once) when `now_ns` has reached the next due time; the one after is the first still ahead.
  bool due(std::uint64_t now_ns) noexcept {
    if (period_ == 0 || now_ns < next_) return false;
    next_ += ((now_ns - next_) / period_ + 1) * period_;
    return true;
  }
  std::uint64_t next_ns() const noexcept { return next_; }

 private:
  std::uint64_t period_ = 0, next_ = 0;
};

NAPKIN_END_NAMESPACE
