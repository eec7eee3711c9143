# SPDX-License-Identifier: Apache-2.0
# What several test folders look for, found once (tests/CMakeLists.txt includes this before them):
#   nlohmann_json::nlohmann_json  nlohmann/json, header-only (Debian: nlohmann-json3-dev), when found; the tests
#                                 read napkin's JSON back with it (the header library never uses it)
#   NAPKIN_SYSTEM_PYTHON          Debian's /usr/bin/python3
#   NAPKIN_HAS_JSONSCHEMA         TRUE when that interpreter imports jsonschema (python3-jsonschema), which the
#                                 schema tests (tests/report/validate_schema.py) need
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(NAPKIN_NLOHMANN_INCLUDE_DIR nlohmann/json.hpp DOC "Folder holding nlohmann/json.hpp (nlohmann-json3-dev)")
  if(NAPKIN_NLOHMANN_INCLUDE_DIR)
    add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
    target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${NAPKIN_NLOHMANN_INCLUDE_DIR})
  endif()
endif()

find_program(NAPKIN_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
set(NAPKIN_HAS_JSONSCHEMA FALSE)
if(NAPKIN_SYSTEM_PYTHON)
  execute_process(COMMAND ${NAPKIN_SYSTEM_PYTHON} -c "import jsonschema" RESULT_VARIABLE napkin_no_jsonschema
                  OUTPUT_QUIET ERROR_QUIET)
  if(napkin_no_jsonschema EQUAL 0)
    set(NAPKIN_HAS_JSONSCHEMA TRUE)
  endif()
endif()
