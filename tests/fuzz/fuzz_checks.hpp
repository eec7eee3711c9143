// What the fuzz targets share: a finding stops the run (libFuzzer keeps the input as a crash artifact, the
// replay test fails), and the check that text shown to people holds no control character.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzz {

// Stops the run with `what` when `ok` is false: an invariant the input broke.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

// No C0 control character but line breaks (and, with `layout`, CR and tab, which CSV and HTML may carry),
// no DEL, no raw right-to-left override or isolate.
inline bool no_control_characters(const std::string& s, bool layout = false) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    const bool allowed = c == '\n' || (layout && (c == '\r' || c == '\t'));
    if ((u < 0x20 && !allowed) || u == 0x7F) return false;
  }
  return s.find("\xE2\x80\xAE") == std::string::npos && s.find("\xE2\x81\xA6") == std::string::npos;
}

}  // namespace fuzz
