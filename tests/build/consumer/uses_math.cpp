// Plain C++17: no CUDA header anywhere on the include path when WITH_CUDA=OFF.
#include <napkin/occupancy.hpp>

#include <cstdio>
#include <cstring>
#include <string>

// The version the package says it is (CMake's napkin_VERSION, CMakeLists.txt) must be the headers'.
int main() {
  const std::string headers = std::to_string(NAPKIN_VERSION_MAJOR) + "." + std::to_string(NAPKIN_VERSION_MINOR) +
                              "." + std::to_string(NAPKIN_VERSION_PATCH);
  if (headers != NAPKIN_CONSUMER_PACKAGE_VERSION) {
    std::printf("napkin package version %s, headers %s\n", NAPKIN_CONSUMER_PACKAGE_VERSION, headers.c_str());
    return 1;
  }
  return 0;
}
