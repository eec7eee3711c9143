// SPDX-License-Identifier: Apache-2.0
// napkin/document/text_file.hpp — writing a report to a file, the one way napkin does it: the whole text or
// a reason, never an exception (a program must not die on its way out because a report could not be
// written). Plain C++17 and POSIX.
//
// A regular file (or a new one) is replaced atomically: the text goes to a temporary file in the same
// folder, which is renamed over the old one only once it is complete, so a failed write (a full disk, a
// file size limit) leaves the old file as it was and no temporary behind. The replacement keeps the old
// file's permission bits; a new file gets the usual 0666 less the umask. Anything else that exists at the
// path (/dev/stdout, a FIFO) is written in place, as it cannot be replaced.
//
// A symbolic link is written through, as `>` in a shell writes through it: the file it leads to (through a
// chain of links, each relative one read from its link's folder) is replaced atomically in that file's own
// folder, and the link stays a link. A link to nothing yet creates the file it names.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// Writes `text` to `given` (replacing it, or the file its symbolic link leads to). Returns "" or why not: the
// system's words for a failed open or write ("No such file or directory", "File too large", "Too many levels
// of symbolic links"), or "a short write" / "closing failed".
std::string write_text_file(const std::string& given, std::string_view text);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/document/text_file_impl.hpp"
#endif
