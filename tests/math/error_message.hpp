// Test helper: the what() of the exception a callable throws ("" when it throws nothing), so that tests
// can check both the exception type (CHECK_THROWS_AS) and that the message names the problem.
#pragma once

#include <exception>
#include <string>

namespace napkin_test {

template <class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

inline bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace napkin_test
