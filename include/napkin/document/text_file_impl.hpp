// SPDX-License-Identifier: Apache-2.0
// napkin/document/text_file.hpp's atomic report writing (POSIX): the function bodies. Included by text_file.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "napkin/document/text_file.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// Writes all of `text` to `fd`; "" or why not.
NAPKIN_DETAIL_FUNC std::string write_all(int fd, std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::strerror(errno);
    if (n == 0) return "a short write";
    done += static_cast<std::size_t>(n);
  }
  return {};
}

// Where `path` leads: itself when it is no symbolic link, else the end of its chain of links (which need
// not exist yet); "" when the chain is longer than 40 links (Linux's limit) or loops.
NAPKIN_DETAIL_FUNC std::string link_target(std::string path) {
  for (int hops = 0; hops <= 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::string target(256, '\0');
    for (;;) {
      const ssize_t n = ::readlink(path.c_str(), &target[0], target.size());
      if (n < 0) return path;  // gone meanwhile: the caller's open says why
      if (static_cast<std::size_t>(n) < target.size()) {
        target.resize(static_cast<std::size_t>(n));
        break;
      }
      target.resize(target.size() * 2);  // the link's text may have been cut: read it again, whole
    }
    if (target.empty() || target[0] != '/') {  // relative to the folder of the link
      const std::size_t slash = path.rfind('/');
      if (slash != std::string::npos) target = path.substr(0, slash + 1) + target;
    }
    path = std::move(target);
  }
  return {};
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string write_text_file(const std::string& given, std::string_view text) {
  const std::string path = detail::link_target(given);
  if (path.empty()) return std::strerror(ELOOP);
  struct stat old {};
  const bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) {  // a device or a FIFO: written in place
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    std::string why = detail::write_all(fd, text);
    if (::close(fd) != 0 && why.empty()) why = "closing failed";
    return why;
  }
  // A temporary name no other writer uses: the process id, the clock and the attempt, created exclusively.
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temporary = path + ".napkin-" + std::to_string(::getpid()) + "-" + std::to_string(now) + "-" +
                std::to_string(attempt) + ".tmp";
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return std::strerror(errno);
  }
  if (fd < 0) return "no free temporary file name next to it";
  std::string why = detail::write_all(fd, text);
  if (why.empty() && exists && ::fchmod(fd, old.st_mode & 07777) != 0) why = std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = "closing failed";
  if (why.empty() && ::rename(temporary.c_str(), path.c_str()) != 0) why = std::strerror(errno);
  if (!why.empty()) ::unlink(temporary.c_str());
  return why;
}

NAPKIN_END_NAMESPACE
