// Test files on disk: what the readers' tests write to read back.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

namespace napkin_test {

// Writes `text` to dir/name, byte for byte, and returns the path; a test that cannot write fails there.
inline std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

}  // namespace napkin_test
