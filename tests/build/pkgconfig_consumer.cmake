# A consumer built with pkg-config alone (no CMake package): the installed napkin-math.pc, napkin.pc and
# napkin-profiler.pc give the flags, the compiler is called by hand, the programs run.
#   cmake -DPREFIX=<install prefix> -DDATADIR=<share> -DCXX=<c++> -DPKG_CONFIG=<pkg-config> -DVERSION=<x.y.z>
#         -DWITH_CUDA=ON|OFF -DSOURCE=<tests/build/consumer> -DWORK=<scratch> -P pkgconfig_consumer.cmake
cmake_minimum_required(VERSION 3.22)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${DATADIR}/pkgconfig")

function(pc out)  # pc(<out> <pkg-config arguments...>): the output, split into arguments
  execute_process(COMMAND ${PKG_CONFIG} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} failed (${rc}): ${err}")
  endif()
  message(STATUS "pkg-config ${ARGN}: ${text}")
  separate_arguments(text UNIX_COMMAND "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

set(modules napkin-math)
if(WITH_CUDA)
  list(APPEND modules napkin napkin-profiler)
endif()
foreach(m ${modules})
  pc(v --modversion ${m})
  if(NOT v STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config says ${m} is version '${v}', the project is ${VERSION}")
  endif()
endforeach()

# napkin::math's program, with napkin-math's flags only: no CUDA header on the include path.
pc(flags --cflags napkin-math)
run("compile uses_math" ${CXX} -std=c++17 ${flags} "-DNAPKIN_CONSUMER_PACKAGE_VERSION=\"${VERSION}\""
    "${SOURCE}/uses_math.cpp" -o "${WORK}/uses_math")
run("uses_math" "${WORK}/uses_math")

if(WITH_CUDA)
  # The checks, NVTX and the runtime: compiled, linked and run (no driver needed). The rpath is this test's.
  pc(flags --cflags --libs napkin)
  pc(libdir --variable=cudalibdir napkin)
  run("compile uses_check" ${CXX} -std=c++17 "${SOURCE}/uses_check.cpp" ${flags} "-Wl,-rpath,${libdir}"
      -o "${WORK}/uses_check")
  run("uses_check" "${WORK}/uses_check")
  # The profiler: its header compiles and the program links against CUPTI (not run: it needs a GPU).
  pc(flags --cflags --libs napkin-profiler)
  if(NOT "-lcupti" IN_LIST flags)
    message(FATAL_ERROR "napkin-profiler's libs lack -lcupti: ${flags}")
  endif()
  file(WRITE "${WORK}/uses_profiler.cpp" [=[
#include <napkin/profiler.hpp>
int main(int argc, char**) {
  if (argc > 5) { napkin::profiler p; }
  return 0;
}
]=])
  run("compile and link uses_profiler" ${CXX} -std=c++17 "${WORK}/uses_profiler.cpp" ${flags}
      -o "${WORK}/uses_profiler")
endif()
message(STATUS "pkg-config consumer (CUDA ${WITH_CUDA}): built and ran")
