// The failure handler of the -fno-exceptions tests: prints the failure in one line that CTest's regular
// expression matches, then exits (bad input has nothing to continue with).
#pragma once

#include <cstdio>
#include <cstdlib>

#include "napkin/error.hpp"

namespace napkin_test {
inline void print_and_exit(const napkin::error_info& info) {
  std::printf("handler: library=%s message=%s\n", info.library.c_str(), info.message().c_str());
  std::fflush(stdout);
  std::_Exit(3);
}
}  // namespace napkin_test
