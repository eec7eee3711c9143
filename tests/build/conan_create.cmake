# napkin's Conan recipe (conanfile.py) works: `conan create . -tf <test package>` packages napkin (its own
# cmake --install) and builds and runs the test package (tests/build/conan_test_package, which builds
# tests/build/consumer's programs through find_package). Conan 2 comes from PyPI into a virtual environment
# under WORK, and its cache (CONAN_HOME) lives there too; without network or venv the test says SKIPPED.
#   cmake -DPYTHON=<python3> -DSOURCE=<napkin> -DWORK=<scratch> -DGENERATOR=<generator> -P conan_create.cmake
cmake_minimum_required(VERSION 3.22)
set(venv "${WORK}/venv")
include("${CMAKE_CURRENT_LIST_DIR}/pip_venv.cmake")
pip_venv_tool(DIR "${venv}" PACKAGE "conan>=2,<3" TOOL conan TIMEOUT 300 OUT conan)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
endfunction()

# A fresh Conan cache and the test package copied out of the source tree (Conan builds inside it).
set(ENV{CONAN_HOME} "${WORK}/conan-home")
file(REMOVE_RECURSE "${WORK}/conan-home" "${WORK}/tests")
file(COPY "${SOURCE}/tests/build/conan_test_package" "${SOURCE}/tests/build/consumer" DESTINATION "${WORK}/tests")
run("conan profile detect" "${conan}" profile detect --force)
run("conan create" "${conan}" create "${SOURCE}" -tf "${WORK}/tests/conan_test_package"
    -c "tools.cmake.cmaketoolchain:generator=${GENERATOR}")
message(STATUS "conan create: napkin packaged, its test package built and ran")
