// What the tests ask of a message: does it contain a part, and what did an input error say.
#pragma once

#include <stdexcept>
#include <string>

namespace napkin_test {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The message of the input error (std::invalid_argument) `f` raises; "" when it raises none.
template <class F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace napkin_test
