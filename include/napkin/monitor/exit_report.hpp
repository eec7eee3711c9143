// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/exit_report.hpp — the report napkin::monitor writes when it ends (NAPKIN_MONITOR's
// report=exit, format=, file=): in the chosen form, to a file or to stderr. A failure to write is returned
// as text (the monitor prints it on stderr): a program never dies on its way out because of the monitor.
// Plain C++17; no CUDA or CUPTI.
#pragma once

#include "napkin/config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "napkin/monitor/monitor_report.hpp"
#include "napkin/monitor/settings.hpp"
#include "napkin/report/document.hpp"
#include "napkin/report/monitor_documents.hpp"

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

// Writes the report as `s` asks (s.report_format, to s.report_file or stderr). Returns "" or why it could not.
inline std::string write_monitor_report(const monitor_report& r, const monitor_settings& s) {
  const std::string text = render_monitor_report(r, s.report_format);
  if (s.report_file.empty()) {
    std::fputs(text.c_str(), stderr);
    return {};
  }
  std::FILE* f = std::fopen(s.report_file.c_str(), "wb");
  if (f == nullptr)
    return "napkin: monitor: cannot write the report to \"" + s.report_file + "\": " + std::strerror(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) return "napkin: monitor: writing the report to \"" + s.report_file + "\" failed";
  return {};
}

NAPKIN_END_NAMESPACE
