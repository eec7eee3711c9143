// napkin's version is written once, in napkin/config.hpp, and the CMake project reads it from there
// (CMakeLists.txt). This fails if the two drift apart (a literal version put back into project(), a
// parse that breaks), and checks the version namespace the version names (napkin/config.hpp).
#include <doctest/doctest.h>
#include <napkin/error.hpp>

#include <string>
#include <typeinfo>

static_assert(NAPKIN_VERSION_MAJOR == NAPKIN_TEST_PROJECT_VERSION_MAJOR &&
                  NAPKIN_VERSION_MINOR == NAPKIN_TEST_PROJECT_VERSION_MINOR &&
                  NAPKIN_VERSION_PATCH == NAPKIN_TEST_PROJECT_VERSION_PATCH,
              "napkin/config.hpp and the CMake project disagree on napkin's version");

TEST_CASE("NAPKIN_VERSION is major * 10000 + minor * 100 + patch") {
  CHECK(NAPKIN_VERSION == NAPKIN_TEST_PROJECT_VERSION_MAJOR * 10000 + NAPKIN_TEST_PROJECT_VERSION_MINOR * 100 +
                              NAPKIN_TEST_PROJECT_VERSION_PATCH);
}

TEST_CASE("napkin's declarations live in the namespace v<major>_<minor>") {
  // Itanium mangling names each namespace with its length first: N6napkin4v0_110error_infoE.
  const std::string ns = "v" + std::to_string(NAPKIN_VERSION_MAJOR) + "_" + std::to_string(NAPKIN_VERSION_MINOR);
  const std::string mangled = typeid(napkin::error_info).name();
  CHECK_MESSAGE(mangled.find("6napkin" + std::to_string(ns.size()) + ns) != std::string::npos, mangled);
}
