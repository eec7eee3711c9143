// SPDX-License-Identifier: Apache-2.0
// napkin/report/text_file.hpp — writing a report to a file, the one way napkin does it: the whole text or
// a reason, never an exception (a program must not die on its way out because a report could not be
// written). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// Writes `text` to `path` (replacing it). Returns "" or why not: the system's words for a failed open
// ("No such file or directory"), or "a short write" / "closing failed".
inline std::string write_text_file(const std::string& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return std::strerror(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written) return "a short write";
  if (!closed) return "closing failed";
  return {};
}

NAPKIN_END_NAMESPACE
